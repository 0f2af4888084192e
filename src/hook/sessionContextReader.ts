/**
 * The SessionStart hook's one output: the project's session-start context, when Context Deck has one, read
 * from the file the engine writes (engine/context/sessionContextAssembly.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
// Project identity: imported here, outside the recorder's entry, so that only SessionStart (which loads
// this module on demand) pays for it.
import {
  identifyProject,
  projectStateDir,
  SESSION_CONTEXT_COMPACT_FILE,
  SESSION_CONTEXT_FILE,
} from '../engine/recorder';

export { MAX_CONTEXT_CHARS, sessionStartOutput } from '../engine/recorder';
/** Ancestors looked at, at most (a path deeper than this is not a real project). */
const MAX_LEVELS = 64;

/**
 * The context file of the project that `cwd` belongs to: the folder itself, then each ancestor, nearest
 * first (so a sub-folder of a repository finds the repository's project), up to the repository's own folder.
 * After a compaction, the live
 * session's continuation, where an engine wrote one.
 */
export function findSessionContext(
  home: string,
  cwd: string,
  afterCompaction = false,
): { file: string; text: string } | undefined {
  let dir = resolve(cwd);
  const names = afterCompaction
    ? [SESSION_CONTEXT_COMPACT_FILE, SESSION_CONTEXT_FILE]
    : [SESSION_CONTEXT_FILE];
  for (let level = 0; level < MAX_LEVELS; level++) {
    const stateDir = projectStateDir(home, identifyProject(dir).id);
    for (const name of names) {
      const file = join(stateDir, name);
      const text = readText(file);
      if (text !== undefined) return { file, text };
    }
    // A repository's own folder ends the walk: a separate repository inside another project is not it.
    if (existsSync(join(dir, '.git'))) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
