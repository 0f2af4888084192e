/** Claude Code's settings files as the adapter's hook installer (format: hookSettings.ts, edits: recorderHooks.ts). */
import { HOOK_SCOPES, type HookScope, claudeHookPlans, claudeSettingsPath } from './hookSettings';
import type { HookInstaller } from '../adapter';

const SCOPE_DETAILS: Readonly<Record<HookScope, string>> = {
  local: '.claude/settings.local.json: not committed, so teammates are unaffected',
  project: '.claude/settings.json: committed with the project, naming no path of this machine',
  user: '~/.claude/settings.json: all your projects',
};

/** The user scope's file is where CLAUDE_CONFIG_DIR moves it, when it is set. */
function describeScope(scope: HookScope): string {
  if (scope === 'user' && process.env.CLAUDE_CONFIG_DIR?.trim())
    return '$CLAUDE_CONFIG_DIR/settings.json: all your projects';
  return SCOPE_DETAILS[scope];
}

export const claudeHooks: HookInstaller<HookScope> = {
  ...claudeHookPlans,
  scopes: HOOK_SCOPES,
  describeScope,
  settingsPath: (scope, projectRoot, userHome) => claudeSettingsPath(scope, projectRoot, userHome),
};
