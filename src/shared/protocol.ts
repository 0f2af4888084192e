/**
 * The one message contract between the extension host and the dashboard webview.
 * The host sends full state snapshots (after the webview says `ready`); the webview sends intents back.
 * Both sides import this file and the vocabulary it names (src/shared); nothing else crosses the boundary.
 */

import type {
  AdviceFields,
  BreakdownFields,
  BreakdownItemFields,
  GaugeFields,
  Phase,
  RecommendationAction,
  UsageLevel,
} from './context';
import type { HookConnectionStatus } from './agents';
import type { IngestCounts, IngestProgress, RejectView, Role } from './ingest';
import { type MessageUnion, message } from './messageTable';
import type { ConfigFileProblem, RankedToolFields, RankingStrategy, ToolScope } from './tools';

export const PROTOCOL_VERSION = 1;

/** Whether one Claude Code settings file holds our hooks. */
export interface ScopeConnection {
  /** The agent whose settings these are (an `AgentId`). */
  agent: string;
  /** The agent's scope: `project`, `local`, `user`... as the agent defines them. */
  scope: string;
  /** How the dashboard names the scope, e.g. "project settings". */
  label: string;
  file: string;
  status: HookConnectionStatus;
  problem: string | null;
}

export interface ConnectionView {
  connected: boolean;
  scopes: ScopeConnection[];
}

/** How full the active session's context window is, from its transcript, as the gauge shows it. */
export interface GaugeView extends GaugeFields {
  /** The agent whose session this is (an `AgentId`). */
  agent: string;
  level: UsageLevel;
  /** Percent of the window over the session, oldest first. */
  trend: number[];
  /** When each trend point was measured (epoch ms), to place the big items on the trend. */
  trendAt: Array<number | null>;
  /** What fills the window, once the transcript has been read. */
  breakdown: BreakdownView | null;
}

/** The context by category (adding up to the window) and its largest items. */
export type BreakdownView = BreakdownFields<BreakdownItemView>;

export interface BreakdownItemView extends BreakdownItemFields {
  /** The tool behind a tool result or a file read (`Read`, `Bash`, `mcp__github__search_issues`). */
  tool: string | null;
  /** Whether a click can open it: the file, the server's config line, or the tool result. */
  openable: boolean;
}

/** Pruning advice beside the gauge (from 70% full). */
export interface AdviceView extends AdviceFields<Exclude<Phase, 'silent'>> {
  /** `/compact` with focus instructions naming what to keep and what to drop. */
  compactCommand: string;
  /** The last pin or dismissal, which can be undone. */
  undo: { label: string } | null;
}

export type AdviceActionKind = RecommendationAction | 'pin' | 'dismiss';

/** How much of its budgets the next session's starting context uses. */
export interface NextContextView {
  chars: number;
  budget: number;
  toolsChars: number;
  toolsBudget: number;
}

export interface ProjectView {
  id: string;
  name: string;
  root: string;
  /** Not shown: see `sharing`. */
  role: Role;
  /**
   * Only while a change made in this window (a memory save or forget) waits for the other VS Code window that
   * records this project: a sentence for the user, shown as is. Absent whenever the two are in sync.
   */
  sharing?: { message: string };
  counts: IngestCounts;
  /** Epoch ms of the newest event received, or null when none. */
  lastEventAt: number | null;
  progress: IngestProgress | null;
  warnings: string[];
  connection: ConnectionView;
  gauge: GaugeView | null;
  /** Null under 70% full, or without a live session. */
  advice: AdviceView | null;
  nextContext: NextContextView | null;
  /** Agents' session files on disk for this project (transcripts, rollouts...), which Import History can read. */
  transcriptFiles: number;
}

export interface DashboardState {
  protocolVersion: typeof PROTOCOL_VERSION;
  home: string;
  eventsDir: string;
  projects: ProjectView[];
  /** Why there is nothing to show (no folder open, engine failed to start), or null. */
  problem: string | null;
  /** False when the window has no folder open: the dashboard offers to open one. */
  folderOpen?: boolean;
}

/** One tool of the agent tool registry, ranked (issue 4), as the dashboard shows it. */
export type ToolView = RankedToolFields<ToolView>;

/** A config file the last scan could not read (or read whole), named relative to the project or `~/`. */
export type ToolProblemView = ConfigFileProblem;

/** The ranked registry, sent on its own message only when the ranking changed. */
export interface ToolsView {
  /** Grows each time the ranking is recomputed; the host sends a project's tools when it changed. */
  version: number;
  strategy: RankingStrategy;
  builtinsHidden: boolean;
  tools: ToolView[];
  problems: ToolProblemView[];
  /** Epoch ms of the last config scan, or null before the first. */
  scannedAt: number | null;
}

/** One observation of the project memory as a dashboard row (issue 5). Text is plain text, never markup. */
export interface MemoryRowView {
  id: string;
  shortId: string;
  /** One of MEMORY_TYPES (src/shared/memory.ts). */
  type: string;
  /** One line, cut for the list; the full text opens in an editor. */
  text: string;
  at: number;
  /** The agent of the session it came from (an `AgentId`); null for saves outside a session. */
  agent: string | null;
  /**
   * What is true of it now, in a word or two each: "fixed" (its check passed again), "agent's note" (saved
   * by an agent, not a decision until kept), "file deleted", "file changed" (since the change).
   */
  notes: string[];
}

/** The answer to a `memorySearch`: latest (empty query) or best matching observations, and counts by type. */
export interface MemoryView {
  /** Echo of the request this answers, so the page can drop answers to older keystrokes. */
  request: number;
  query: string;
  types: string[];
  rows: MemoryRowView[];
  /** How many agents the rows came from: with more than one, each row names its agent. */
  agents: number;
  more: boolean;
  total: number;
  byType: Record<string, number>;
}

/** What the host sends the page, by `type`; the page's one dispatcher is webview/hostMessages.ts. */
export const HOST_MESSAGES = {
  state: message<{ state: DashboardState }>(),
  rejects: message<{ projectId: string; rejects: RejectView[]; total: number }>(),
  tools: message<{ projectId: string; tools: ToolsView }>(),
  memory: message<{ projectId: string; memory: MemoryView }>(),
};

export type HostMessage = MessageUnion<typeof HOST_MESSAGES>;

/**
 * What the page asks of the host, by `type`: checked at runtime by parseWebviewMessage (webviewMessages.ts),
 * then routed by the host's one dispatcher (src/host/dashboard/dashboardIntents.ts).
 */
export const WEBVIEW_MESSAGES = {
  ready: message(),
  ingestNow: message(),
  openEventLog: message(),
  showRejects: message<{ projectId: string }>(),
  copyText: message<{ text: string }>(),
  openFolder: message(),
  connect: message<{ projectId: string }>(),
  disconnect: message<{ projectId: string }>(),
  importHistory: message<{ projectId: string }>(),
  adviceAction: message<{ projectId: string; itemId: string; action: AdviceActionKind }>(),
  adviceUndo: message<{ projectId: string }>(),
  previewContext: message<{ projectId: string }>(),
  openToolSource: message<{ projectId: string; name: string; scope: ToolScope }>(),
  openContextItem: message<{ projectId: string; itemId: string }>(),
  setServerEnabled: message<{ projectId: string; server: string; enabled: boolean }>(),
  memorySearch: message<{ projectId: string; request: number; query: string; types: string[] }>(),
  openObservation: message<{ projectId: string; id: string }>(),
  searchMemory: message<{ projectId: string; query: string }>(),
};

export type WebviewMessage = MessageUnion<typeof WEBVIEW_MESSAGES>;
