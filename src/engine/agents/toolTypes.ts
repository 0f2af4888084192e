/** What the config scan finds; the words for tools themselves are shared with the host and the dashboard. */
import type { AgentId } from '../../shared/agents';
import type { ConfigFileProblem, ToolScope, ToolType } from '../../shared/tools';

/** One tool declared in a config file. */
export interface ConfigEntry {
  name: string;
  type: ToolType;
  scope: ToolScope;
  /** The declaring file (absolute path). */
  source: string;
  /** 1-based line of the entry in `source`, to open the file at it. */
  line: number;
  /** MCP server entries: the server's key as written in the config (plugin servers: `plugin_<plugin>_<key>`). */
  server?: string;
  description?: string;
  /** Declared but switched off (`disabledMcpjsonServers`, a plugin disabled in `enabledPlugins`). */
  disabled: boolean;
  /**
   * The agent that reads the declaring file: the scanning adapter's, unless the entry says otherwise (null:
   * a file no agent Context Deck records reads, like Cursor's `.cursor/mcp.json`).
   */
  agent?: AgentId | null;
}

export interface ScanProblem extends ConfigFileProblem {
  /**
   * Tools of this whole scope keep their state too: set when the file lists what the scope holds (the
   * installed plugins), so that none of its tools can be told removed.
   */
  protectsScope?: ToolScope;
}

export interface ConfigScan {
  /** Unique by (name, scope); the first declaration wins. Each says the agent that reads it. */
  entries: Array<ConfigEntry & { agent: AgentId | null }>;
  problems: ScanProblem[];
  /** The scopes this scan read: only tools of these scopes can be found removed. */
  scopes: ToolScope[];
  projectRoot: string;
  userHome: string;
}
