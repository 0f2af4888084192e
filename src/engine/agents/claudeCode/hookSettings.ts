/**
 * Connecting Claude Code: our recorder's command hooks in a Claude Code settings file (the edits
 * themselves: recorderHooks.ts).
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { isRecorderCommand } from '../recorderCommand';
import { type RecorderHookFormat, recorderHookEntry, recorderHookPlans } from '../recorderHooks';

export type HookScope = 'project' | 'local' | 'user';

export const HOOK_SCOPES: readonly HookScope[] = ['project', 'local', 'user'];

/** The events we record. All but SessionStart and UserPromptSubmit run async (see CLAUDE_HOOK_FORMAT). */
export const RECORDED_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'PreCompact',
  // Since 2.1.76: carries the summary the agent wrote (`compact_summary`).
  'PostCompact',
  'Stop',
  'SubagentStop',
  'SessionEnd',
] as const;

export type RecordedHookEvent = (typeof RECORDED_HOOK_EVENTS)[number];

/** Only tool events take a tool-name matcher; for the others Claude Code ignores or omits it. */
const TOOL_EVENTS = new Set<string>(['PostToolUse', 'PostToolUseFailure']);

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

/**
 * All but SessionStart, which prints the session context, and UserPromptSubmit, which hands on the line the
 * host left for the session, run async: recording never slows Claude Code (it reads no async hook's output).
 */
const CLAUDE_HOOK_FORMAT: RecorderHookFormat<RecordedHookEvent> = {
  events: RECORDED_HOOK_EVENTS,
  entry: (event, recorder) =>
    event === 'SessionStart' || event === 'UserPromptSubmit'
      ? recorderHookEntry(event, recorder)
      : { ...recorderHookEntry(event, recorder), async: true },
  ownKeys: ['type', 'command', 'timeout', 'async'],
  isRecorder: isRecorderCommand,
  layout: { grouped: true, matcher: (event) => (TOOL_EVENTS.has(event) ? '*' : undefined) },
};

export const claudeHookPlans = recorderHookPlans(CLAUDE_HOOK_FORMAT);

export const {
  planConnect: planHookInstall,
  planDisconnect: planHookUninstall,
  state: hookInstallState,
} = claudeHookPlans;
