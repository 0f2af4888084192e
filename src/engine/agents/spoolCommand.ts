/**
 * The hook command agents run on POSIX systems: `sh` copies the payload, as the agent sent it, into a spool
 * file of its own in the event log's folder, and the next ingest redacts it into the event log
 * (log/spool.ts). Agents wait for their hooks (Codex and VS Code's agent for every one), and Node's start
 * alone costs 60 ms or more a call; `sh` and `cat` cost a few.
 * - Private from the first byte: umask 077 before the file is created (0600), in the 0700 events folder.
 * - One file per call, named by the shell's pid and a counter (no two live processes share a pid, and a file
 *   an earlier process of the same pid left is stepped over): hooks running at once never share a file, so
 *   no payload, whatever its size, interleaves with another.
 * - A write that fails (a full disk) removes its file, silently: a hook must never hurt the agent.
 * - Where Context Deck is not installed (no recorder in its home) it does nothing: silent, exit 0.
 * SessionStart's command then prints the hook output the engine wrote for the working folder or its nearest
 * ancestor (context/hookOutput.ts), walking up with shell builtins only, and no further than the repository
 * the folder is in: a separate repository inside another project is not that project.
 */
import { HOOK_OUTPUT_COMPACT_FILE, HOOK_OUTPUT_DIR, HOOK_OUTPUT_FILE } from '../kernel/paths';

/** Ends the name of every spool file (`<pid>-<n>.spool`). */
const SPOOL_SUFFIX = '.spool';

const SPOOL_FILE = `"$d/$$-$n${SPOOL_SUFFIX}"`;
/** The home of a node recorder command (recorderCommand.ts), as the shell word it is there. */
const HOME_WORD = /\s--home\s+("(?:[^"\\]|\\.)*"|[^\s"]+)\s*$/;
const PORTABLE_HOME = '${CONTEXT_DECK_HOME:-$HOME/.context-deck}';
/** The portable recorder command names this (recorderCommand.ts); a home's own path never does. */
export const PORTABLE_RECORDER = `${PORTABLE_HOME}/bin/hook.js`;

/** `home`: an `sh` word for the home (PORTABLE_HOME, or a machine's own absolute home). */
function spoolCommand(home: string, printSessionStart: boolean): string {
  // Started again after a compaction (the payload's `source`, as the agent wrote it): the continuation,
  // where the engine wrote one beside the context.
  const print = printSessionStart
    ? ` o=${HOOK_OUTPUT_FILE}; grep -q '"source" *: *"compact"' ${SPOOL_FILE} 2>/dev/null && o=${HOOK_OUTPUT_COMPACT_FILE};` +
      ` cd -P . 2>/dev/null; p=$PWD; while :; do f="$h/${HOOK_OUTPUT_DIR}$p/$o"; [ -f "$f" ] || f="$h/${HOOK_OUTPUT_DIR}$p/${HOOK_OUTPUT_FILE}"; if [ -f "$f" ]; then cat "$f"; break; fi; [ -e "$p/.git" ] && break; [ -n "$p" ] || break; p=\${p%/*}; done;`
    : '';
  return (
    `h=${home}; d="$h/events"; [ -f "$h/bin/hook.js" ] || exit 0; umask 077; [ -d "$d" ] || mkdir -p "$d" 2>/dev/null; n=0; ` +
    `while [ -e ${SPOOL_FILE} ]; do n=$((n+1)); done; cat > ${SPOOL_FILE} 2>/dev/null || rm -f ${SPOOL_FILE} 2>/dev/null;${print} exit 0`
  );
}

/**
 * The spool command that does what a node recorder command (recorderCommand.ts) does, for the same
 * home; `sessionStart` adds printing the session context. On Windows, where agents other than Claude Code
 * have no `sh`, and for any other command, the command as it is.
 */
export function spoolCommandFor(command: string, sessionStart: boolean, platform = process.platform): string {
  if (platform === 'win32') return command;
  if (command.includes(PORTABLE_RECORDER)) return spoolCommand(PORTABLE_HOME, sessionStart);
  const home = HOME_WORD.exec(command)?.[1];
  return home ? spoolCommand(home, sessionStart) : command;
}

export function isSpoolCommand(command: string): boolean {
  return command.includes(`cat > ${SPOOL_FILE}`);
}
