/**
 * Connecting VS Code's agent: our recorder's command hooks in a hook file of our own, `context-deck.json`, in
 * one of the folders VS Code loads every `*.json` of: `.github/hooks/` in the workspace and `~/.copilot/hooks/`
 * (docs: microsoft/vscode-docs docs/agent-customization/hooks.md, "Local hook file locations"; VS Code core
 * DEFAULT_HOOK_FILE_PATHS). The file is VS Code's own format: event name → list of
 * `{ type: "command", command, timeout }`. Connecting creates the file; disconnecting removes it again, or,
 * when someone else's hooks share it, takes out exactly our entries as minimal JSONC edits.
 */
import * as path from 'node:path';
import { type Json, hooksSection, isObject } from '../hookJson';
import { JsoncDocument } from '../jsoncEdit';
import { isRecorderCommand } from '../claudeCode/hookSettings';
import { recorderFromCommand } from '../opencode/plugin';
import type { HookInstaller, SettingsPlan } from '../adapter';
import { spoolCommandFor } from '../spoolCommand';

export type VscodeHookScope = 'project' | 'user';

const VSCODE_HOOK_SCOPES: readonly VscodeHookScope[] = ['project', 'user'];

const VSCODE_HOOK_FILE = 'context-deck.json';

/**
 * The events we record: outcomes, not intentions, so PostToolUse and not PreToolUse. VS Code has no
 * PostToolUseFailure or SessionEnd (its Stop ends each request, not the session).
 */
export const VSCODE_RECORDED_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PreCompact',
  'SubagentStop',
  'Stop',
] as const;

export type VscodeRecordedEvent = (typeof VSCODE_RECORDED_EVENTS)[number];

/**
 * VS Code runs every hook synchronously (it has no `async` hooks), so each one holds the agent until it ends
 * or times out: SessionStart, which prints the session context, gets the shortest leash.
 */
const VSCODE_SESSION_START_TIMEOUT_SECONDS = 5;
const VSCODE_HOOK_TIMEOUT_SECONDS = 30;

export function vscodeHookPath(scope: VscodeHookScope, projectRoot: string, userHome: string): string {
  return scope === 'project'
    ? path.join(projectRoot, '.github', 'hooks', VSCODE_HOOK_FILE)
    : path.join(userHome, '.copilot', 'hooks', VSCODE_HOOK_FILE);
}

/** Our recorder, however it was installed: the Claude Code forms, or any `hook.js … --agent vscode`. */
export function isVscodeRecorderCommand(command: unknown): boolean {
  return (
    typeof command === 'string' &&
    (isRecorderCommand(command) || (/hook\.js\b/.test(command) && /--agent[\s=]+["']?vscode\b/.test(command)))
  );
}

interface HookEntry {
  type: 'command';
  command: string;
  windows: string;
  timeout: number;
}

/** A PowerShell string literal: single quotes, a quote inside doubled. */
function psQuote(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * The recorder command for Windows, where VS Code runs hook commands with PowerShell (the entry's `windows`
 * key, hooks.md "OS-specific commands"): the same runtime and home as `command`, or for the portable command
 * the same search ($env:CONTEXT_DECK_HOME, else ~/.context-deck), doing nothing where it finds no recorder.
 */
export function windowsRecorderCommand(command: string): string {
  const recorder = recorderFromCommand(command);
  if (!recorder)
    return (
      "$h = if ($env:CONTEXT_DECK_HOME) { $env:CONTEXT_DECK_HOME } else { Join-Path $HOME '.context-deck' }; " +
      "$h = Join-Path $h 'bin\\hook.js'; " +
      'if ((Test-Path $h) -and (Get-Command node -ErrorAction SilentlyContinue)) { node $h }; exit 0'
    );
  const home = recorder.home ? ` --home ${psQuote(recorder.home)}` : '';
  const electron = recorder.electronRunAsNode ? "$env:ELECTRON_RUN_AS_NODE = '1'; " : '';
  return `${electron}& ${psQuote(recorder.node)} ${psQuote(recorder.hook)}${home}; exit 0`;
}

/** `sh` spools the payload; on Windows, where there is no `sh`, the node recorder records it directly. */
function hookEntry(event: VscodeRecordedEvent, recorder: string): HookEntry {
  const command = spoolCommandFor(recorder, event === 'SessionStart');
  const timeout =
    event === 'SessionStart' ? VSCODE_SESSION_START_TIMEOUT_SECONDS : VSCODE_HOOK_TIMEOUT_SECONDS;
  return { type: 'command', command, windows: windowsRecorderCommand(recorder), timeout };
}

/** The `hooks` object; a file with a numeric `version` is Copilot CLI's format, whose event names differ. */
function vscodeHooksSection(document: JsoncDocument): Json | undefined {
  const root = document.value;
  if (isObject(root) && typeof root.version === 'number')
    throw new Error(`${document.file} is in Copilot CLI's hook format ("version"); it was left untouched`);
  return hooksSection(document);
}

/** The event's entries; undefined when the event has no list yet. */
function entriesOf(hooks: Json | undefined, event: string, file: string): unknown[] | undefined {
  const entries = hooks?.[event];
  if (entries === undefined) return undefined;
  if (!Array.isArray(entries)) throw new Error(`"hooks.${event}" in ${file} is not a list`);
  return entries;
}

function isOurs(entry: unknown): entry is Json {
  return isObject(entry) && isVscodeRecorderCommand(entry.command);
}

/** Keys someone added to our entry (a `linux` override, say) are theirs: they don't make it stale. */
function sameEntry(existing: Json, wanted: HookEntry): boolean {
  return (
    existing.type === wanted.type &&
    existing.command === wanted.command &&
    existing.windows === wanted.windows &&
    existing.timeout === wanted.timeout
  );
}

function isBlank(text: string | undefined): boolean {
  return text === undefined || text.trim() === '';
}

/** What connecting would change; connecting twice changes nothing. Throws on files it can't edit safely. */
export function planVscodeConnect(file: string, before: string | undefined, command: string): SettingsPlan {
  const document = new JsoncDocument(before, file);
  const changes: string[] = [];
  for (const event of VSCODE_RECORDED_EVENTS) {
    const wanted = hookEntry(event, command);
    const entries = entriesOf(vscodeHooksSection(document), event, file);
    const index = entries ? entries.findIndex(isOurs) : -1;
    if (entries && index >= 0 && sameEntry(entries[index] as Json, wanted)) continue;
    if (index >= 0) {
      document.set(['hooks', event, index], wanted);
      changes.push(`update the Context Deck hook for ${event}`);
      continue;
    }
    if (entries === undefined) document.set(['hooks', event], [wanted]);
    else document.insert(['hooks', event], entries.length, wanted);
    changes.push(`add a Context Deck hook for ${event} (timeout ${wanted.timeout} s)`);
  }
  if (changes.length > 0 && isBlank(before)) changes.unshift(`create ${file}`);
  return { file, before, after: changes.length > 0 ? document.text : before, changes };
}

/** What disconnecting would change: exactly our entries go; a file left with nothing else goes too. */
export function planVscodeDisconnect(file: string, before: string | undefined): SettingsPlan {
  if (isBlank(before)) return { file, before, after: before, changes: [] };
  const document = new JsoncDocument(before, file);
  const changes: string[] = [];
  for (const event of VSCODE_RECORDED_EVENTS) {
    for (;;) {
      const entries = entriesOf(vscodeHooksSection(document), event, file);
      const index = entries ? entries.findIndex(isOurs) : -1;
      if (!entries || index < 0) break;
      if (entries.length === 1) document.remove(['hooks', event]);
      else document.remove(['hooks', event, index]);
      changes.push(`remove the Context Deck hook for ${event}`);
    }
  }
  if (changes.length === 0) return { file, before, after: before, changes };
  const hooks = vscodeHooksSection(document);
  if (hooks && Object.keys(hooks).length === 0) document.remove(['hooks']);
  const root = document.value;
  if (isObject(root) && Object.keys(root).length === 0) {
    changes.push(`remove ${file}`);
    return { file, before, after: undefined, changes };
  }
  return { file, before, after: document.text, changes };
}

export interface VscodeHookState {
  installed: VscodeRecordedEvent[];
  missing: VscodeRecordedEvent[];
}

/** Which of our hooks a hook file holds; unparsable or missing files hold none. */
export function vscodeHookState(file: string, text: string | undefined): VscodeHookState {
  const installed: VscodeRecordedEvent[] = [];
  try {
    if (!isBlank(text)) {
      const hooks = vscodeHooksSection(new JsoncDocument(text, file));
      for (const event of VSCODE_RECORDED_EVENTS)
        if (entriesOf(hooks, event, file)?.some(isOurs)) installed.push(event);
    }
  } catch {
    // Reported when connecting; for the connection state the file simply isn't connected.
  }
  return { installed, missing: VSCODE_RECORDED_EVENTS.filter((event) => !installed.includes(event)) };
}

export const vscodeHooks: HookInstaller<VscodeHookScope> = {
  scopes: VSCODE_HOOK_SCOPES,
  describeScope: (scope) =>
    scope === 'project'
      ? 'Everyone who opens this workspace in VS Code (.github/hooks, committed with the repository); ' +
        'GitHub Copilot CLI runs the same file, .github/hooks/context-deck.json, and is recorded as itself'
      : 'Just you, in every workspace (~/.copilot/hooks)',
  settingsPath: vscodeHookPath,
  planConnect: planVscodeConnect,
  planDisconnect: planVscodeDisconnect,
  isConnected: (file, text) => vscodeHookState(file, text).missing.length === 0,
};
