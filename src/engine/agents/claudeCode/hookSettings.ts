/**
 * Connecting Claude Code: our recorder's command hooks in a Claude Code settings file, added and removed
 * as minimal JSONC edits that leave every other key, comment and hook as it was.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { type Json, findInGroups, groupsOf, hooksSection } from '../hookJson';
import { JsoncDocument } from '../jsoncEdit';
import { resolveHome } from '../../kernel/paths';
import { findNodeOnPath, type RecorderRuntime, stableRecorderPath } from '../recorderInstall';
import { isSpoolCommand, spoolCommandFor } from '../spoolCommand';

export type HookScope = 'project' | 'local' | 'user';

export const HOOK_SCOPES: readonly HookScope[] = ['project', 'local', 'user'];

/** The events we record. All but SessionStart run async, so recording never slows the agent down. */
export const RECORDED_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'PreCompact',
  'Stop',
  'SubagentStop',
  'SessionEnd',
] as const;

export type RecordedHookEvent = (typeof RECORDED_HOOK_EVENTS)[number];

/** Only tool events take a tool-name matcher; for the others Claude Code ignores or omits it. */
const TOOL_EVENTS = new Set<string>(['PostToolUse', 'PostToolUseFailure']);
/** SessionStart blocks the agent while it prints the session context: keep its timeout short. */
const SESSION_START_TIMEOUT_SECONDS = 5;
const ASYNC_HOOK_TIMEOUT_SECONDS = 30;

/** Claude Code's user folder: `CLAUDE_CONFIG_DIR` when set, else `~/.claude`. */
function claudeUserDir(userHome = os.homedir(), env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.CLAUDE_CONFIG_DIR?.trim();
  return configured ? path.resolve(configured) : path.join(userHome, '.claude');
}

export function claudeSettingsPath(
  scope: HookScope,
  projectRoot: string,
  userHome = os.homedir(),
  env: NodeJS.ProcessEnv = process.env,
): string {
  switch (scope) {
    case 'project':
      return path.join(projectRoot, '.claude', 'settings.json');
    case 'local':
      return path.join(projectRoot, '.claude', 'settings.local.json');
    case 'user':
      return path.join(claudeUserDir(userHome, env), 'settings.json');
  }
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The recorder wherever Context Deck is installed: the same home the recorder itself defaults to. */
const PORTABLE_RECORDER = '${CONTEXT_DECK_HOME:-$HOME/.context-deck}/bin/hook.js';

/**
 * The team's hook (Claude Code runs it with `sh -c`, or Git Bash on Windows): it names no path of this
 * machine, and where Context Deck or `node` is missing it does nothing and fails nothing.
 */
export const PORTABLE_RECORDER_COMMAND = `h=${PORTABLE_RECORDER}; [ -f "$h" ] && command -v node >/dev/null 2>&1 && node "$h"; exit 0`;

/**
 * The hook command for a scope. Committed team settings (`project`) always get the portable command. The
 * other scopes get it too where it records on this machine: Claude Code runs identical hook commands once,
 * so a user connected both for the team and just for themselves is recorded once, not twice. Otherwise
 * (no `node` on PATH, a home chosen in VS Code's settings) `local` and `user`, which belong to this machine
 * alone, name its absolute runtime and home.
 */
export function recorderCommand(
  scope: HookScope,
  runtime: RecorderRuntime,
  home: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  // The node command: what opencode's plugin and Windows run (elsewhere the hooks derive `sh` from it).
  if (scope === 'project' || portableCommandCaveats(home, env, true).length === 0)
    return PORTABLE_RECORDER_COMMAND;
  const prefix = runtime.electronRunAsNode ? 'ELECTRON_RUN_AS_NODE=1 ' : '';
  return `${prefix}${quote(runtime.node)} ${quote(stableRecorderPath(home))} --home ${quote(home)}`;
}

/** Recognises our hook whatever runtime or home it was installed with, portable or not. */
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
  env: NodeJS.ProcessEnv = process.env,
  /** Whether the hooks run `node`: on Windows; elsewhere they run `sh` alone (spoolCommand.ts). */
  needsNode = process.platform === 'win32',
): string[] {
  const caveats: string[] = [];
  if (home !== resolveHome(undefined, env))
    caveats.push(
      `The team's hooks run the recorder from $CONTEXT_DECK_HOME or ~/.context-deck, but Context Deck's home here is ${home}: set CONTEXT_DECK_HOME=${home} for Claude Code, or connect just for you.`,
    );
  if (needsNode && !findNodeOnPath(env))
    caveats.push(
      "`node` is not on PATH here, and the team's hooks need it: they record nothing on this machine until it is.",
    );
  return caveats;
}

interface HookEntry {
  type: 'command';
  command: string;
  timeout: number;
  async?: true;
}

/** The hook runs `command` as `sh` spooling the payload where it can (see spoolCommand.ts). */
function hookEntry(event: RecordedHookEvent, recorder: string): HookEntry {
  const command = spoolCommandFor(recorder, event === 'SessionStart');
  return event === 'SessionStart'
    ? { type: 'command', command, timeout: SESSION_START_TIMEOUT_SECONDS }
    : { type: 'command', command, timeout: ASYNC_HOOK_TIMEOUT_SECONDS, async: true };
}

export interface HookPlan {
  file: string;
  before: string | undefined;
  after: string;
  /** One line per change, for the confirmation shown before writing. */
  changes: string[];
}

/** Our entry, whatever runtime or home it was installed with. */
function findRecorder(groups: Json[]): { group: number; hook: number; entry: Json } | undefined {
  return findInGroups(groups, (entry) => isRecorderCommand(entry.command));
}

function sameEntry(existing: Json, wanted: HookEntry): boolean {
  return (
    existing.type === wanted.type &&
    existing.command === wanted.command &&
    existing.timeout === wanted.timeout &&
    existing.async === wanted.async
  );
}

/** What installing our hooks would change; installing twice changes nothing. Throws on unparsable files. */
export function planHookInstall(file: string, before: string | undefined, command: string): HookPlan {
  const document = new JsoncDocument(before, file);
  const changes: string[] = [];
  for (const event of RECORDED_HOOK_EVENTS) {
    const wanted = hookEntry(event, command);
    const groups = groupsOf(hooksSection(document), event, file);
    const existing = findRecorder(groups);
    if (existing && sameEntry(existing.entry, wanted)) continue;
    if (existing) {
      document.set(['hooks', event, existing.group, 'hooks', existing.hook], wanted);
      changes.push(`update the Context Deck hook for ${event}`);
    } else {
      const group = TOOL_EVENTS.has(event) ? { matcher: '*', hooks: [wanted] } : { hooks: [wanted] };
      if (groups.length === 0) document.set(['hooks', event], [group]);
      else document.insert(['hooks', event], groups.length, group);
      changes.push(`add a Context Deck hook for ${event}${event === 'SessionStart' ? '' : ' (async)'}`);
    }
  }
  return { file, before, after: changes.length ? document.text : (before ?? ''), changes };
}

/** What removing our hooks would change: exactly the entries we add, nothing else. */
export function planHookUninstall(file: string, before: string | undefined): HookPlan {
  if (before === undefined || !before.trim()) return { file, before, after: before ?? '', changes: [] };
  const document = new JsoncDocument(before, file);
  const changes: string[] = [];
  for (const event of RECORDED_HOOK_EVENTS) {
    for (;;) {
      const groups = groupsOf(hooksSection(document), event, file);
      const found = findRecorder(groups);
      if (!found) break;
      const siblings = (groups[found.group].hooks as unknown[]).length;
      if (siblings === 1) document.remove(['hooks', event, found.group]);
      else document.remove(['hooks', event, found.group, 'hooks', found.hook]);
      changes.push(`remove the Context Deck hook for ${event}`);
      if (groupsOf(hooksSection(document), event, file).length === 0) document.remove(['hooks', event]);
    }
  }
  const hooks = hooksSection(document);
  if (changes.length && hooks && Object.keys(hooks).length === 0) document.remove(['hooks']);
  return { file, before, after: changes.length ? document.text : before, changes };
}

export interface HookInstallState {
  /** Events whose recorder hook is present. */
  installed: RecordedHookEvent[];
  missing: RecordedHookEvent[];
}

/** Which of our hooks a settings file holds; unparsable or missing files hold none. */
export function hookInstallState(file: string, text: string | undefined): HookInstallState {
  const installed: RecordedHookEvent[] = [];
  try {
    if (text?.trim()) {
      const hooks = hooksSection(new JsoncDocument(text, file));
      for (const event of RECORDED_HOOK_EVENTS)
        if (findRecorder(groupsOf(hooks, event, file))) installed.push(event);
    }
  } catch {
    // Reported elsewhere; for the connection state it simply isn't connected.
  }
  return { installed, missing: RECORDED_HOOK_EVENTS.filter((event) => !installed.includes(event)) };
}
