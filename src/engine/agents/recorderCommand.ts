/**
 * The command an agent's hook runs our recorder with, written, recognised and read back the same way for
 * every agent: the team's portable command, or this machine's own runtime and home.
 */
import { resolveHome } from '../kernel/paths';
import { findNodeOnPath, type RecorderRuntime, stableRecorderPath } from './recorderInstall';
import { PORTABLE_RECORDER, isSpoolCommand } from './spoolCommand';

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}

/**
 * The team's hook (agents run it with `sh -c`, or Git Bash on Windows): it names no path of this machine,
 * and where Context Deck or `node` is missing it does nothing and fails nothing.
 */
export const PORTABLE_RECORDER_COMMAND = `h=${PORTABLE_RECORDER}; [ -f "$h" ] && command -v node >/dev/null 2>&1 && node "$h"; exit 0`;

/**
 * The hook command for a scope. Committed team settings (`project`) always get the portable command. The
 * other scopes get it too where it records on this machine: Claude Code runs identical hook commands once,
 * so a user connected both for the team and just for themselves is recorded once, not twice. Otherwise
 * (no `node` on PATH, a home chosen in VS Code's settings) the scopes that belong to this machine alone
 * (`local`, `user`) name its absolute runtime and home.
 */
export function recorderCommand(
  scope: string,
  runtime: RecorderRuntime,
  home: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  // The node command: what opencode's plugin and Windows run (elsewhere the hooks derive `sh` from it).
  if (scope === 'project' || portableCommandCaveats(home, '', env, true).length === 0)
    return PORTABLE_RECORDER_COMMAND;
  const prefix = runtime.electronRunAsNode ? 'ELECTRON_RUN_AS_NODE=1 ' : '';
  return `${prefix}${quote(runtime.node)} ${quote(stableRecorderPath(home))} --home ${quote(home)}`;
}

/** Recognises our hook whatever runtime or home it was installed with, portable or not, node or `sh`. */
export function isRecorderCommand(command: unknown): boolean {
  return (
    typeof command === 'string' &&
    (command.includes(PORTABLE_RECORDER) || /hook\.js"?\s+--home\s/.test(command) || isSpoolCommand(command))
  );
}

/**
 * Why the portable command would record nothing on this machine, if it wouldn't: shown before connecting
 * the team's settings.
 */
export function portableCommandCaveats(
  home: string,
  /** The agent connected, by its display name: the variable must reach its process. */
  agent: string,
  env: NodeJS.ProcessEnv = process.env,
  /** Whether the hooks run `node`: on Windows; elsewhere they run `sh` alone (spoolCommand.ts). */
  needsNode = process.platform === 'win32',
): string[] {
  const caveats: string[] = [];
  if (home !== resolveHome(undefined, env))
    caveats.push(
      `The team's hooks run the recorder from $CONTEXT_DECK_HOME or ~/.context-deck, but Context Deck's home here is ${home}: set CONTEXT_DECK_HOME=${home} where ${agent} starts, or connect just for you.`,
    );
  if (needsNode && !findNodeOnPath(env))
    caveats.push(
      "`node` is not on PATH here, and the team's hooks need it: they record nothing on this machine until it is.",
    );
  return caveats;
}

/** The recorder a machine's own command runs: its runtime, script and home. */
export interface RecorderLaunch extends RecorderRuntime {
  /** Absolute path of the recorder (`<home>/bin/hook.js`). */
  hook: string;
  /** The home passed as `--home`. */
  home?: string;
}

/** Splits a command written by `recorderCommand` (words bare or in double quotes). */
function shellWords(command: string): string[] | undefined {
  const words: string[] = [];
  let i = 0;
  while (i < command.length) {
    if (/\s/.test(command[i])) {
      i++;
      continue;
    }
    let word = '';
    if (command[i] === '"') {
      i++;
      while (i < command.length && command[i] !== '"') {
        if (command[i] === '\\' && i + 1 < command.length) i++;
        word += command[i++];
      }
      if (command[i] !== '"') return undefined;
      i++;
    } else {
      while (i < command.length && !/\s/.test(command[i])) word += command[i++];
    }
    words.push(word);
  }
  return words;
}

/**
 * The recorder a hook command names (`[ELECTRON_RUN_AS_NODE=1] <node> <home>/bin/hook.js --home <home>`);
 * undefined for the portable command (`$CONTEXT_DECK_HOME`...) or anything else, which the agent's side
 * resolves at run time instead.
 */
export function recorderFromCommand(command: string): RecorderLaunch | undefined {
  // The portable command, not a home whose path happens to hold the variable's name.
  if (command.includes(PORTABLE_RECORDER)) return undefined;
  const words = shellWords(command.trim());
  if (!words) return undefined;
  const electronRunAsNode = words[0] === 'ELECTRON_RUN_AS_NODE=1';
  const [node, hook, flag, home] = electronRunAsNode ? words.slice(1) : words;
  if (!node || !hook || !/hook\.js$/.test(hook)) return undefined;
  return {
    node,
    hook,
    home: flag === '--home' && home ? home : undefined,
    electronRunAsNode: electronRunAsNode || undefined,
  };
}
