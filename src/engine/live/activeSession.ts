/**
 * Which session's context to show: the newest session file of the project, whichever agent writes it. The
 * live gauge in the host and `context-deck gauge` both follow it.
 */
import * as fs from 'node:fs';
import { AGENT_ADAPTERS, TRANSCRIPT_ADAPTERS, adapterOf } from '../agents';
import { measuresContextOf } from '../agents/adapter';
import type { AgentId } from '../../shared/agents';
import { expandTilde } from '../kernel/paths';
import { latestMeasurableSessions } from '../memory/sessions';
import type { Store } from '../storage/store';
import { sessionFileOwner } from '../transcripts/agentSessionImport';
import { ContextGauge, type ContextGaugeOptions } from './contextGauge';
import { SessionFileGauge } from './sessionFileGauge';

export interface ActiveSession {
  agent: AgentId;
  file: string;
  /** The session the hooks last reported, for files that hold several (opencode's database). */
  sessionId?: string;
}

/** A gauge of a message transcript, or of another agent's session file: the same surface. */
export type SessionGauge = (ContextGauge | SessionFileGauge) & { agent: AgentId };

function mtimeOf(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

export interface ActiveSessionOptions {
  /** The data folder of the agents with message transcripts (Claude Code's: `CLAUDE_CONFIG_DIR`, else `~/.claude`). */
  transcriptsDir?: string;
  /**
   * The file of a session of an agent that names none in its events (opencode's store, Cline's task): by
   * default `sessionFileOf`; callers that look often pass a cached lookup.
   */
  sharedStore?: (agent: AgentId, sessionId: string) => string | undefined;
}

/**
 * The file of a session of an agent that names no session file in its events: the session's own where the
 * adapter can tell it (Cline's task), else the agent's newest store (opencode's database of every session).
 */
export function sessionFileOf(agent: AgentId, projectRoot: string, sessionId: string): string | undefined {
  const sessions = adapterOf(agent)?.sessions;
  return sessions?.fileOf?.(sessionId, process.env) ?? sessions?.find(projectRoot, process.env).at(-1);
}

/** Sessions looked at, newest first, for one whose file measures its context. */
const RECENT_SESSIONS = 5;

/**
 * The newest of: the session file the hooks last named (of an agent whose files carry usage), and the
 * newest transcript of the project in each transcript agent's folder. `db` is the project's database, when
 * one is open.
 */
export function findActiveSession(
  db: Store | undefined,
  projectRoot: string,
  options: ActiveSessionOptions = {},
): ActiveSession | undefined {
  const candidates: ActiveSession[] = [];
  const agents = {
    transcripts: TRANSCRIPT_ADAPTERS.map((adapter) => adapter.id),
    readable: AGENT_ADAPTERS.filter((adapter) => adapter.sessions?.measuresContext).map(
      (adapter) => adapter.id,
    ),
  };
  // The newest session whose file says how full its context is: an agent's files may in one version and
  // not another (VS Code's), so a few recent sessions are looked at.
  const store =
    options.sharedStore ??
    ((agent: AgentId, sessionId: string) => sessionFileOf(agent, projectRoot, sessionId));
  for (const latest of db ? latestMeasurableSessions(db, agents, RECENT_SESSIONS) : []) {
    const file =
      latest.transcriptPath !== undefined
        ? expandTilde(latest.transcriptPath)
        : store(latest.agent, latest.id);
    if (!file) continue;
    // Message transcripts always say (ContextGauge reads them); other agents' files as their adapter says.
    const adapter = adapterOf(latest.agent);
    if (adapter?.transcripts || measuresContextOf(adapter?.sessions, file)) {
      candidates.push({ agent: latest.agent, file, sessionId: latest.id });
      break;
    }
  }
  for (const adapter of TRANSCRIPT_ADAPTERS) {
    const found = adapter.transcripts.active(projectRoot, options.transcriptsDir);
    if (found) candidates.push({ agent: adapter.id, file: found });
  }
  return candidates
    .filter((candidate) => mtimeOf(candidate.file) >= 0)
    .sort((a, b) => mtimeOf(b.file) - mtimeOf(a.file))[0];
}

/** A session file named by path, whichever agent's its content says; throws for a file no agent's. */
export function sessionOfFile(file: string): ActiveSession {
  const owner = sessionFileOwner(file);
  if (!owner.adapter) throw new Error(owner.problem);
  return { agent: owner.adapter.id, file };
}

/** The gauge for a session; undefined where its file does not say how full the context is. */
export function sessionGauge(
  active: ActiveSession,
  options: Pick<ContextGaugeOptions, 'projectRoot' | 'window'> = {},
): SessionGauge | undefined {
  const { agent, file, sessionId } = active;
  const adapter = adapterOf(agent);
  if (adapter?.transcripts)
    return Object.assign(new ContextGauge(file, { ...adapter, transcripts: adapter.transcripts }, options), {
      agent,
    });
  const sessions = adapter?.sessions;
  if (!sessions || !measuresContextOf(sessions, file)) return undefined;
  return Object.assign(new SessionFileGauge(file, { ...adapter, sessions }, { ...options, sessionId }), {
    agent,
  });
}
