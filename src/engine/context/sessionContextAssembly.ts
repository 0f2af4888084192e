/**
 * The next session's starting context for a project, assembled from its memory and tool registry (laid
 * out by sessionContextText.ts), and the file the recorder prints at SessionStart. Written whenever its
 * inputs change, by the extension and by the CLI, so the recorder never needs the engine.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SESSION_CONTEXT_FILE, projectStateDir } from '../kernel/paths';
import { writeHookOutputs } from './hookOutput';
import type { ProjectStore } from '../storage/projectStore';
import { rankingSteps } from '../registry/ranking';
import { runAtOnce, runInSteps, type Steps } from '../kernel/steps';
import { makePrivateDir } from '../kernel/privateFiles';
import { recalled, USER_SOURCES_SQL } from '../memory/recall';
import type { ObservationSource } from '../memory/types';
import { visibleLine } from '../../shared/visibleText';
import type { Row } from '../storage/store';
import { type SelectionMode, selectRelevantContext } from './selection';
import { type ContextLine, type SessionContext, buildSessionContext } from './sessionContextText';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Laminark's windows and counts per section: what is recent enough, and how much of it. */
const SECTIONS = {
  changes: { window: DAY, limit: 10 },
  decisions: { window: 7 * DAY, limit: 5 },
  references: { window: 3 * DAY, limit: 3 },
  findings: { window: 7 * DAY, limit: 5 },
} as const;
/** The previous session's summary; Laminark capped its session summaries the same way. */
const SUMMARY_MAX = 2000;
/** One item of the summary, cut like a section's line: its 18 items fit SUMMARY_MAX whole, quotes closed. */
const ITEM_MAX = 100;

export interface SessionContextOptions {
  now: number;
  mode?: SelectionMode;
  /** The agent type the context is for; observations of the same type weigh more (seed 001). */
  agentType?: string;
}

function lines(
  engine: ProjectStore,
  where: string,
  window: number,
  limit: number,
  options: SessionContextOptions,
): ContextLine[] {
  const rows = engine.store.all(
    // By time: the index of live observations by type would read every one of a common type.
    `SELECT type, source, text, at, agent_type FROM observations INDEXED BY observations_by_at
     WHERE forgotten_at IS NULL AND at >= ? AND ${where} ORDER BY at DESC LIMIT ?`,
    [options.now - window, limit * 4],
  );
  const entries = rows.map((row: Row) => ({
    type: String(row.type),
    source: String(row.source) as ObservationSource,
    text: String(row.text),
    createdAt: Number(row.at),
    agentType: row.agent_type == null ? null : String(row.agent_type),
  }));
  return selectRelevantContext(entries, {
    now: options.now,
    agentType: options.agentType ?? 'main',
    mode: options.mode,
  })
    .slice(0, limit)
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((entry) => ({
      text: entry.text,
      source: entry.source,
      at: entry.createdAt,
      relevance: entry.relevance,
    }));
}

/** What the latest ended session did, in a few lines drawn from its observations. */
function previousSummary(engine: ProjectStore): string | null {
  // The latest ended session that left something to say: one that only started and stopped is skipped.
  // Sessions are walked by their end (an index); a session's observations are looked up within its time
  // span (observations_by_at): the memory has no index by session, which would cost every insert, and
  // looking them up by session alone read every observation (200 ms at a year of history).
  const session = engine.store.get(
    `SELECT id, started_at, max(ended_at, last_event_at) AS until, ended_at, model FROM sessions s
     WHERE ended_at IS NOT NULL AND EXISTS (
       SELECT 1 FROM observations o INDEXED BY observations_by_at WHERE o.at BETWEEN s.started_at AND max(s.ended_at, s.last_event_at)
         AND o.session_id = s.id AND o.forgotten_at IS NULL)
     ORDER BY ended_at DESC LIMIT 1`,
  );
  if (!session) return null;
  const of = (where: string, limit: number) =>
    engine.store
      .all(
        `SELECT source, text FROM observations INDEXED BY observations_by_at WHERE at BETWEEN ? AND ? AND session_id = ? AND forgotten_at IS NULL
           AND ${where} ORDER BY seq LIMIT ${limit}`,
        [session.started_at, session.until, session.id],
      )
      // Each item marked and quoted as the sections' lines are; the whole summary's lines stay ours.
      .map((row) =>
        recalled(row.source as ObservationSource, String(row.text).replace(/^Asked:\s*/, ''), ITEM_MAX),
      );
  const parts = [
    ['Asked', of(`source = 'prompt'`, 3)],
    ['Changed', of(`source = 'change'`, 6)],
    ['Decided', of(`type = 'decision' AND source IN ${USER_SOURCES_SQL}`, 3)],
    ['Checked', of(`source = 'check'`, 3)],
    ['Problems', of(`type = 'problem' AND source <> 'check'`, 3)],
  ] as const;
  const body = parts
    .filter(([, items]) => items.length > 0)
    .map(([label, items]) => `${label}: ${items.join('; ')}`)
    .join('\n');
  if (!body) return null;
  const when = new Date(Number(session.ended_at)).toISOString().slice(0, 16).replace('T', ' ');
  const model = session.model ? visibleLine(String(session.model)).slice(0, 80) : '';
  const text = `Session ended ${when} UTC${model ? ` (${model})` : ''}.\n${body}`;
  return text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 3)}...` : text;
}

export function assembleSessionContext(engine: ProjectStore, options: SessionContextOptions): SessionContext {
  return runAtOnce(sessionContextSteps(engine, options));
}

/**
 * `assembleSessionContext`, with `pause()` awaited after each of its dozen queries: the extension host
 * refreshes it after every ingest, and at once it held the host up to 54 ms.
 */
export function assembleSessionContextInSteps(
  engine: ProjectStore,
  options: SessionContextOptions,
  pause?: () => Promise<void>,
): Promise<SessionContext> {
  return runInSteps(sessionContextSteps(engine, options), pause);
}

/** The next session's context, a query per step (project/derivedViews.ts runs it after an ingest). */
export function* sessionContextSteps(
  engine: ProjectStore,
  options: SessionContextOptions,
): Steps<SessionContext> {
  const ranked = yield* rankingSteps(engine, { hideBuiltins: true, now: options.now });
  const tools = ranked.map((tool) => ({
    name: tool.name,
    type: tool.type,
    scope: tool.scope,
    server: tool.server,
    usesTotal: tool.usesTotal,
    description: tool.description,
  }));
  const summary = previousSummary(engine);
  yield;
  const section = function* (where: string, { window, limit }: { window: number; limit: number }) {
    const found = lines(engine, where, window, limit, options);
    yield;
    return found;
  };
  const changes = yield* section(`source = 'change'`, SECTIONS.changes);
  // Decisions are the user's: a tool's output or a subagent's report saying "we decided" is not one.
  const decisions = yield* section(`type = 'decision' AND source IN ${USER_SOURCES_SQL}`, SECTIONS.decisions);
  const references = yield* section(`source = 'reference'`, SECTIONS.references);
  const findings = yield* section(
    `type IN ('discovery', 'problem', 'warning', 'solution', 'pattern') AND source NOT IN ('change', 'reference', 'prompt')`,
    SECTIONS.findings,
  );
  return buildSessionContext({
    now: options.now,
    previousSummary: summary,
    changes,
    decisions,
    references,
    findings,
    tools,
  });
}

export function sessionContextPath(engine: ProjectStore): string {
  return path.join(projectStateDir(engine.home, engine.identity.id), SESSION_CONTEXT_FILE);
}

/** Write the file the recorder prints at SessionStart, if its text changed; returns whether it did. */
export function writeSessionContext(engine: ProjectStore, context: SessionContext): boolean {
  const file = sessionContextPath(engine);
  writeHookOutputs(engine.home, engine.identity.roots, context.text);
  try {
    if (fs.readFileSync(file, 'utf8') === context.text) return false;
  } catch {
    // Not written yet.
  }
  makePrivateDir(path.dirname(file));
  const temp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(temp, context.text, { mode: 0o600 });
  fs.renameSync(temp, file);
  return true;
}
