import { type ProjectEngine } from '../engine';
import type { CliContext } from './command';
import { openProject, refreshDerived, withInterrupt } from './projectSession';

export interface MemoryWrite<T> {
  value: T;
  /**
   * Who will ingest the write, e.g. "the open VS Code window"; undefined when it is in the saved database
   * already, so that the next search, get or timeline shows it.
   */
  pendingWith: string | undefined;
}

/**
 * Runs a memory write (save, forget): `write` appends its event to the event log, which stays the truth.
 * When no other process writes the project, the CLI is its writer for a moment and ingests the event at
 * once; otherwise the writer ingests it on its own, and the CLI does not wait for that.
 */
export async function writeMemory<T>(
  context: CliContext,
  purpose: string,
  write: (engine: ProjectEngine) => T,
): Promise<MemoryWrite<T>> {
  const engine = await openProject(context, 'auto', purpose);
  return withInterrupt(engine, async (signal) => {
    const value = write(engine);
    if (engine.role !== 'writer') return { value, pendingWith: pendingWriter(engine) };
    await engine.ingest({ signal });
    refreshDerived(engine, { fold: false });
    return { value, pendingWith: signal.aborted ? NEXT_INGEST : undefined };
  });
}

const NEXT_INGEST = 'the next ingest';

function pendingWriter(engine: ProjectEngine): string {
  const holder = engine.writer();
  if (!holder) return NEXT_INGEST;
  // The extension host's purpose (src/host/project/projects.ts); other writers are named as they name themselves.
  return holder.purpose.startsWith('VS Code window')
    ? 'the open VS Code window'
    : `the project's writer (pid ${holder.pid}, ${holder.purpose})`;
}
