/** The tool registry's vocabulary: what the engine ranks, the host sends and the dashboard shows. */

export type ToolType =
  'mcp_server' | 'mcp_tool' | 'slash_command' | 'skill' | 'subagent' | 'plugin' | 'builtin';

/** `global`: the user's own config; `project`: this project's files (and its entry in ~/.claude.json). */
export type ToolScope = 'global' | 'project' | 'plugin';

export const TOOL_SCOPES: readonly ToolScope[] = ['global', 'project', 'plugin'];

export function isToolScope(value: unknown): value is ToolScope {
  return (TOOL_SCOPES as readonly unknown[]).includes(value);
}

export type ToolStatus = 'active' | 'stale' | 'demoted';

/** Where a registry entry came from: a config file, or calls recorded by the hooks or read from transcripts. */
export type ToolOrigin = 'config' | 'hook' | 'transcript';

/** A config file the scan could not read, or read with a warning; the dashboard lists it. */
export interface ConfigFileProblem {
  file: string;
  /** What is wrong with the file, e.g. "not valid JSON: CommaExpected at line 3, column 5". */
  message: string;
  /**
   * The file was read whole and its tools are as found: a warning about its content (a key written twice,
   * links not followed), which keeps nothing from being told removed.
   */
  readWhole?: true;
}

/** The two ranking strategies of DESIGN.md "Tool ranking". */
export type RankingStrategy = 'frequency-share' | 'decay';

export const RANKING_STRATEGIES: readonly RankingStrategy[] = ['frequency-share', 'decay'];

/** Multipliers applied to every strategy's base score. */
export interface ScorePenalties {
  /** 0.25 when stale or demoted, else 1. */
  statusFactor: number;
  /** 0.5 when last seen 30 or more days ago, else 1. */
  unseenFactor: number;
}

/** Why a tool ranks where it does: the strategy's parts and the penalties applied to them. */
export type ScoreParts =
  | ({
      strategy: 'frequency-share';
      /** Calls among the project's most recent 200 (a server: its tools' calls). */
      recentUses: number;
      /** How many calls that window holds (200 once the project has that many). */
      recentCalls: number;
      share: number;
    } & ScorePenalties)
  | ({
      strategy: 'decay';
      uses7d: number;
      /** The most uses in 7 days of any tool or server, at least 1. */
      maxUses7d: number;
      frequency: number;
      /** Days since the last use in the last 7 days; null when unused there. */
      ageDays: number | null;
      recency: number;
    } & ScorePenalties);

/**
 * One tool of the registry as ranked: what the engine computes (RankedTool) and the dashboard shows
 * (ToolView). `Child` is the type of an MCP server's tools, which are ranked the same way.
 */
export interface RankedToolFields<Child> {
  name: string;
  type: ToolType;
  scope: ToolScope;
  origin: ToolOrigin;
  server: string | null;
  /**
   * The declaring file (config tools only; null when only seen in use): the engine's path, shown by the
   * dashboard relative to the project or as `~/...`.
   */
  source: string | null;
  /** The line of the entry in `source`. */
  line: number | null;
  description: string | null;
  /** Declared but switched off in the agent's settings. */
  disabled: boolean;
  status: ToolStatus;
  statusReason: string | null;
  score: number;
  scoreParts: ScoreParts;
  uses7d: number;
  usesTotal: number;
  /** Failed calls, lifetime. */
  failures: number;
  /** Successes among the last 50 calls (a server: over each of its tools' last 50); null before any call. */
  successRate: number | null;
  lastUsedAt: number | null;
  /** Whole days since the tool was last seen (used, discovered or confirmed by a config scan). */
  unseenDays: number;
  /** The agents that can use it (`AgentId`s): the one declaring it, and those calling it. */
  agents: string[];
  /** An MCP server's tools, ranked the same way. */
  children?: Child[];
}
