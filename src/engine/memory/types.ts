/** What the memory stores: one-line observations of what happened in a project, typed as in seed 001. */

// One list for the engine, the host and the dashboard: seed 001's types and `question`, most important first.
export {
  MEMORY_TYPES as OBSERVATION_TYPES,
  type MemoryType as ObservationType,
  isMemoryType as isObservationType,
} from '../../shared/memory';
import type { MemoryType as ObservationType } from '../../shared/memory';

/** Where an observation came from: the rule that derived it, or an explicit save. */
export type ObservationSource =
  | 'change'
  | 'command'
  /** A test or build run. */
  | 'check'
  | 'error'
  | 'prompt'
  /** A compaction of the context: an event of the session, never a decision or a finding. */
  | 'compaction'
  /** The summary the agent wrote when it compacted: what it was working on and what was left to do. */
  | 'compact-summary'
  /** The agent's last message of a turn: its own report of what it did. */
  | 'report'
  | 'subagent'
  | 'reference'
  /** A session's older observations folded into one line (history/compaction.ts). */
  | 'digest'
  /** A note the user saved (the palette, the dashboard, the CLI), or an agent's note the user kept. */
  | 'saved'
  /** A note the agent saved through the MCP server: the agent's words until the user keeps it. */
  | 'agent-note';

export interface Observation {
  /** Full id (16 characters); people and agents use its first 8 or any unique prefix. */
  id: string;
  type: ObservationType;
  source: ObservationSource;
  text: string;
  /** Epoch ms UTC. */
  at: number;
  sessionId: string | null;
  /** `main`, a subagent type (`Explore`, `Plan`...), or null for saves made outside a session. */
  agentType: string | null;
  /** The `events` row it was derived from. */
  eventId: number | null;
  /** A failure whose check passed again later (memory/resolution.ts): epoch ms of the pass, else null. */
  resolvedAt: number | null;
  /** The file a change names (within the project where it is), checked before it is recalled. */
  file: string | null;
  /** SHA-256 of what a whole-file write wrote to `file`. */
  fileHash: string | null;
}

/** Hook event names of the memory's own writes, appended to the event log by the CLI, MCP server and host. */
export const MEMORY_EVENTS = {
  save: 'ContextDeck.MemorySave',
  forget: 'ContextDeck.MemoryForget',
  restore: 'ContextDeck.MemoryRestore',
  /** The user keeps an agent's note as their own decision. */
  keep: 'ContextDeck.MemoryKeep',
} as const;

/** One of the memory's own events rather than an agent's. */
export function isMemoryEvent(name: string): boolean {
  return name.startsWith('ContextDeck.');
}

/** Who asked for a memory write, kept in the event for the record. */
export type MemoryOrigin = 'cli' | 'mcp' | 'vscode';
