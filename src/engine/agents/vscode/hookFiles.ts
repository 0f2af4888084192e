/**
 * Connecting VS Code's agent: our recorder's command hooks in a hook file of our own, `context-deck.json`, in
 * one of the folders VS Code loads every `*.json` of: `.github/hooks/` in the workspace and `~/.copilot/hooks/`
 * (docs: microsoft/vscode-docs docs/agent-customization/hooks.md, "Local hook file locations"; VS Code core
 * DEFAULT_HOOK_FILE_PATHS). The file is VS Code's own format: event name → list of
 * `{ type: "command", command, timeout }`. Connecting creates the file; disconnecting removes it again, or,
 * when someone else's hooks share it, takes out exactly our entries as minimal JSONC edits.
 */
import * as path from 'node:path';
import type { HookInstaller } from '../adapter';
import { hooksSection } from '../hookJson';
import { type Json, isObject } from '../jsonValues';
import type { JsoncDocument } from '../jsoncEdit';
import { isRecorderCommand, recorderFromCommand } from '../recorderCommand';
import { type RecorderHookFormat, recorderHookEntry, recorderHookPlans } from '../recorderHooks';

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

/** The `hooks` object; a file with a numeric `version` is Copilot CLI's format, whose event names differ. */
function vscodeHooksSection(document: JsoncDocument): Json | undefined {
  const root = document.value;
  if (isObject(root) && typeof root.version === 'number')
    throw new Error(`${document.file} is in Copilot CLI's hook format ("version"); it was left untouched`);
  return hooksSection(document);
}

/**
 * VS Code runs every hook synchronously (it has no `async` hooks), so each one holds the agent until it ends
 * or times out. `sh` spools the payload; on Windows, where there is no `sh`, the node recorder records it
 * directly.
 */
const VSCODE_HOOK_FORMAT: RecorderHookFormat<VscodeRecordedEvent> = {
  events: VSCODE_RECORDED_EVENTS,
  entry(event, recorder) {
    const { type, command, timeout } = recorderHookEntry(event, recorder);
    return { type, command, windows: windowsRecorderCommand(recorder), timeout };
  },
  ownKeys: ['type', 'command', 'windows', 'timeout'],
  isRecorder: isVscodeRecorderCommand,
  layout: { grouped: false },
  ownFile: true,
  section: vscodeHooksSection,
};

const vscodeHookPlans = recorderHookPlans(VSCODE_HOOK_FORMAT);

export const {
  planConnect: planVscodeConnect,
  planDisconnect: planVscodeDisconnect,
  state: vscodeHookState,
} = vscodeHookPlans;

export const vscodeHooks: HookInstaller<VscodeHookScope> = {
  ...vscodeHookPlans,
  scopes: VSCODE_HOOK_SCOPES,
  describeScope: (scope) =>
    scope === 'project'
      ? 'Everyone who opens this workspace in VS Code (.github/hooks, committed with the repository); ' +
        'GitHub Copilot CLI runs the same file, .github/hooks/context-deck.json, and is recorded as itself'
      : 'Just you, in every workspace (~/.copilot/hooks)',
  settingsPath: vscodeHookPath,
};
