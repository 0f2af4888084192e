/** Claude Code's settings files as the adapter's hook installer (the edits themselves: hookSettings.ts). */
import {
  HOOK_SCOPES,
  type HookScope,
  claudeSettingsPath,
  hookInstallState,
  planHookInstall,
  planHookUninstall,
} from './hookSettings';
import { parseJsonc } from '../jsoncEdit';
import type { HookInstaller, SettingsPlan } from '../adapter';

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

/** A file that holds nothing once our hooks are gone: connecting created it, so disconnecting removes it. */
function isEmptyObject(text: string, file: string): boolean {
  const value = parseJsonc(text, file);
  return (
    value !== null && typeof value === 'object' && Object.keys(value).length === 0 && !/\/[/*]/.test(text)
  );
}

export const claudeHooks: HookInstaller<HookScope> = {
  scopes: HOOK_SCOPES,
  describeScope,
  settingsPath: (scope, projectRoot, userHome) => claudeSettingsPath(scope, projectRoot, userHome),
  planConnect: (file, before, command): SettingsPlan => planHookInstall(file, before, command),
  planDisconnect(file, before): SettingsPlan {
    const plan = planHookUninstall(file, before);
    if (plan.changes.length > 0 && plan.after !== undefined && isEmptyObject(plan.after, file))
      return {
        ...plan,
        after: undefined,
        changes: [...plan.changes, `remove ${file}, which holds nothing else`],
      };
    return plan;
  },
  isConnected: (file, text) => hookInstallState(file, text).missing.length === 0,
};
