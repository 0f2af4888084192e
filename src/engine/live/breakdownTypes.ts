/**
 * What fills a session's context window: the categories Claude Code's `/context` names, and the items of
 * the conversation, each with its tokens and whether the figure is measured or estimated. The parts add up
 * to the gauge's total.
 */
import type { BreakdownCategoryName, BreakdownFields, BreakdownItemFields } from '../../shared/context';

/** What an item is, so that a click can open it. */
export interface BreakdownItemRef {
  /** A file on disk: a file the agent read, a memory file, a skill's or agent's definition. */
  file?: string;
  /** 1-based lines of `file` that were read, where known. */
  line?: number;
  endLine?: number;
  /** An MCP server, by its name in the config. */
  server?: string;
  /** A tool call in the transcript: its result can be shown as a read-only document. */
  toolUseId?: string;
  /** The tool's name (`Read`, `Bash`, `mcp__github__search_issues`, ...). */
  tool?: string;
}

export interface BreakdownItem extends BreakdownItemFields {
  category: BreakdownCategoryName;
  ref: BreakdownItemRef;
}

export interface ContextBreakdown extends BreakdownFields<BreakdownItem> {
  /** The gauge's total: the last main-chain API call's input + cache creation + cache read. */
  total: number;
  window: number;
}

export const MAX_BREAKDOWN_ITEMS = 200;
