import * as fs from 'node:fs';
import { ProjectEngine, resolveHome } from '../engine';
import type { CliContext } from './command';
import type { Role } from '../shared/ingest';
import { SETTINGS } from '../shared/settings';

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
 * Run `work` on the project's saved snapshot, opened read-only (quietly: a reader's warnings are for the
 * commands that report them), and close it whatever happens: reading never writes the database.
 */
export async function withProjectSnapshot<T>(
  context: CliContext,
  purpose: string,
  work: (engine: ProjectEngine) => T | Promise<T>,
): Promise<T> {
  const engine = await openProject(context, 'reader', purpose, true);
  try {
    return await work(engine);
  } finally {
    await engine.close();
  }
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

/**
 * After a writer ingests: the derived views as the extension brings them up to date (project/derivedViews.ts),
 * at once; `fold: false` leaves older history as it is (a memory write, whose forget may yet be undone).
 */
export function refreshDerived(engine: ProjectEngine, { fold = true } = {}): void {
  const views = fold ? undefined : (['registry', 'context'] as const);
  engine.refreshViews({ detailDays: SETTINGS['history.detailDays'].default, views });
}
