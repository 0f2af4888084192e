/** A project's ingest of the event log, as the engine reports it and the host and the dashboard show it. */

/** A window's part in a project: the `writer` ingests; a `reader` follows its snapshot read-only. */
export type Role = 'writer' | 'reader';

/** Counts a user sees for one project's ingestion. */
export interface IngestCounts {
  events: number;
  rejected: number;
  sessions: number;
  toolCalls: number;
  toolFailures: number;
  prompts: number;
  /** Events per agent that sent them, by `AgentId` (shared/agents.ts). */
  agents: Record<string, number>;
  /** Size of the saved database snapshot in bytes (0 before the first save). */
  dbBytes: number;
}

/** How far a catch-up has read the event log. */
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
