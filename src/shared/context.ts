/**
 * The context window's vocabulary: how full it is, what fills it, when it will compact, and what to drop.
 * The engine measures these, the host sends them, the dashboard, the status bar and the CLI show them.
 */

/**
 * How full the context window is, in the bands the design uses everywhere (status bar colours, gauge,
 * pruning phases): under 70% nothing to say, then 70, 80, 90, and 95% where compaction comes first.
 */
export type UsageLevel = 'ok' | 'elevated' | 'high' | 'critical' | 'compact';

/** The categories of `/context`, MCP tools split into what is always in the prompt and what loaded later. */
export type BreakdownCategoryName =
  | 'system_prompt'
  | 'system_tools'
  /** Tool names and server instructions, in the prompt from the start (tool search is on by default). */
  | 'mcp_tools'
  /** Schemas of MCP tools loaded on demand during the session (tool search results). */
  | 'mcp_schemas'
  | 'custom_agents'
  | 'memory_files'
  | 'skills'
  | 'messages'
  | 'free_space'
  | 'autocompact_buffer';

export interface BreakdownCategory {
  name: BreakdownCategoryName;
  tokens: number;
  /**
   * True when the figure comes from the transcript's usage (the growth between API calls, or a `/context`
   * output in the transcript); false when it is shared out by characters or estimated from files on disk.
   */
  measured: boolean;
}

export type BreakdownItemKind =
  | 'file_read'
  | 'tool_result'
  | 'prompt'
  | 'assistant'
  | 'hook_context'
  | 'subagent_result'
  | 'compaction_summary'
  | 'mcp_server'
  | 'memory_file'
  | 'skill'
  | 'agent';

/** One item of the context: what the engine measures (BreakdownItem) and the dashboard lists (its view). */
export interface BreakdownItemFields {
  /** Stable for the life of the item in this session (the same tool result keeps its id). */
  id: string;
  kind: BreakdownItemKind;
  /** What a person recognises: the file path, the command, the URL, the MCP tool, the prompt's start. */
  label: string;
  tokens: number;
  measured: boolean;
  /** When it entered the context (epoch ms), where known. */
  at: number | null;
}

/**
 * What fills the context window, by category and by item: the engine's ContextBreakdown and the dashboard's
 * BreakdownView, each with its own `Item`.
 */
export interface BreakdownFields<Item> {
  /** The context size at which Claude Code compacts on its own (window minus the autocompact buffer). */
  autocompactAt: number;
  /** Every category, free space and the autocompact buffer included; they add up to the window. */
  categories: BreakdownCategory[];
  /** The largest items, largest first (the engine keeps `MAX_BREAKDOWN_ITEMS`, the dashboard gets fewer). */
  items: Item[];
  /** How many items the context holds in all. */
  itemCount: number;
  /** The category figures came from a `/context` output in the transcript. */
  fromContextCommand: boolean;
}

/** One compaction of the session, from the transcript's boundary line. */
export interface Compaction {
  at: number | null;
  /** Context tokens just before the compaction, as the agent recorded them. */
  preTokens: number | null;
}

interface TippingKind {
  kind: BreakdownItemKind;
  tokens: number;
}

interface TippingItem {
  kind: BreakdownItemKind;
  label: string;
  tokens: number;
}

/** What grew the context most in the last `steps` steps. */
export interface Tipping {
  steps: number;
  /** How much the context grew over those steps. */
  grown: number;
  /** The kinds of item that grew it most, largest first (empty where the agent's files do not say). */
  kinds: TippingKind[];
  /** The largest single items among them. */
  items: TippingItem[];
}

export interface ContextForecast {
  /** Main-chain model calls left before the context reaches `at`; null with a `reason`. */
  stepsLeft: number | null;
  stepsLow: number | null;
  /** Null when the pace is too uneven to bound it: "or more". */
  stepsHigh: number | null;
  /** Prompts left at this session's steps per prompt. */
  promptsLeft: number | null;
  /** Minutes left at this session's pace. */
  minutesLeft: number | null;
  /** The context size where the agent compacts (`event: 'compact'`), or the window (`'full'`). */
  at: number;
  event: 'compact' | 'full';
  /** Why there is no forecast; null when there is one. */
  reason: string | null;
  tipping: Tipping | null;
}

/** What a pruning recommendation is about. */
export type ContextItemType = 'file' | 'skill' | 'subagent' | 'mcp_server' | 'tool_result';

/** What the primary action of a recommendation does. */
export type RecommendationAction = 'compact' | 'closeFile' | 'disableServer';

/** One pruning recommendation, ready to show. */
export interface Recommendation {
  itemId: string;
  /** A path, a name, or for a tool result a description: "the 38k-token Bash output `npm test` from 2 h ago". */
  item: string;
  type: ContextItemType | 'session';
  /** 0-30; null for the session's compaction, which is not scored. */
  score: number | null;
  /** Tokens the drop frees, never unknown: measured from the transcript or estimated (`savingMeasured`). */
  savingTokens: number;
  /** True: the transcript's own measure. False: an estimate (characters / 4, an even share of a category). */
  savingMeasured: boolean;
  /** What the saving is made of: "tool names and instructions 1.2k + loaded schemas 3.1k + 3 results 900". */
  savingDetail: string;
  priority: 'HIGH' | 'MED';
  /** Why in plain words, then the saving: "unused for 2 h after one use, unrelated to your latest prompt; saves 26k". */
  reason: string;
  /** How the score is made: "2 of 30, prune now (0-8): recency 0 (over 2 h) + frequency 2 (1 use) + ...". */
  explanation: string;
  /** The primary action: compact the conversation, close the file's editors, or disable the server. */
  action: RecommendationAction;
}

/** silent < 70%, identify 70-80, aggressive 80-90, critical 90-95, compact >= 95. */
export type Phase = 'silent' | 'identify' | 'aggressive' | 'critical' | 'compact';

/** Pruning advice: what the engine's Advice and the dashboard's AdviceView (never `silent`) both hold. */
export interface AdviceFields<AdvicePhase extends Phase> {
  phase: AdvicePhase;
  warnings: string[];
  /** The best few, best first; a session's compaction comes first from 95% full. */
  recommendations: Recommendation[];
  /** What the recommended drops free together (the session's compaction not counted). */
  totalSavingTokens: number;
}

/**
 * How full a session's context window is, read from its transcript: what the engine's GaugeReading and the
 * dashboard's GaugeView both hold.
 */
export interface GaugeFields {
  /** The transcript (or session file) it was read from. */
  transcript: string;
  sessionId: string | null;
  model: string | null;
  /** Context tokens of the last main-chain response: input + cache creation + cache read. */
  tokens: number;
  window: number;
  /**
   * Nothing stated the window (no setting, no figure of the agent's, a model its catalogue does not list):
   * `window` is the usual size of current models, shown as a guess and never forecast against.
   */
  windowGuessed: boolean;
  /** tokens / window, in percent with one decimal. */
  percent: number;
  compactions: Compaction[];
  /**
   * The conversation was compacted after the last response: `tokens` is still the size before the
   * compaction, and the next response will show the new size.
   */
  compactedSinceUsage: boolean;
  /** When the last response counted was written. */
  updatedAt: number | null;
  /** When it will compact (or fill), from the session's own growth, or why that cannot be told. */
  forecast: ContextForecast;
  /**
   * What the agent's own display shows where it counts otherwise, so the two can be told apart: Codex's
   * footer leaves `baseline` tokens (its prompt and tools) out of both the window and the count.
   */
  ownDisplay?: { percentLeft: number; baseline: number };
}
