/** The memory MCP server in Claude Code's project `.mcp.json`: `mcpServers.context-deck`. */
import * as path from 'node:path';
import type { MemoryServerInstaller } from '../adapter';
import { jsonMemoryServer } from '../jsonMemoryServer';
import { claudeServerEntry } from '../mcpServerConfig';

export const claudeMemoryServer: MemoryServerInstaller = jsonMemoryServer({
  container: 'mcpServers',
  entry: claudeServerEntry,
  configPath: (projectRoot) => path.join(projectRoot, '.mcp.json'),
});
