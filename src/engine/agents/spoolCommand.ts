/**
 * The hook agents run on POSIX systems: `sh` copies the payload, as the agent sent it, into a spool file of
 * its own in the event log's folder, and the next ingest redacts it into the event log (log/spool.ts). The
 * command written into an agent's settings is one short line (agents print it: Claude Code at every
 * `/compact`) that sources the spool script installed beside the recorder (`<home>/bin/spool.sh`, written
 * by recorderInstall.ts from SPOOL_SCRIPT) with what to print after spooling. Agents wait for their hooks (Codex and VS Code's agent for every one), and Node's start
 * alone costs 60 ms or more a call; `sh` and `cat` cost a few.
 * - Private from the first byte: umask 077 before the file is created (0600), in the 0700 events folder.
 * - One file per call, named by the shell's pid and a counter (no two live processes share a pid, and a file
 *   an earlier process of the same pid left is stepped over): hooks running at once never share a file, so
 *   no payload, whatever its size, interleaves with another.
 * - A write that fails (a full disk) removes its file, silently: a hook must never hurt the agent.
 * - Where Context Deck is not installed (no spool script or recorder in its home) it does nothing: silent,
 *   exit 0.
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

/**
 * What a hook prints after spooling: nothing; the session context as Claude Code reads it (SessionStart's
 * `hookSpecificOutput`, as the engine wrote it), or as Cline reads it (`{"contextModification": …}`, the
 * same JSON string rewritten by `sed`: the engine writes it on one line, `hookSpecificOutput` first); or, at a
 * prompt, the line the host left for the session (context/agentHint.ts), taken once, as Claude Code's
 * UserPromptSubmit output (`prompt-hint`) or Cline's (`prompt-hint-cline`).
 */
export type SpoolOutput =
  | 'none'
  | 'session-start'
  | 'context-modification'
  | 'prompt-hint'
  | 'prompt-hint-cline'
  | 'first-tool-context';

const CLAUDE_PREFIX = '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":';
/** Braces, quotes and colons stand for themselves in a basic regular expression: no escaping needed. */
const AS_CONTEXT_MODIFICATION = ` | sed -e 's/^${CLAUDE_PREFIX}/{"contextModification":/' -e 's/}$//'`;

/** Where the host leaves a line for a session (context/agentHint.ts AGENT_HINTS_DIR, `<session id>.txt`). */
const AGENT_HINTS_DIR = 'agent-hints';
/** A hint is a line: agentHint.ts cuts it at 400 characters too. */
const MAX_HINT_CHARS = 400;

/**
 * At a prompt: the session's id from the payload as spooled (`session_id`, Cline's `taskId`; ids as
 * agentHint.ts accepts them, so no other text names a file), its line taken by renaming it away (of two hooks
 * at once, one hands it on), made one line of JSON string (control characters dropped, `\` and `"` escaped)
 * and printed in the agent's format.
 */
function promptHint(key: string, format: string): string {
  const take = `"$h/${AGENT_HINTS_DIR}/$s.txt"`;
  const taken = `"$h/${AGENT_HINTS_DIR}/$s.txt.$$.taken"`;
  const id = String.raw`s/.*"${key}" *: *"\([A-Za-z0-9_-]\{1,128\}\)".*/\1/p`;
  const oneLine = String.raw`tr -d '\000-\037'`;
  const escaped = String.raw`sed -e 's/\\/\\\\/g' -e 's/"/\\"/g'`;
  return (
    ` s=$(sed -n '${id}' ${SPOOL_FILE} 2>/dev/null | head -n 1);` +
    ` if [ -n "$s" ] && mv ${take} ${taken} 2>/dev/null; then` +
    ` x=$(${oneLine} < ${taken} | cut -c 1-${MAX_HINT_CHARS} | ${escaped}); rm -f ${taken};` +
    ` [ -n "$x" ] && printf '${format}' "$x"; fi;`
  );
}

const PROMPT_HINTS: Readonly<Record<string, string>> = {
  'prompt-hint': promptHint(
    'session_id',
    '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"%s"}}',
  ),
  'prompt-hint-cline': promptHint('taskId', '{"contextModification":"%s"}'),
};

/** Where a marker says a session was handed its context after a tool call (`<home>/handed/<session id>`). */
const HANDED_DIR = 'handed';

/** The script's name in `<home>/bin`, beside the recorder. */
export const SPOOL_SCRIPT_NAME = 'spool.sh';

const SESSION_START_OUTPUT =
  ` o=${HOOK_OUTPUT_FILE};` +
  // Started again after a compaction (the payload's `source`, as the agent wrote it): the continuation,
  // where the engine wrote one beside the context.
  ` grep -q '"source" *: *"compact"' ${SPOOL_FILE} 2>/dev/null && o=${HOOK_OUTPUT_COMPACT_FILE};` +
  ` cd -P . 2>/dev/null; p=$PWD; while :; do f="$h/${HOOK_OUTPUT_DIR}$p/$o"; [ -f "$f" ] || f="$h/${HOOK_OUTPUT_DIR}$p/${HOOK_OUTPUT_FILE}";` +
  ` if [ -f "$f" ]; then if [ "$m" = context-modification ]; then cat "$f"${AS_CONTEXT_MODIFICATION}; else cat "$f"; fi; break; fi;` +
  ` [ -e "$p/.git" ] && break; [ -n "$p" ] || break; p=\${p%/*}; done`;

/**
 * After a tool call of Cline's CLI 3.0 (its payload names the session's `rootSessionId`): the session context
 * as Cline reads it, once per session (a marker folder made atomically, so of two calls at once one prints).
 * 3.0 ignores what TaskStart prints but hands a PostToolUse's `contextModification` to its model.
 */
const FIRST_TOOL_OUTPUT =
  String.raw` s=$(sed -n 's/.*"rootSessionId" *: *"\([A-Za-z0-9_-]\{1,128\}\)".*/\1/p' ${SPOOL_FILE} 2>/dev/null | head -n 1);` +
  ` if [ -n "$s" ] && mkdir -p "$h/${HANDED_DIR}" 2>/dev/null && mkdir "$h/${HANDED_DIR}/$s" 2>/dev/null; then m=context-modification;${SESSION_START_OUTPUT}; fi`;

/**
 * The script every hook command sources, with `h` (the home) and `m` (a SpoolOutput) set: it spools the
 * payload, then prints what `m` asks for. Sourced, not run: no further process where the agent waits.
 */
export const SPOOL_SCRIPT = [
  '# Context Deck: spools a hook payload for the next ingest (written by Context Deck; replaced on update).',
  '[ -f "$h/bin/hook.js" ] || exit 0',
  'd="$h/events"; umask 077; [ -d "$d" ] || mkdir -p "$d" 2>/dev/null; n=0',
  `while [ -e ${SPOOL_FILE} ]; do n=$((n+1)); done`,
  `cat > ${SPOOL_FILE} 2>/dev/null || rm -f ${SPOOL_FILE} 2>/dev/null`,
  'case "$m" in',
  `  session-start | context-modification)${SESSION_START_OUTPUT} ;;`,
  `  prompt-hint)${PROMPT_HINTS['prompt-hint']} ;;`,
  `  prompt-hint-cline)${PROMPT_HINTS['prompt-hint-cline']} ;;`,
  `  first-tool-context)${FIRST_TOOL_OUTPUT} ;;`,
  'esac',
  'exit 0',
  '',
].join('\n');

/** `home`: an `sh` word for the home (PORTABLE_HOME, or a machine's own absolute home). */
function spoolCommand(home: string, output: SpoolOutput): string {
  return `h=${home}; m=${output}; [ -f "$h/bin/${SPOOL_SCRIPT_NAME}" ] && . "$h/bin/${SPOOL_SCRIPT_NAME}"; exit 0`;
}

/**
 * The spool command that does what a node recorder command (recorderCommand.ts) does, for the same
 * home; `sessionStart` adds printing the session context (`true`: as Claude Code reads it). On Windows,
 * where agents other than Claude Code have no `sh`, and for any other command, the command as it is.
 */
export function spoolCommandFor(
  command: string,
  sessionStart: boolean | SpoolOutput,
  platform = process.platform,
): string {
  if (platform === 'win32') return command;
  const output: SpoolOutput = sessionStart === true ? 'session-start' : sessionStart || 'none';
  if (command.includes(PORTABLE_RECORDER)) return spoolCommand(PORTABLE_HOME, output);
  const home = HOME_WORD.exec(command)?.[1];
  return home ? spoolCommand(home, output) : command;
}

/** The spool command, as written now or (spooling inline) by versions before the spool script. */
export function isSpoolCommand(command: string): boolean {
  return command.includes(`/bin/${SPOOL_SCRIPT_NAME}"`) || command.includes(`cat > ${SPOOL_FILE}`);
}
