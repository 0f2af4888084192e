import * as fs from 'node:fs';
import {
  assembleSessionContext,
  discoverFromUse,
  ProjectEngine,
  resolveHome,
  type Role,
  writeSessionContext,
} from '../engine';
import type { CliContext } from './command';

/** Open the --project's engine (the folder must exist); warnings go to stderr unless `quiet`. */
export async function openProject(
  context: CliContext,
  role: Role | 'auto',
  purpose: string,
  quiet = false,
): Promise<ProjectEngine> {
  if (!fs.existsSync(context.project)) throw new Error(`project folder not found: ${context.project}`);
  const engine = await ProjectEngine.open({
    home: resolveHome(context.home),
    folder: context.project,
    role,
    purpose,
  });
  if (!quiet) for (const warning of engine.warnings) context.stderr(`warning: ${warning}`);
  return engine;
}

/**
 * Run long work with a signal that Ctrl-C or SIGTERM fires, so it stops after what it has committed; the
 * engine is closed (and so saved) whatever happens.
 */
export async function withInterrupt<T>(
  engine: ProjectEngine,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await work(abort.signal);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await engine.close();
  }
}

/** After a writer ingests: tool use counts, then the file the recorder prints at the next SessionStart. */
export function refreshDerived(engine: ProjectEngine): void {
  discoverFromUse(engine);
  writeSessionContext(engine, assembleSessionContext(engine, { now: Date.now() }));
}
