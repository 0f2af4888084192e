/**
 * The one message contract between the extension host and the dashboard webview.
 * The host sends full state snapshots (after the webview says `ready`); the webview sends intents back.
 * Both sides import this file; nothing else crosses the boundary.
 */

export const PROTOCOL_VERSION = 1;

/** Counts a user sees for one project's ingestion. */
export interface IngestCounts {
  events: number;
  rejected: number;
  sessions: number;
  toolCalls: number;
  toolFailures: number;
  prompts: number;
  /** Size of the saved database snapshot in bytes (0 before the first save). */
  dbBytes: number;
}

export interface IngestProgress {
  doneBytes: number;
  totalBytes: number;
}

/** A log line that could not be ingested, kept so the user can see why. */
export interface RejectView {
  file: string;
  offset: number;
  reason: string;
  /** The start of the line, as plain text (never markup). */
  sample: string;
  rejectedAt: number;
}

/** Whether one Claude Code settings file holds our hooks. */
export interface ScopeConnection {
  scope: 'project' | 'local' | 'user';
  file: string;
  /** `partial`: some of our hooks are missing; `unreadable`: the file does not parse (see problem). */
  status: 'connected' | 'partial' | 'absent' | 'unreadable';
  problem: string | null;
}

export interface ConnectionView {
  connected: boolean;
  scopes: ScopeConnection[];
}

/** Context window bands: under 70%, 70-80, 80-90, 90-95, and 95% or more. */
export type UsageLevel = 'ok' | 'elevated' | 'high' | 'critical' | 'compact';

/** How full the active session's context window is, from its transcript. */
export interface GaugeView {
  sessionId: string | null;
  model: string | null;
  transcript: string;
  tokens: number;
  window: number;
  percent: number;
  level: UsageLevel;
  compactions: Array<{ at: number | null; preTokens: number | null }>;
  /** Compacted after the last response: `tokens` is the size before; the next response shows the new one. */
  compactedSinceUsage: boolean;
  /** Percent of the window over the session, oldest first. */
  trend: number[];
  updatedAt: number | null;
}

export interface ProjectView {
  id: string;
  name: string;
  root: string;
  /** `writer` ingests; `reader` follows another window's snapshot read-only. */
  role: 'writer' | 'reader';
  counts: IngestCounts;
  /** Epoch ms of the newest event received, or null when none. */
  lastEventAt: number | null;
  progress: IngestProgress | null;
  warnings: string[];
  connection: ConnectionView;
  gauge: GaugeView | null;
  /** Claude Code transcripts on disk for this project, which Import History can read. */
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

export type HostMessage =
  | { type: 'state'; state: DashboardState }
  | { type: 'rejects'; projectId: string; rejects: RejectView[]; total: number };

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'ingestNow' }
  | { type: 'openEventLog' }
  | { type: 'showRejects'; projectId: string }
  | { type: 'copyText'; text: string }
  | { type: 'openFolder' }
  | { type: 'connect'; projectId: string }
  | { type: 'disconnect'; projectId: string }
  | { type: 'importHistory'; projectId: string };
