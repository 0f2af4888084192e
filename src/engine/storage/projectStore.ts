/** What the passes over a project's database need of the project: the project facade (ProjectEngine) is one. */
import type { Role } from '../../shared/ingest';
import type { ProjectIdentity } from '../kernel/projectIdentity';
import type { Store } from './store';

export interface ProjectStore {
  readonly store: Store;
  /** Only the window that writes the project may change its database; a reader's is replaced by snapshots. */
  readonly role: Role;
  readonly home: string;
  readonly identity: ProjectIdentity;
  /** Whether a working directory belongs to this project (its roots, worktrees and routes). */
  belongsHere(cwd: string): boolean;
  /** Tells the project's listeners that rows changed outside its own ingest. */
  noteExternalChange(): void;
  /** The project's clock (a test's own, else the system's): what "now" is for idle sessions and folds. */
  now(): number;
}
