/** What the project's next session starts with, as its users reach it: ProjectEngine.context. */
import type { ProjectStore } from '../storage/projectStore';
import type { SessionContext } from './sessionContextText';
import {
  assembleSessionContext,
  type SessionContextOptions,
  sessionContextPath,
  writeSessionContext,
} from './sessionContextAssembly';

export class ProjectContext {
  constructor(private readonly project: ProjectStore) {}

  assemble(options: SessionContextOptions): SessionContext {
    return assembleSessionContext(this.project, options);
  }

  /** Writes the files the recorder prints at SessionStart; returns whether the session context's text changed. */
  write(context: SessionContext): boolean {
    return writeSessionContext(this.project, context);
  }

  /** The file the recorder prints at SessionStart. */
  get path(): string {
    return sessionContextPath(this.project);
  }
}
