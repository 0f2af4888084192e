/** What the config scan finds; the words for tools themselves are shared with the host and the dashboard. */
import type { ToolScope, ToolType } from '../../shared/tools';

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
}

export interface ScanProblem {
  file: string;
  /** What is wrong with the file, e.g. "not valid JSON: CommaExpected at line 3, column 5". */
  message: string;
  /**
   * Tools of this whole scope keep their state too: set when the file lists what the scope holds (the
   * installed plugins), so that none of its tools can be told removed.
   */
  protectsScope?: ToolScope;
  /**
   * The file was read whole and its tools are as found: a warning about its content (a key written twice,
   * links not followed), which keeps nothing from being told removed.
   */
  readWhole?: true;
}

export interface ConfigScan {
  /** Unique by (name, scope); the first declaration wins. */
  entries: ConfigEntry[];
  problems: ScanProblem[];
  /** The scopes this scan read: only tools of these scopes can be found removed. */
  scopes: ToolScope[];
  projectRoot: string;
  userHome: string;
}
