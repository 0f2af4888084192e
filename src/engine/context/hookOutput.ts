/**
 * What the SessionStart hook prints, ready made: the engine writes it beside each of the project's folders
 * (paths.ts `hookOutputFile`) whenever the session context is written, so the hook only has to `cat` it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOOK_OUTPUT_COMPACT_FILE, hookOutputFile } from '../kernel/paths';
import { sliceSafe } from '../redact';
import { PRIVATE_FILE_MODE, makePrivateDir } from '../kernel/privateFiles';

/** Claude Code caps hook output at 10,000 characters. */
export const MAX_CONTEXT_CHARS = 10_000;

/** What the hook prints so that the agent adds `context` to the session; undefined for no context. */
export function sessionStartOutput(context: string): string | undefined {
  if (context.trim() === '') return undefined;
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'SessionStart',
      additionalContext: sliceSafe(context, MAX_CONTEXT_CHARS),
    },
  });
}

/**
 * Write the hook outputs of each of the project's folders where they differ: the context a session starts
 * with, and `continuation`, what it is told when it starts again after a compaction. An empty context is an
 * empty file: the hook prints nothing, rather than going on to an enclosing project's.
 */
export function writeHookOutputs(
  home: string,
  roots: readonly string[],
  context: string,
  continuation = context,
): void {
  for (const root of roots) {
    writeIfChanged(hookOutputFile(home, root), sessionStartOutput(context) ?? '');
    writeIfChanged(
      hookOutputFile(home, root, process.platform, HOOK_OUTPUT_COMPACT_FILE),
      sessionStartOutput(continuation) ?? '',
    );
  }
}

function writeIfChanged(file: string, output: string): void {
  try {
    if (fs.readFileSync(file, 'utf8') === output) return;
  } catch {
    // Not written yet.
  }
  try {
    makePrivateDir(path.dirname(file));
    const temp = `${file}.tmp-${process.pid}`;
    fs.writeFileSync(temp, output, { mode: PRIVATE_FILE_MODE });
    fs.renameSync(temp, file);
  } catch {
    // A folder named like our file in its place: this folder's hook prints nothing; the others still do.
  }
}
