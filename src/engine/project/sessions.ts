/** What the sessions table says about the latest activity, for the live gauge and the tool registry. */
import type { AgentId } from '../agents/types';
import { isAgentId } from '../agents/types';
import type { Store } from '../storage/store';

export interface LatestSession {
  id: string;
  agent: AgentId;
  /** The session file the agent named in its events, if it names one. */
  transcriptPath: string | undefined;
}

/**
 * The most recently active session whose context can be measured: a Claude Code session that named its
 * transcript, or a session of one of `readable`, the agents whose session files carry usage.
 */
export function latestMeasurableSession(db: Store, readable: readonly AgentId[]): LatestSession | undefined {
  const row = db.get(
    `SELECT id, transcript_path, agent FROM sessions
     WHERE agent = 'claude-code' AND transcript_path IS NOT NULL OR agent IN (SELECT value FROM json_each(?))
     ORDER BY last_event_at DESC LIMIT 1`,
    [JSON.stringify(readable)],
  );
  if (!row || !isAgentId(row.agent)) return undefined;
  return {
    id: String(row.id),
    agent: row.agent,
    transcriptPath: typeof row.transcript_path === 'string' ? row.transcript_path : undefined,
  };
}

/** The model the latest session with one reported. */
export function latestModel(db: Store): string | undefined {
  const model = db.get(
    'SELECT model FROM sessions WHERE model IS NOT NULL ORDER BY last_event_at DESC LIMIT 1',
  )?.model;
  return typeof model === 'string' ? model : undefined;
}

/** How many sessions there are: a new one (of any agent) means a session began since the last count. */
export function sessionCount(db: Store): number {
  return db.number('SELECT count(*) FROM sessions');
}

/** The agent of each of `sessionIds` that has a session row. */
export function sessionAgents(db: Store, sessionIds: readonly string[]): Map<string, string> {
  if (sessionIds.length === 0) return new Map();
  return new Map(
    db
      .all(
        'SELECT id, agent FROM sessions WHERE id IN (SELECT value FROM json_each(?)) AND agent IS NOT NULL',
        [JSON.stringify([...new Set(sessionIds)])],
      )
      .map((row) => [String(row.id), String(row.agent)]),
  );
}
