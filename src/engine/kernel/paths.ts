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
/** The session context after a compaction, for the node recorder (the `sh` hook reads its hook output). */
export const SESSION_CONTEXT_COMPACT_FILE = 'session-context-compact.md';

/**
 * Where the SessionStart hook finds what to print for a project folder (`root`, absolute): a folder tree
 * under the home that mirrors the project's path, so that a POSIX `sh` hook finds it from its working folder
 * and that folder's ancestors with shell builtins alone (see agents/spoolCommand.ts).
 */
export const HOOK_OUTPUT_DIR = 'session-start';
export const HOOK_OUTPUT_FILE = 'hook-output.json';
/** What the SessionStart hook prints when the agent starts again after a compaction (`source: "compact"`). */
export const HOOK_OUTPUT_COMPACT_FILE = 'hook-output-compact.json';

/** `root` as `sh` has it in $PWD: Git Bash, which Claude Code runs hooks with on Windows, says /c/Users/…. */
export function hookOutputFile(
  home: string,
  root: string,
  platform = process.platform,
  name = HOOK_OUTPUT_FILE,
): string {
  const shellRoot =
    platform === 'win32'
      ? root.replace(/^([A-Za-z]):/, (_, drive: string) => `/${drive.toLowerCase()}`).replace(/\\/g, '/')
      : root;
  return join(home, HOOK_OUTPUT_DIR, shellRoot, name);
}

export function projectStateDir(home: string, projectId: string): string {
  return join(home, 'projects', projectId);
}

/** True when `child` is `parent` or lies below it. */
export function isWithin(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
