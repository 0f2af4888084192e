import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';

/** Where Context Deck keeps its event log and per-project state. Setting beats environment beats default. */
export function resolveHome(setting?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = setting?.trim() || env.CONTEXT_DECK_HOME?.trim() || join(homedir(), '.context-deck');
  return resolve(expandTilde(chosen));
}

export function expandTilde(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

export function eventsDir(home: string): string {
  return join(home, 'events');
}

/** A project's next session-start context, which the recorder prints at SessionStart. */
export const SESSION_CONTEXT_FILE = 'session-context.md';

export function projectStateDir(home: string, projectId: string): string {
  return join(home, 'projects', projectId);
}

/** True when `child` is `parent` or lies below it. */
export function isWithin(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
