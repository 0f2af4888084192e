/** The CLI and recorder as they ship, bundled once per test file; sessions for them to read, and what they saved. */
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { useBundle } from './bundle';
import { appendEvents, sessionEvents } from './events';

/**
 * Bundles `cli.js`, `hook.js` (the loader agents run) with `recorder.js`, and the parse worker before the
 * file's tests; returns a script's path.
 */
export function useShippedBundle(): (script: 'cli' | 'hook') => string {
  return useBundle({
    cli: 'src/cli/main.ts',
    hook: 'src/hook/loader.ts',
    recorder: 'src/hook/main.ts',
    parseWorker: 'src/engine/workers/parseWorker.ts',
  });
}

/** How many events the project's saved snapshot holds, as another window would read it. */
export async function savedEvents(home: string, folder: string): Promise<number> {
  const reader = await ProjectEngine.open({ home, folder, role: 'reader' });
  try {
    return reader.counts().events;
  } finally {
    await reader.close();
  }
}

/** Append a short session of `folder` to the event log; returns how many events it has. */
export function appendSession(home: string, folder: string, sessionId: string): number {
  const events = sessionEvents({ sessionId, cwd: folder, startAt: 1e12, tools: [{ tool: 'Read' }] });
  appendEvents(home, events);
  return events.length;
}
