/**
 * The next session's starting context for a project, assembled from its memory and tool registry (laid
 * out by sessionContextText.ts), and the file the recorder prints at SessionStart. Written whenever its
 * inputs change, by the extension and by the CLI, so the recorder never needs the engine.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SESSION_CONTEXT_COMPACT_FILE, SESSION_CONTEXT_FILE, projectStateDir } from '../kernel/paths';
import { writeHookOutputs } from './hookOutput';
import type { ProjectStore } from '../storage/projectStore';
import { rankingSteps } from '../registry/ranking';
import { runAtOnce, runInSteps, type Steps } from '../kernel/steps';
import { makePrivateDir } from '../kernel/privateFiles';
import { USER_SOURCES_SQL } from '../memory/recall';
import { emptyStory, storyIsEmpty, storyRows, tellStory } from '../memory/sessionStory';
import { Citations } from './citations';
import { continuationText } from './continuation';
import { clock, storyLines } from './storyLines';
import type { ObservationSource } from '../memory/types';
import { visibleLine } from '../../shared/visibleText';
import type { Row } from '../storage/store';
import { type SelectableEntry, type SelectionMode, selectRelevantContext } from './selection';
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
/** The previous session's story: its report and pending work in the agent's words need room. */
const SUMMARY_MAX = 3000;

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
  return mostRelevant(entries, limit, options);
}

/** The `limit` most relevant entries (seed 001), newest first, as lines of a section. */
function mostRelevant(
  entries: Array<SelectableEntry & { source: ObservationSource }>,
  limit: number,
  options: SessionContextOptions,
): ContextLine[] {
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

/** What the latest ended session did, told from its story (memory/sessionStory.ts). */
function previousSummary(engine: ProjectStore, citations: Citations): string | null {
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
  const { digestStory, rows } = storyRows(engine.store, {
    id: String(session.id),
    from: Number(session.started_at),
    until: Number(session.until),
  });
  const story = tellStory(digestStory ?? emptyStory(), rows);
  if (storyIsEmpty(story)) return null;
  const when = new Date(Number(session.ended_at)).toISOString().slice(0, 16).replace('T', ' ');
  const model = session.model ? visibleLine(String(session.model)).slice(0, 80) : '';
  const text = `Session ended ${when} UTC${model ? ` (${model})` : ''}.\n${storyLines(story, citations).join('\n')}`;
  return text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 3)}...` : text;
}

/**
 * Recent changes, one line per file (its latest change, how many), checked against the project: a file
 * deleted since is left out, one changed since says so.
 */
function changeLines(
  engine: ProjectStore,
  options: SessionContextOptions,
  citations: Citations,
): ContextLine[] {
  const rows = engine.store.all(
    `SELECT text, at, agent_type, file, file_hash FROM observations INDEXED BY observations_by_at
     WHERE forgotten_at IS NULL AND at >= ? AND source = 'change' ORDER BY at DESC LIMIT ?`,
    [options.now - SECTIONS.changes.window, SECTIONS.changes.limit * 20],
  );
  const byFile = new Map<string, { latest: Row; count: number }>();
  for (const row of rows) {
    const file = row.file == null ? String(row.text) : String(row.file);
    const known = byFile.get(file);
    if (known) known.count++;
    else byFile.set(file, { latest: row, count: 1 });
  }
  const entries = [...byFile.entries()].flatMap(([file, { latest, count }]) => {
    const at = Number(latest.at);
    const cited =
      latest.file == null
        ? { state: 'current' as const }
        : citations.check(file, at, latest.file_hash == null ? undefined : String(latest.file_hash));
    if (cited.state === 'deleted') return [];
    const more = count > 1 ? ` (+${count - 1} earlier ${count === 2 ? 'change' : 'changes'})` : '';
    const since = cited.state === 'changed' ? ` (changed since ${clock(cited.at)} UTC)` : '';
    return [
      {
        type: 'feature',
        source: 'change' as ObservationSource,
        text: `${String(latest.text)}${more}${since}`,
        createdAt: at,
        agentType: latest.agent_type == null ? null : String(latest.agent_type),
      },
    ];
  });
  return mostRelevant(entries, SECTIONS.changes.limit, options);
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
  const citations = new Citations(engine.identity.roots);
  const summary = previousSummary(engine, citations);
  yield;
  const section = function* (where: string, { window, limit }: { window: number; limit: number }) {
    const found = lines(engine, where, window, limit, options);
    yield;
    return found;
  };
  const changes = changeLines(engine, options, citations);
  yield;
  // Decisions are the user's: a tool's output or a subagent's report saying "we decided" is not one.
  const decisions = yield* section(`type = 'decision' AND source IN ${USER_SOURCES_SQL}`, SECTIONS.decisions);
  const references = yield* section(`source = 'reference'`, SECTIONS.references);
  // Findings are what was learned and what is still wrong: not the session's events, not the agent's own
  // report or summary (the previous session tells those), not a failure whose check passed again since.
  const findings = yield* section(
    `type IN ('discovery', 'problem', 'warning', 'solution', 'pattern') AND resolved_at IS NULL
     AND source NOT IN ('change', 'reference', 'prompt', 'compaction', 'compact-summary', 'report', 'digest')`,
    SECTIONS.findings,
  );
  const continuation = continuationText(engine, options.now, citations);
  return {
    ...buildSessionContext({
      now: options.now,
      previousSummary: summary,
      changes,
      decisions,
      references,
      findings,
      tools,
    }),
    ...(continuation ? { continuation } : {}),
  };
}

export function sessionContextPath(engine: ProjectStore): string {
  return path.join(projectStateDir(engine.home, engine.identity.id), SESSION_CONTEXT_FILE);
}

/**
 * Write the files the recorder prints at SessionStart (and, after a compaction, the continuation), where
 * their text changed; returns whether the session context's did.
 */
export function writeSessionContext(engine: ProjectStore, context: SessionContext): boolean {
  const continuation = context.continuation ?? context.text;
  writeHookOutputs(engine.home, engine.identity.roots, context.text, continuation);
  const stateDir = projectStateDir(engine.home, engine.identity.id);
  writePrivateText(path.join(stateDir, SESSION_CONTEXT_COMPACT_FILE), continuation);
  return writePrivateText(sessionContextPath(engine), context.text);
}

function writePrivateText(file: string, text: string): boolean {
  try {
    if (fs.readFileSync(file, 'utf8') === text) return false;
  } catch {
    // Not written yet.
  }
  makePrivateDir(path.dirname(file));
  const temp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(temp, text, { mode: 0o600 });
  fs.renameSync(temp, file);
  return true;
}
