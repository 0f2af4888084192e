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
