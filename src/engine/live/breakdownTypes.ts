/**
 * What fills a session's context window: the categories Claude Code's `/context` names, and the items of
 * the conversation, each with its tokens and whether the figure is measured or estimated. The parts add up
 * to the gauge's total.
 */
import type { BreakdownCategory, BreakdownCategoryName, BreakdownItemKind } from '../../shared/context';

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

export interface BreakdownItem {
  /** Stable for the life of the item in this session (the same tool result keeps its id). */
  id: string;
  kind: BreakdownItemKind;
  category: BreakdownCategoryName;
  /** What a person recognises: the file path, the command, the URL, the MCP tool, the prompt's start. */
  label: string;
  tokens: number;
  measured: boolean;
  /** When it entered the context (epoch ms), where known. */
  at: number | null;
  ref: BreakdownItemRef;
}

export interface ContextBreakdown {
  /** The gauge's total: the last main-chain API call's input + cache creation + cache read. */
  total: number;
  window: number;
  /** The context size at which Claude Code compacts on its own (window minus the autocompact buffer). */
  autocompactAt: number;
  /** Every category, free space and the autocompact buffer included; they add up to the window. */
  categories: BreakdownCategory[];
  /** The largest items first, at most `MAX_BREAKDOWN_ITEMS`. */
  items: BreakdownItem[];
  /** How many items there are in all (the list holds the largest). */
  itemCount: number;
  /** The category figures came from a `/context` output in the transcript. */
  fromContextCommand: boolean;
}

export const MAX_BREAKDOWN_ITEMS = 200;
