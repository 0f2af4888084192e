/** What the sessions table says about the latest activity, for the live gauge and the tool registry. */
import { type AgentId, isAgentId } from '../../shared/agents';
import type { Store } from '../storage/store';

export interface LatestSession {
  id: string;
  agent: AgentId;
  /** The session file the agent named in its events, if it names one. */
  transcriptPath: string | undefined;
}

/**
 * The `limit` most recently active sessions whose context may be measured: sessions of agents with message
 * `transcripts` that named their transcript, and sessions of `readable`, the agents whose session files (may)
 * carry usage. Newest first.
 */
export function latestMeasurableSessions(
  db: Store,
  agents: { transcripts: readonly AgentId[]; readable: readonly AgentId[] },
  limit: number,
): LatestSession[] {
  return db
    .all(
      `SELECT id, transcript_path, agent FROM sessions
       WHERE agent IN (SELECT value FROM json_each(?)) AND transcript_path IS NOT NULL
          OR agent IN (SELECT value FROM json_each(?))
       ORDER BY last_event_at DESC LIMIT ?`,
      [JSON.stringify(agents.transcripts), JSON.stringify(agents.readable), limit],
    )
    .flatMap((row) =>
      isAgentId(row.agent)
        ? [
            {
              id: String(row.id),
              agent: row.agent,
              transcriptPath: typeof row.transcript_path === 'string' ? row.transcript_path : undefined,
            },
          ]
        : [],
    );
}

/** The model the latest session with one reported. */
export function latestModel(db: Store): string | undefined {
  const model = db.get(
    'SELECT model FROM sessions WHERE model IS NOT NULL ORDER BY last_event_at DESC LIMIT 1',
  )?.model;
  return typeof model === 'string' ? model : undefined;
}

/** How many sessions there are: a new one (of any agent) means a session began since the last count. */
function sessionCount(db: Store): number {
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

/** One project's sessions as its readers see them, over whatever database the project has open. */
export class ProjectSessions {
  constructor(private readonly store: () => Store) {}

  count(): number {
    return sessionCount(this.store());
  }

  latestModel(): string | undefined {
    return latestModel(this.store());
  }

  agents(sessionIds: readonly string[]): Map<string, string> {
    return sessionAgents(this.store(), sessionIds);
  }
}
