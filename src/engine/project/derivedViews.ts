/**
 * What is derived from the event log after it is read, declared once, and the one pipeline that brings it up
 * to date: the extension host runs it in steps (runInSteps), the catch-up process and the CLI at once
 * (runAtOnce), so `context-deck ingest` leaves the rows the extension leaves.
 *
 * Ingest itself writes, chunk by chunk in one transaction (log/eventRows.ts): the event counters, the
 * activity (sessions, tool calls, prompts) and the memory's observations. The views below read those rows
 * afterwards, in this order: the registry first, because the fold removes the calls it reads.
 */
import { sessionContextSteps, writeSessionContext } from '../context/sessionContextAssembly';
import type { SelectionMode } from '../../shared/settings';
import type { SessionContext } from '../context/sessionContextText';
import { type DiscoveryResult, discoverFromUse, LAST_CALL_COUNTER } from '../registry/discovery';
import { runAtOnce, type Steps } from '../kernel/steps';
import { type RankedTool, type RankOptions, rankingSteps } from '../registry/ranking';
import type { ProjectStore } from '../storage/projectStore';

/** During a long ingest, older detail is folded every 8 MiB of log read (about 12,000 events). */
export const FOLD_EVERY_BYTES = 8 * 1024 * 1024;
/** New calls read into the registry per step (all of a 1M-event backlog took 400 ms at once). */
const DISCOVERY_SLICE_CALLS = 5000;

/**
 * What the pipeline needs of a project: ProjectEngine is one. Declared here, not imported, so that
 * ProjectEngine can run its own views (scheduleViews, refreshViews) without an import cycle.
 */
export interface DerivedViewsProject extends ProjectStore {
  foldSteps(detailDays: number, newHistory?: boolean): Steps<number>;
}

export interface AfterIngestOptions {
  /** Detail older than this many days is folded (history/compaction.ts). */
  detailDays: number;
  /** Older detail may have come in (a catch-up, an import, a rebuild): fold even if the window did not move. */
  newHistory?: boolean;
  /**
   * The views to bring up to date, run in the pipeline's order (default: all of them). The host schedules
   * the context on its own; a memory write leaves the fold to the next ingest, so that a forget can be undone.
   */
  views?: readonly DerivedViewName[];
  /** How selective the next session's context is (`contextDeck.contextSelection`). */
  mode?: SelectionMode;
  /** How the tools are ranked (`contextDeck.ranking`, `contextDeck.tools.showBuiltins`). */
  ranking?: Pick<RankOptions, 'strategy' | 'hideBuiltins'>;
  /** Stop between two steps (the project is closing); what was done is kept. */
  stopped?: () => boolean;
}

export interface AfterIngestResult {
  /** Calls the registry read, and the tools they added, demoted or recovered. */
  discovered: DiscoveryResult;
  /** Rows of older history folded. */
  folded: number;
  /** The tools ranked, when the pipeline went that far. */
  ranked?: RankedTool[];
  /** What the next session receives, when the pipeline went that far. */
  context?: SessionContext;
}

interface DerivedView {
  /** What it reads, and the cursor that says how far it has read, where it keeps one. */
  reads: string;
  cursor?: string;
  /** A window that only follows the writer's snapshots runs it too: it writes nothing there. */
  forReaders?: true;
  steps(engine: DerivedViewsProject, options: AfterIngestOptions, result: AfterIngestResult): Steps<void>;
}

/** The derived views, in the order the pipeline runs them. */
export const DERIVED_VIEWS = {
  registry: {
    reads: 'tool calls (with their session’s agent) recorded since its cursor',
    cursor: `the counter ${LAST_CALL_COUNTER}`,
    *steps(engine, options, result) {
      result.discovered = yield* discoverySteps(engine, options.stopped);
    },
  },
  history: {
    reads: 'tool calls the registry has read, prompts and observations older than the detail window',
    cursor: 'the detail window’s start at the last fold (ProjectEngine.foldSteps)',
    *steps(engine, options, result) {
      result.folded = yield* engine.foldSteps(options.detailDays, options.newHistory);
    },
  },
  ranking: {
    reads: 'the registry and the calls of the past week',
    forReaders: true,
    *steps(engine, options, result) {
      result.ranked = yield* rankingSteps(engine, options.ranking ?? {});
    },
  },
  context: {
    reads: 'the ranked registry, the last ended session and the observations of the past week',
    // Written to the file the recorder prints by the writer only (nextSessionContextSteps).
    forReaders: true,
    *steps(engine, options, result) {
      result.context = yield* nextSessionContextSteps(engine, options.mode);
    },
  },
} satisfies Record<string, DerivedView>;

export type DerivedViewName = keyof typeof DERIVED_VIEWS;

/** Bring every derived view (or `options.views`) up to date with what ingest wrote. */
export function* afterIngest(
  engine: DerivedViewsProject,
  options: AfterIngestOptions,
): Steps<AfterIngestResult> {
  const result: AfterIngestResult = { discovered: noDiscovery(), folded: 0 };
  const writer = engine.role === 'writer';
  const names = (Object.keys(DERIVED_VIEWS) as DerivedViewName[]).filter(
    (name) =>
      (options.views?.includes(name) ?? true) &&
      (writer || (DERIVED_VIEWS[name] as DerivedView).forReaders === true),
  );
  for (const [index, name] of names.entries()) {
    if (options.stopped?.()) break;
    if (index > 0) yield;
    yield* (DERIVED_VIEWS[name] as DerivedView).steps(engine, options, result);
  }
  return result;
}

/** The registry's reading of new calls, a slice per step. */
function* discoverySteps(engine: DerivedViewsProject, stopped?: () => boolean): Steps<DiscoveryResult> {
  const total = noDiscovery();
  if (engine.role !== 'writer') return total;
  for (;;) {
    const slice = discoverFromUse(engine, DISCOVERY_SLICE_CALLS);
    total.calls += slice.calls;
    total.added.push(...slice.added);
    total.demoted.push(...slice.demoted);
    total.recovered.push(...slice.recovered);
    if (!slice.more || stopped?.()) return total;
    yield;
  }
}

/**
 * The views as far as the fold, run at once every FOLD_EVERY_BYTES of log a long ingest reads (the CLI, the
 * catch-up process): the database never holds all the older detail at once, and the pages it freed are
 * used again by what is read next. (The host counts its chunks and runs the same views in steps.)
 */
export class FoldAsRead {
  /** Rows of older history folded so far. */
  folded = 0;
  private doneBytes = 0;
  private foldedAtBytes = 0;

  constructor(
    private readonly engine: DerivedViewsProject,
    private readonly detailDays: number,
  ) {}

  /** The ingest's progress: how far it has read. */
  read(doneBytes: number): void {
    this.doneBytes = doneBytes;
  }

  /** After a chunk: fold when another FOLD_EVERY_BYTES have been read since the last fold. */
  afterChunk(): void {
    if (this.doneBytes - this.foldedAtBytes >= FOLD_EVERY_BYTES) this.fold();
  }

  fold(): void {
    const views = ['registry', 'history'] as const;
    this.folded += runAtOnce(
      afterIngest(this.engine, { detailDays: this.detailDays, newHistory: true, views }),
    ).folded;
    this.foldedAtBytes = this.doneBytes;
  }
}

/**
 * The next session's context, a query per step; the writer also writes it to the file the recorder prints
 * at the next SessionStart. The host runs it on its own too, after a quiet moment (ingests come in bursts).
 */
function* nextSessionContextSteps(engine: DerivedViewsProject, mode?: SelectionMode): Steps<SessionContext> {
  const context = yield* sessionContextSteps(engine, { now: Date.now(), mode });
  if (engine.role === 'writer') writeSessionContext(engine, context);
  return context;
}

function noDiscovery(): DiscoveryResult {
  return { calls: 0, added: [], demoted: [], recovered: [], more: false };
}
