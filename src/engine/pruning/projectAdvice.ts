/** The user's answers to one project's pruning advice, as its users reach them: ProjectEngine.advice. */
import type { ProjectStore } from '../storage/projectStore';
import { type AdviceState, readAdviceState, withDisabledServers, writeAdviceState } from './adviceState';

export class ProjectAdvice {
  constructor(private readonly project: Pick<ProjectStore, 'home' | 'identity'>) {}

  /**
   * Pinned and dismissed items (nothing where the file is missing or unreadable); `disabledServers` are
   * left out of the advice like pinned ones, as disabling them is already done.
   */
  state(disabledServers: readonly string[] = []): AdviceState {
    return withDisabledServers(readAdviceState(this.project.home, this.project.identity.id), disabledServers);
  }

  setState(state: AdviceState): void {
    writeAdviceState(this.project.home, this.project.identity.id, state);
  }
}
