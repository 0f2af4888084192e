/** What the memory stores: one-line observations of what happened in a project, typed as in seed 001. */

export const OBSERVATION_TYPES = [
  'decision',
  'problem',
  'warning',
  'refactor',
  'success',
  'discovery',
  'feature',
  'bugfix',
  'pattern',
  'solution',
] as const;

export type ObservationType = (typeof OBSERVATION_TYPES)[number];

export function isObservationType(value: unknown): value is ObservationType {
  return typeof value === 'string' && (OBSERVATION_TYPES as readonly string[]).includes(value);
}

/** Where an observation came from: the rule that derived it, or an explicit save. */
export type ObservationSource =
  | 'change'
  | 'command'
  /** A test or build run. */
  | 'check'
  | 'error'
  | 'prompt'
  | 'compaction'
  | 'subagent'
  | 'reference'
  | 'saved';

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
}

/** Hook event names of the memory's own writes, appended to the event log by the CLI, MCP server and host. */
export const MEMORY_EVENTS = {
  save: 'ContextDeck.MemorySave',
  forget: 'ContextDeck.MemoryForget',
  restore: 'ContextDeck.MemoryRestore',
} as const;

/** Who asked for a memory write, kept in the event for the record. */
export type MemoryOrigin = 'cli' | 'mcp' | 'vscode';
