/**
 * Connecting opencode: our plugin file in opencode's plugin folder. opencode loads every `*.js`/`*.ts` file
 * of `.opencode/plugins/` (the project's) and `~/.config/opencode/plugins/` (the user's, under
 * `$XDG_CONFIG_HOME` when set) at startup (opencode.ai/docs/plugins; packages/opencode/src/config/plugin.ts
 * globs `{plugin,plugins}/*.{ts,js}`; opencode 1.18.33 was seen loading ours from both folders). Connect
 * creates the file, Disconnect removes it; a file of that name that is not ours is never overwritten.
 */
import * as path from 'node:path';
import type { HookInstaller, SettingsPlan } from '../adapter';
import { PLUGIN_FILE_NAME, isContextDeckPlugin, pluginSource } from './plugin';
import { recorderFromCommand } from '../recorderCommand';

export type OpencodeScope = 'project' | 'user';

const OPENCODE_SCOPES: readonly OpencodeScope[] = ['project', 'user'];

/** opencode's global config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode` (xdg-basedir). */
export function opencodeConfigDir(userHome: string, env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME?.trim();
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(userHome, '.config'), 'opencode');
}

export function opencodePluginPath(
  scope: OpencodeScope,
  projectRoot: string,
  userHome: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return scope === 'project'
    ? path.join(projectRoot, '.opencode', 'plugins', PLUGIN_FILE_NAME)
    : path.join(opencodeConfigDir(userHome, env), 'plugins', PLUGIN_FILE_NAME);
}

/** A project's plugin is committed for the team: it must name no path of this machine. */
function isProjectPlugin(file: string): boolean {
  return path.basename(path.dirname(path.dirname(file))) === '.opencode';
}

export class ForeignPluginError extends Error {
  constructor(readonly file: string) {
    super(`${file} exists and is not Context Deck's opencode plugin; it was left untouched`);
  }
}

function planConnect(file: string, before: string | undefined, command: string): SettingsPlan {
  if (before !== undefined && !isContextDeckPlugin(before)) throw new ForeignPluginError(file);
  const after = pluginSource(isProjectPlugin(file) ? undefined : recorderFromCommand(command));
  if (before === after) return { file, before, after: before, changes: [] };
  const changes =
    before === undefined
      ? [
          `add the Context Deck plugin ${PLUGIN_FILE_NAME}: opencode sends it sessions, prompts and tool calls`,
        ]
      : [`update the Context Deck plugin ${PLUGIN_FILE_NAME}`];
  return { file, before, after, changes };
}

function planDisconnect(file: string, before: string | undefined): SettingsPlan {
  if (before === undefined || !isContextDeckPlugin(before))
    return { file, before, after: before, changes: [] };
  return { file, before, after: undefined, changes: [`remove the Context Deck plugin ${PLUGIN_FILE_NAME}`] };
}

export const opencodeHooks: HookInstaller<OpencodeScope> = {
  scopes: OPENCODE_SCOPES,
  describeScope: (scope) =>
    scope === 'project'
      ? "Everyone on this project: .opencode/plugins/ (commit it; it finds each person's Context Deck)"
      : 'Just you, in every project: the plugins folder of your opencode config',
  settingsPath: (scope, projectRoot, userHome) => opencodePluginPath(scope, projectRoot, userHome),
  planConnect,
  planDisconnect,
  isConnected: (_file, text) => isContextDeckPlugin(text),
};
