/**
 * The config scan: every place an agent's tools are declared, for one project and its user, each agent's
 * config read by its adapter (agents/<agent>/). Reading only, no database: `applyScan` turns the result into
 * registry changes.
 */
import { AGENT_ADAPTERS } from '../agents';
import type { ToolConfig, ToolScanContext } from '../agents/adapter';
import { type ConfigLocationOptions, configLocations } from '../agents/configLocations';
import { startToolScan } from '../agents/toolScan';
import type { ConfigEntry, ConfigScan } from '../agents/toolTypes';
import { TOOL_SCOPES, type ToolScope } from '../../shared/tools';

export interface ScanOptions extends ConfigLocationOptions {
  /** Read only these scopes, e.g. `['project']` after a project file changed (default: all). */
  scopes?: readonly ToolScope[];
}

/** An agent whose config holds only MCP servers: one entry per server, named as the agent names its tools. */
function serverOnlyEntries(tools: ToolConfig, context: ToolScanContext): ConfigEntry[] {
  const { projectRoot, userHome } = context.locations;
  const found = tools.servers(projectRoot, userHome, process.env);
  context.problems.push(...found.problems);
  return found.servers
    .filter((server) => context.scopes.includes(server.scope))
    .map((server) => ({
      name: `${tools.mcpToolName(server.name, '')}*`,
      type: 'mcp_server' as const,
      scope: server.scope,
      source: server.file,
      line: server.line,
      server: server.name,
      description: server.description,
      disabled: server.disabled,
    }));
}

export function scanConfigs(options: ScanOptions): ConfigScan {
  const locations = configLocations(options);
  const scopes = TOOL_SCOPES.filter((scope) => (options.scopes ?? TOOL_SCOPES).includes(scope));
  const scan = startToolScan(locations, scopes);
  const entries: ConfigScan['entries'] = [];
  for (const adapter of AGENT_ADAPTERS) {
    if (!adapter.tools) continue;
    const found = adapter.tools.entries?.(scan) ?? serverOnlyEntries(adapter.tools, scan);
    entries.push(
      ...found.map((entry) => ({ ...entry, agent: entry.agent === undefined ? adapter.id : entry.agent })),
    );
  }
  scan.reportWarnings();
  const seen = new Set<string>();
  const unique = entries.filter((entry) => {
    const key = `${entry.scope}\0${entry.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return {
    entries: unique,
    problems: scan.problems,
    scopes,
    projectRoot: locations.projectRoot,
    userHome: locations.userHome,
  };
}
