/**
 * VS Code's user data folders, shared by the agents that keep files in VS Code's storage (VS Code's own
 * agent its transcripts in `User/workspaceStorage`, Cline its tasks in `User/globalStorage`).
 */
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * VS Code's user data folders, where `User/workspaceStorage` lives: desktop stable and Insiders on each
 * platform, VS Code Server (remote SSH, WSL, tunnels) and code-server. `VSCODE_USER_DATA_DIRS`
 * (path-delimited) replaces the list, for tests and for a portable or `--user-data-dir` install.
 */
export function vscodeUserDataDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const override = env.VSCODE_USER_DATA_DIRS?.trim();
  if (override) {
    return override
      .split(path.delimiter)
      .map((dir) => dir.trim())
      .filter(Boolean);
  }
  const home = env.HOME?.trim() || env.USERPROFILE?.trim() || os.homedir();
  const xdg = env.XDG_CONFIG_HOME?.trim();
  const config = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config');
  const dirs = [
    path.join(config, 'Code'),
    path.join(config, 'Code - Insiders'),
    path.join(home, '.vscode-server', 'data'),
    path.join(home, '.vscode-server-insiders', 'data'),
    path.join(home, '.local', 'share', 'code-server'),
    path.join(home, 'Library', 'Application Support', 'Code'),
    path.join(home, 'Library', 'Application Support', 'Code - Insiders'),
  ];
  const appData = env.APPDATA?.trim();
  if (appData) dirs.push(path.join(appData, 'Code'), path.join(appData, 'Code - Insiders'));
  return [...new Set(dirs)];
}
