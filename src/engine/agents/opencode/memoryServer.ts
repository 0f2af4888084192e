/**
 * The memory MCP server in the project's opencode config: `mcp.<name>` is
 * `{ "type": "local", "command": [command, ...args], "environment"?, "enabled": true }` (opencode.ai/docs/mcp-servers,
 * "Local"; McpLocalConfig in packages/sdk/js/src/gen/types.gen.ts). The file is JSON with comments, edited by
 * minimal text edits.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MemoryServerInstaller, ServerLaunch } from '../adapter';
import { jsonMemoryServer } from '../jsonMemoryServer';

export interface OpencodeServerEntry {
  type: 'local';
  command: string[];
  environment?: Record<string, string>;
  enabled: true;
}

function opencodeServerEntry(launch: ServerLaunch): OpencodeServerEntry {
  return {
    type: 'local',
    command: [launch.command, ...launch.args],
    ...(Object.keys(launch.env).length > 0 ? { environment: launch.env } : {}),
    enabled: true,
  };
}

export const opencodeMemoryServer: MemoryServerInstaller = jsonMemoryServer({
  container: 'mcp',
  entry: opencodeServerEntry,
  // opencode reads both names; an existing `opencode.jsonc` is the one the project already uses.
  configPath(projectRoot) {
    const jsonc = path.join(projectRoot, 'opencode.jsonc');
    return fs.existsSync(jsonc) ? jsonc : path.join(projectRoot, 'opencode.json');
  },
});
