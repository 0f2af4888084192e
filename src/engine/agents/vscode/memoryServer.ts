/**
 * The memory MCP server in the workspace's `.vscode/mcp.json`: `servers.<name>` is
 * `{ "type": "stdio", "command", "args", "env"? }` (code.visualstudio.com/docs/copilot/reference/mcp-configuration,
 * "Standard I/O (stdio) servers"). The file is JSON with comments, edited by minimal text edits.
 */
import * as path from 'node:path';
import type { MemoryServerInstaller, ServerLaunch } from '../adapter';
import { jsonMemoryServer } from '../jsonMemoryServer';

export interface VscodeServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
}

function vscodeServerEntry(launch: ServerLaunch): VscodeServerEntry {
  return {
    type: 'stdio',
    command: launch.command,
    args: launch.args,
    ...(Object.keys(launch.env).length > 0 ? { env: launch.env } : {}),
  };
}

export const vscodeMemoryServer: MemoryServerInstaller = jsonMemoryServer({
  container: 'servers',
  entry: vscodeServerEntry,
  configPath: (projectRoot) => path.join(projectRoot, '.vscode', 'mcp.json'),
});
