/**
 * Connecting Codex CLI: our recorder's command hooks in a Codex `hooks.json`, the project's
 * (`<root>/.codex/hooks.json`) or the user's (`$CODEX_HOME/hooks.json`). The file is
 * `{"hooks": {"<Event>": [{"matcher"?, "hooks": [{"type": "command", "command", "timeout"}]}]}}` (codex-rs
 * config `HooksFile`; timeout in seconds, default 600). Codex parses it as strict JSON and refuses a root
 * with keys other than `hooks`/`description`, so we add nothing else. Hooks run only once the user trusts
 * them in Codex (`/hooks`), and a project's only in a trusted project. Every change is a minimal JSON edit:
 * connecting then disconnecting gives back the file as it was, and removes a file connecting created.
 */
import * as path from 'node:path';
import type { HookInstaller } from '../adapter';
import { isRecorderCommand } from '../recorderCommand';
import { type RecorderHookFormat, recorderHookEntry, recorderHookPlans } from '../recorderHooks';
import { codexHome } from './paths';

export type CodexHookScope = 'project' | 'user';

const CODEX_HOOK_SCOPES: readonly CodexHookScope[] = ['project', 'user'];

/**
 * The events we record, all of which Codex has (developers.openai.com/codex/hooks). Codex has no
 * PostToolUseFailure (a failed call is a PostToolUse) and runs SessionEnd only in recent releases.
 */
export const CODEX_RECORDED_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PreCompact',
  'SubagentStop',
  'Stop',
  // Codex 0.169 fires it when a session ends (its binary's `session_end` hooks): the next one's Previous Session.
  'SessionEnd',
] as const;

export type CodexRecordedEvent = (typeof CODEX_RECORDED_EVENTS)[number];

export function codexHooksPath(
  scope: CodexHookScope,
  projectRoot: string,
  userHome: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return scope === 'project'
    ? path.join(projectRoot, '.codex', 'hooks.json')
    : path.join(codexHome(env, userHome), 'hooks.json');
}

/**
 * No `async`: releases before detached hooks skip an async hook altogether ("async hooks are not supported
 * yet"), so ours run in line, bounded by the timeout; the recorder only appends a line and returns. No
 * matcher: a group runs for every tool, prompt or session source.
 */
const CODEX_HOOK_FORMAT: RecorderHookFormat<CodexRecordedEvent> = {
  events: CODEX_RECORDED_EVENTS,
  entry: recorderHookEntry,
  ownKeys: ['type', 'command', 'timeout', 'async'],
  isRecorder: isRecorderCommand,
  layout: { grouped: true },
};

const codexHookPlans = recorderHookPlans(CODEX_HOOK_FORMAT);

export const {
  planConnect: planCodexConnect,
  planDisconnect: planCodexDisconnect,
  isConnected: codexConnected,
} = codexHookPlans;

export const codexHooks: HookInstaller<CodexHookScope> = {
  ...codexHookPlans,
  scopes: CODEX_HOOK_SCOPES,
  describeScope: (scope) =>
    scope === 'project'
      ? 'Everyone working in this project (.codex/hooks.json; Codex runs it once the project is trusted)'
      : 'You, in every project (~/.codex/hooks.json, or $CODEX_HOME)',
  settingsPath: (scope, projectRoot, userHome) => codexHooksPath(scope, projectRoot, userHome),
  // Codex runs a new or changed hook only once the user has reviewed it (docs: codex/hooks, "Trust").
  afterConnect:
    "Codex runs a project's hooks only in a trusted project (trust the folder when Codex asks, or " +
    '[projects."<folder>"] trust_level = "trusted" in ~/.codex/config.toml), and only hooks you have trusted: ' +
    'type /hooks in Codex and approve them (codex exec skips untrusted hooks).',
};
