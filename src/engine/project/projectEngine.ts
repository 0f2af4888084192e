import { relabelAgentNotes } from '../log/agentNoteLabels';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Database } from 'sql.js';
import type { ProjectStore } from '../storage/projectStore';
import type { IngestCounts, RejectView, Role } from '../../shared/ingest';
import type { AgentId } from '../../shared/agents';
import { bundledScript } from '../kernel/bundledScript';
import {
  type CatchUpOptions,
  type CatchUpResult,
  type ChildProgress,
  type ChildWork,
  type ImportInChildOptions,
  type ImportInChildResult,
  runChildJob,
} from './catchUp';
import { COMPACTED_PROMPTS, compactHistory, detailCutoff } from '../history/compaction';
import { eventCount, eventsByAgent, lastEventReceivedAt } from '../log/eventCounters';
import { type IngestOptions, type IngestResult, Ingestor } from '../log/ingest';
import { drainSpool } from '../log/spool';

import { eventsDir, projectStateDir } from '../kernel/paths';
import { type ProjectIdentity, identifyProject } from '../kernel/projectIdentity';
import { ProjectSessions } from '../memory/sessions';
import { type Router, type Routes, routerFor } from '../log/routing';
import { ProjectMemory } from '../memory/projectMemory';
import { catchUpSearchIndex } from '../memory/searchIndex/indexWrites';
import { counterValue } from '../storage/counters';
import { migrateInSteps } from '../storage/schema';
import { recoverPages, saveInProgress, savePages } from '../storage/pageSave';
import { makePrivateDir } from '../kernel/privateFiles';
import { setAside } from '../storage/snapshot';
import { integrityOf, readShared } from '../storage/snapshotCheck';
import { loadSqlJs, warmUpSqlJs } from '../kernel/sqlJs';
import { Store } from '../storage/store';
import {
  type ActiveSession,
  type ActiveSessionOptions,
  findActiveSession,
  sessionFileOf,
} from '../live/activeSession';
import {
  countSessionFiles,
  importTranscripts,
  type TranscriptImportOptions,
  type TranscriptImportResult,
} from '../transcripts/importTranscripts';
import { ProjectTools } from '../registry/projectTools';
import { ProjectContext } from '../context/projectContext';
import { ProjectAdvice } from '../pruning/projectAdvice';
import { runAtOnce, runInSteps, type Steps } from '../kernel/steps';
import { yieldToHost } from '../kernel/yieldToHost';
import {
  type HeldLock,
  type LockOwner,
  lockHolder,
  requestSave,
  saveIfRequested,
  tryAcquireLock,
} from '../storage/writerLock';
import { type AfterIngestOptions, type AfterIngestResult, afterIngest, FoldAsRead } from './derivedViews';
import { type ViewRunner, ViewScheduler } from './viewScheduler';

/** Spool files redacted into the log between two yields to the host (about 0.5 ms each). */
const DRAIN_BATCH = 200;

export interface RebuildResult extends IngestResult {
  /** Transcript files imported before the rebuild and imported again after it. */
  transcriptFilesImported: number;
}

export interface OpenProjectOptions {
  home: string;
  folder: string;
  /** Other open roots nested inside this one: their events belong to them, not to this project. */
  excludeRoots?: string[];
  /** `auto` takes the writer lock when free and follows read-only otherwise. */
  role?: Role | 'auto';
  /**
   * Write under the lock the host holds, without taking it: the process that catches up for the host's
   * engine (catchUp.ts). The host saves nothing meanwhile and adopts what that process saved.
   */
  borrowedLock?: boolean;
  /** Shown to other processes that find the lock taken. */
  purpose?: string;
  /** Quiet time after a change before the snapshot is written. */
  saveDebounceMs?: number;
  /** Longest a change waits for a save under continuous activity. */
  saveMaxDelayMs?: number;
  /**
   * When the user last typed or moved the cursor (the host's editor events). A save holds the thread while
   * sql.js copies the database out (about 1 ms per MB), so a save that is due waits for a pause in typing.
   */
  lastInputAt?: () => number;
  now?: () => number;
  /**
   * The script of the worker that parses large backlogs; by default the bundled one beside this bundle,
   * none when running from source. `null`: always parse inline.
   */
  parseWorkerFile?: string | null;
  /** After each snapshot save: its size, the time the database took to copy out (the thread waits that long), and in all. */
  onSaved?: (save: { bytes: number; writtenBytes: number; exportMs: number; totalMs: number }) => void;
}

export const SNAPSHOT_FILE = 'db.sqlite';
/** The shortest detail window: the session-start context reads a week back. */
const MIN_DETAIL_DAYS = 7;
export const LOCK_FILE = 'writer.lock';
/** A due save waits until the user has not typed for this long... */
export const TYPING_PAUSE_MS = 1000;
/** ...unless the change has waited this long (the event log keeps it meanwhile: nothing is lost). */
const TYPING_SAVE_MAX_DELAY_MS = 60_000;

/** One project's database: the single writer ingests the event log; readers follow its snapshots. */
export class ProjectEngine implements ProjectStore {
  readonly warnings: string[] = [];
  private saveTimer: NodeJS.Timeout | undefined;
  private firstUnsavedAt: number | undefined;
  private saving: Promise<void> | undefined;
  private dirty = false;
  private loadedSnapshotStamp = '';
  private closed = false;
  /** Ingests running: scheduled saves wait for them. */
  private ingesting = 0;
  /** The cutoff of the last fold of old history: until the next day, folding again finds nothing new. */
  private foldedBefore = 0;
  private listeners = new Set<() => void>();

  private constructor(
    readonly identity: ProjectIdentity,
    readonly home: string,
    private currentStore: Store,
    private lock: HeldLock | undefined,
    private readonly options: OpenProjectOptions,
  ) {
    this.belongsHere = routerFor(this.routes);
    this.parseWorkerFile =
      options.parseWorkerFile === undefined
        ? bundledScript('parseWorker.js')
        : (options.parseWorkerFile ?? undefined);
  }

  static async open(options: OpenProjectOptions): Promise<ProjectEngine> {
    const identity = identifyProject(options.folder);
    const stateDir = projectStateDir(options.home, identity.id);
    makePrivateDir(stateDir);
    makePrivateDir(eventsDir(options.home));
    const wantsWriter = (options.role ?? 'auto') !== 'reader';
    const lockPath = path.join(stateDir, LOCK_FILE);
    const lock = !wantsWriter
      ? undefined
      : options.borrowedLock
        ? { path: lockPath, release: () => undefined }
        : tryAcquireLock(lockPath, options.purpose ?? `pid ${process.pid}`);
    if (options.role === 'writer' && !lock) {
      const holder = lockHolder(lockPath);
      throw new Error(
        `another process (${holder ? `${holder.purpose}, pid ${holder.pid}` : 'unknown'}) is writing project ${identity.name}`,
      );
    }
    if (lock && !options.borrowedLock) removeAbandonedTempFiles(stateDir);
    // Empty but of the current schema: what a reader shows until it can read a snapshot.
    const engine = new ProjectEngine(identity, options.home, await freshStore(), lock, options);
    try {
      await engine.loadSnapshot();
    } catch (error) {
      // Whatever stopped the open (a snapshot that cannot even be set aside) must not keep the lock.
      engine.closed = true;
      engine.lock?.release();
      engine.currentStore.close();
      throw error;
    }
    return engine;
  }

  /**
   * sql.js's first statements compiled on a worker (`workerFile`) before a project opens: the first open
   * waits for it (see warmUpSqlJs). Resolves whether it did.
   */
  static warmUp(workerFile: string): Promise<boolean> {
    return warmUpSqlJs(workerFile);
  }

  get role(): Role {
    return this.lock ? 'writer' : 'reader';
  }

  get snapshotPath(): string {
    return path.join(projectStateDir(this.home, this.identity.id), SNAPSHOT_FILE);
  }

  get lockPath(): string {
    return path.join(projectStateDir(this.home, this.identity.id), LOCK_FILE);
  }

  get eventsDir(): string {
    return eventsDir(this.home);
  }

  /** The raw database, for engine modules that query it. */
  get store(): Store {
    return this.currentStore;
  }

  /** The memory's reads (search, timeline, one observation), for callers outside the engine. */
  readonly memory = new ProjectMemory(
    () => this.currentStore,
    () => ({ home: this.home, root: this.identity.mainRoot }),
  );
  /** What the sessions table says (how many, the latest model, each one's agent), for callers outside the engine. */
  readonly sessions = new ProjectSessions(() => this.currentStore);
  /** The tool registry: the config scan applied, tools discovered from use, the ranking. */
  readonly tools = new ProjectTools(this);
  /** What the next session starts with: assembled, written where the recorder prints it. */
  readonly context = new ProjectContext(this);
  /** The user's pinned and dismissed pruning advice. */
  readonly advice = new ProjectAdvice(this);

  /** The agents' past sessions imported into this project (the writer only; see transcripts/importTranscripts.ts). */
  importTranscripts(options?: TranscriptImportOptions): Promise<TranscriptImportResult> {
    return importTranscripts(this, options);
  }

  /** The agents' session files of this project's roots, for the offer to import them. */
  countSessionFiles(): number {
    return countSessionFiles(this.identity.roots);
  }

  /** The derived views kept up to date over time by a runner (the extension host's timers, queue and settings). */
  scheduleViews(runner: ViewRunner): ViewScheduler {
    return new ViewScheduler(this, runner);
  }

  /** Every derived view (or `options.views`) brought up to date at once, as the CLI does after an ingest. */
  refreshViews(options: AfterIngestOptions): AfterIngestResult {
    return runAtOnce(afterIngest(this, options));
  }

  /** Folds older detail as a long ingest reads, as the extension does (derivedViews.ts). */
  foldAsRead(detailDays: number): FoldAsRead {
    return new FoldAsRead(this, detailDays);
  }

  /** The process holding the writer lock, if any. */
  writer(): LockOwner | undefined {
    return lockHolder(this.lockPath);
  }

  /** A follower asks the writer to save soon, to see its own change in the next snapshot. */
  requestSave(): void {
    requestSave(this.lockPath);
  }

  /** The writer's side: save now if a follower asked; resolves to whether it did. */
  saveIfRequested(): Promise<boolean> {
    return saveIfRequested(this);
  }

  /** The session whose context the live gauge shows (see findActiveSession). */
  activeSession(options: ActiveSessionOptions = {}): ActiveSession | undefined {
    return findActiveSession(this.currentStore, this.identity.mainRoot, options);
  }

  /** The file of one of this project's sessions, as its agent's hooks name it (undefined if none is found). */
  sessionFileOf(agent: AgentId, sessionId: string): string | undefined {
    return sessionFileOf(agent, this.identity.mainRoot, sessionId);
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emitChange(): void {
    for (const listener of this.listeners) listener();
  }

  /** Which working directories' events belong here (nearest open root wins). */
  get routes(): Routes {
    return { roots: this.identity.roots, excludeRoots: this.options.excludeRoots ?? [] };
  }

  /** Whether an event's working directory belongs here. */
  readonly belongsHere: Router;

  /** Where the parse worker's script is, looked up once: ingestion runs at every append. */
  private readonly parseWorkerFile: string | undefined;

  private snapshotStamp(): string {
    try {
      const stat = fs.statSync(this.snapshotPath);
      return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    } catch {
      return '';
    }
  }

  /**
   * Open the saved snapshot, or start empty. A snapshot that won't open or fails its integrity check is set
   * aside; as a writer the database is then rebuilt from the log, which is the truth.
   */
  private async loadSnapshot(): Promise<boolean> {
    if (this.role === 'writer') {
      const recovered = await recoverPages(this.snapshotPath);
      if (recovered === 'replayed') this.warnings.push('The last save had been cut short: it was completed.');
    }
    const stamp = this.snapshotStamp();
    // A folder, an unreadable file: judged below like a damaged snapshot.
    const read = await readShared(this.snapshotPath).catch((error: Error) => error);
    // The writer saves pages in place: a read that overlapped a save is not trusted; the next look reads again.
    if (this.role === 'reader' && (saveInProgress(this.snapshotPath) || this.snapshotStamp() !== stamp))
      return false;
    if (read !== undefined) {
      const SQL = await loadSqlJs();
      let candidate: Database | undefined;
      try {
        if (read instanceof Error) throw read;
        // Snapshots are renamed into place whole, never created empty: an empty file holds no history.
        if (read.length === 0) throw new Error('the file is empty');
        const bytes = read;
        // Off this thread (storage/snapshotCheck.ts): it reads every page.
        const { verdict } = await integrityOf(bytes);
        if (verdict !== 'ok') throw new Error(`integrity check says: ${verdict}`);
        if (this.closed) return false;
        candidate = new SQL.Database(bytes);
        // A statement at a time: a new version's indexes over a year of history took 207 ms at once.
        await migrateInSteps(candidate, yieldToHost);
        if (this.closed) {
          candidate.close();
          return false;
        }
        const store = new Store(candidate);
        // What was kept before the search index existed is indexed now, a slice per task.
        const indexed = await runInSteps(catchUpSearchIndex(store), yieldToHost);
        if (this.closed) {
          candidate.close();
          return false;
        }
        this.replaceStore(store);
        this.loadedSnapshotStamp = stamp;
        if (indexed > 0 && this.role === 'writer') this.markDirty();
        return true;
      } catch (error) {
        candidate?.close();
        if (this.role === 'reader') {
          // The writer owns the file; a reader only reports and waits for the next good snapshot.
          this.warnings.push(
            `The database snapshot could not be read (${(error as Error).message}); waiting for the writer.`,
          );
          this.replaceStore(await freshStore());
          return true;
        }
        const aside = setAside(this.snapshotPath);
        this.warnings.push(
          `The database snapshot was damaged (${(error as Error).message}). It was moved to ${aside} and the database is being rebuilt from the event log; history imported from agents' session files comes back with "Import Agent History".`,
        );
      }
    }
    this.replaceStore(await freshStore());
    this.loadedSnapshotStamp = stamp;
    return true;
  }

  private replaceStore(store: Store): void {
    if (store === this.currentStore) return;
    this.currentStore.close();
    this.currentStore = store;
    this.foldedBefore = 0;
  }

  /** Read new lines of the event log. Only the writer ingests; a reader gets an empty result. */
  async ingest(options: IngestOptions = {}): Promise<IngestResult> {
    if (this.role !== 'writer' || this.closed)
      return { events: 0, rejected: 0, foreign: 0, bytes: 0, rewritten: [], skipped: [], workerChunks: 0 };
    const ingestor = new Ingestor(
      this.currentStore,
      this.eventsDir,
      this.routes,
      this.options.now,
      this.parseWorkerFile,
    );
    this.ingesting++;
    try {
      // Payloads the hooks spooled become log lines first, redacted (whichever project's ingest comes first).
      while (drainSpool(this.home, { now: this.options.now?.(), limit: DRAIN_BATCH }).more)
        await yieldToHost();
      const result = await ingestor.ingestAll(options);
      const relabelled = await relabelAgentNotes(() => this.currentStore, this.eventsDir);
      if (result.bytes > 0 || result.rewritten.length > 0 || relabelled > 0) {
        this.markDirty();
        this.emitChange();
      }
      return result;
    } finally {
      this.ingesting--;
      // Changes made during the catch-up (a fold) waited for its end.
      if (this.dirty) this.scheduleSave();
    }
  }

  /**
   * Fold detail older than `detailDays` (at least a week: the session-start context reads that far) into
   * what the views read of it (history/compaction.ts), a slice per task. Does nothing unless the window moved
   * (a new day) since the last fold, or `newHistory` says older detail may have come in (a catch-up, an
   * import). Returns the rows folded.
   */
  foldOldHistory(detailDays: number, newHistory = false): Promise<number> {
    return runInSteps(this.foldSteps(detailDays, newHistory));
  }

  /** `foldOldHistory` as steps, a slice each (project/derivedViews.ts runs it at once or in steps). */
  *foldSteps(detailDays: number, newHistory = false): Steps<number> {
    if (this.role !== 'writer' || this.closed) return 0;
    const before = this.detailCutoff(detailDays);
    if (!newHistory && before <= this.foldedBefore) return 0;
    let rows = 0;
    for (;;) {
      const slice = compactHistory(this.currentStore, before);
      rows += slice.rows;
      if (!slice.more || this.closed) break;
      yield;
    }
    this.foldedBefore = before;
    if (rows > 0) this.noteExternalChange();
    return rows;
  }

  /** Where detail older than the window (at least a week) begins to be folded, as of now. */
  private detailCutoff(detailDays: number): number {
    return detailCutoff(this.now(), Math.max(MIN_DETAIL_DAYS, detailDays));
  }

  /**
   * `ingest`, or `rebuild` (`options.rebuild`), with the folding of old detail on the way, in a child process
   * (catchUp.ts) so that neither this thread nor this process's memory bears it. The child opens the snapshot
   * under this writer's lock, so anything unsaved here is saved first; this engine saves nothing until it
   * has read back what the child saved. The caller makes sure nothing else writes the database meanwhile
   * (the host's queue).
   */
  async catchUp(script: string, options: CatchUpOptions): Promise<CatchUpResult> {
    // The child folds what it read up to its end: from here on, the window as it is now is folded.
    const foldedBefore = this.detailCutoff(options.detailDays);
    const result = await this.inChild(
      script,
      {
        kind: 'catch-up',
        rebuild: options.rebuild ?? false,
        detailDays: options.detailDays,
        chunkBytes: options.chunkBytes,
      },
      {
        signal: options.signal,
        onReport: (report) => options.onProgress?.(report.progress, report.counts),
      },
    );
    this.foldedBefore = Math.max(this.foldedBefore, foldedBefore);
    return result;
  }

  /**
   * `importTranscripts` in the child process, as `catchUp` reads a backlog: a session file that is huge,
   * a bomb or damaged costs that process's memory and time, never this thread's, and one that breaks it
   * leaves this database as it was.
   */
  importInChild(script: string, options: ImportInChildOptions = {}): Promise<ImportInChildResult> {
    return this.inChild(
      script,
      { kind: 'import' },
      { signal: options.signal, onReport: (report) => options.onProgress?.(report.progress) },
    );
  }

  /**
   * A job run on this project's database by the child process (catchUp.ts). The child opens the snapshot
   * under this writer's lock, so anything unsaved here is saved first; this engine saves nothing until it
   * has read back what the child saved. The caller makes sure nothing else writes the database meanwhile
   * (the host's queue).
   */
  private async inChild<Kind extends ChildWork['kind']>(
    script: string,
    work: Extract<ChildWork, { kind: Kind }>,
    options: { signal?: AbortSignal; onReport?: (report: ChildProgress<Kind>) => void },
  ) {
    if (this.role !== 'writer' || this.closed) throw new Error('only the writer works on the database');
    this.ingesting++;
    try {
      await this.save();
      const result = await runChildJob(
        script,
        { home: this.home, folder: this.options.folder, excludeRoots: this.options.excludeRoots ?? [], work },
        options,
      );
      // Read off this thread; a log with nothing of this project leaves no snapshot to read.
      const image = await fs.promises.readFile(this.snapshotPath).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (image) await this.adoptImage(image);
      return result;
    } finally {
      this.ingesting--;
    }
  }

  /** Unread bytes of the log for this project, to decide whether a catch-up deserves a progress bar. */
  pendingBytes(): number {
    return new Ingestor(this.currentStore, this.eventsDir, this.routes).pendingBytes();
  }

  /**
   * Throw the database away and read the whole log again. Imported transcripts are not in the log, so the
   * ones imported before (and still on disk) are imported again.
   */
  async rebuild(options: IngestOptions = {}): Promise<RebuildResult> {
    if (this.role !== 'writer') throw new Error('only the window that writes this project can rebuild it');
    const transcripts = this.currentStore
      .all<{ path: string }>('SELECT path FROM transcript_files ORDER BY path')
      .map((row) => row.path)
      .filter((file) => fs.existsSync(file));
    this.replaceStore(await freshStore());
    this.markDirty();
    const result = await this.ingest(options);
    if (transcripts.length === 0 || options.signal?.aborted) return { ...result, transcriptFilesImported: 0 };
    const imported = await importTranscripts(this, { paths: transcripts, signal: options.signal });
    return { ...result, transcriptFilesImported: imported.files };
  }

  counts(): IngestCounts {
    const db = this.currentStore;
    return {
      events: eventCount(db),
      rejected: db.number('SELECT count(*) FROM rejects'),
      sessions: db.number('SELECT count(*) FROM sessions'),
      // Detail older than the window is counted per day (history/compaction.ts).
      toolCalls:
        db.number('SELECT count(*) FROM tool_calls') +
        db.number('SELECT coalesce(sum(calls), 0) FROM tool_days'),
      toolFailures:
        db.number('SELECT count(*) FROM tool_calls WHERE success = 0') +
        db.number('SELECT coalesce(sum(failures), 0) FROM tool_days'),
      prompts: db.number('SELECT count(*) FROM prompts') + counterValue(db, COMPACTED_PROMPTS),
      agents: eventsByAgent(db),
      dbBytes: this.snapshotBytes(),
    };
  }

  /** The saved snapshot's size on disk. */
  snapshotBytes(): number {
    try {
      return fs.statSync(this.snapshotPath).size;
    } catch {
      return 0;
    }
  }

  lastEventAt(): number | null {
    return lastEventReceivedAt(this.currentStore);
  }

  rejects(limit = 200): RejectView[] {
    return this.currentStore
      .all(
        `SELECT f.path AS file, r.offset, r.reason, r.sample, r.rejected_at
         FROM rejects r JOIN log_files f ON f.id = r.file_id ORDER BY r.id DESC LIMIT ?`,
        [limit],
      )
      .map((row) => ({
        file: String(row.file),
        offset: Number(row.offset),
        reason: String(row.reason),
        sample: String(row.sample),
        rejectedAt: Number(row.rejected_at),
      }));
  }

  /** Another engine module wrote rows (e.g. a transcript import): schedule a save and tell listeners. */
  now(): number {
    return (this.options.now ?? Date.now)();
  }

  noteExternalChange(): void {
    this.markDirty();
    this.emitChange();
  }

  private markDirty(): void {
    this.dirty = true;
    this.firstUnsavedAt ??= Date.now();
    this.scheduleSave();
  }

  private scheduleSave(delayMs?: number): void {
    if (this.closed) return;
    const debounce = this.options.saveDebounceMs ?? 1500;
    const maxDelay = this.options.saveMaxDelayMs ?? 10_000;
    const waited = Date.now() - (this.firstUnsavedAt ?? Date.now());
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(
      () => this.saveWhenQuiet(),
      delayMs ?? Math.max(0, Math.min(debounce, maxDelay - waited)),
    );
  }

  /** A save copies the whole database in one task: not while a catch-up runs (its end saves), nor mid-typing. */
  private saveWhenQuiet(): void {
    if (this.ingesting > 0) return;
    const typedAgo = Date.now() - (this.options.lastInputAt?.() ?? 0);
    const waited = Date.now() - (this.firstUnsavedAt ?? Date.now());
    if (typedAgo < TYPING_PAUSE_MS && waited < TYPING_SAVE_MAX_DELAY_MS) {
      this.scheduleSave(TYPING_PAUSE_MS - typedAgo);
      return;
    }
    void this.save().catch(() => undefined);
  }

  /**
   * Take the database the catch-up process saved under this writer's lock (catchUp.ts) in place of this one.
   * Nothing here changed meanwhile: the host queues its database work behind a catch-up and saves are held.
   */
  private async adoptImage(image: Buffer): Promise<void> {
    const SQL = await loadSqlJs();
    // sql.js copies a Uint8Array into its file system (30-40 ms at 57 MB, on this thread) but takes a Buffer's
    // memory as it is.
    this.replaceStore(new Store(new SQL.Database(image)));
    clearTimeout(this.saveTimer);
    this.dirty = false;
    this.firstUnsavedAt = undefined;
    this.loadedSnapshotStamp = this.snapshotStamp();
    this.emitChange();
  }

  /** Write the snapshot now if anything changed: only its changed pages, through a journal (storage/pageSave.ts). */
  async save(): Promise<void> {
    clearTimeout(this.saveTimer);
    if (this.role !== 'writer' || this.closed) return;
    while (this.saving) await this.saving;
    if (!this.dirty) return;
    this.dirty = false;
    this.firstUnsavedAt = undefined;
    const exportStarted = performance.now();
    const bytes = this.currentStore.export();
    const exportMs = performance.now() - exportStarted;
    const saving = savePages(this.snapshotPath, bytes).finally(() => {
      this.saving = undefined;
    });
    this.saving = saving.then(
      () => undefined,
      () => undefined,
    );
    try {
      const { writtenBytes } = await saving;
      this.options.onSaved?.({
        bytes: bytes.length,
        writtenBytes,
        exportMs,
        totalMs: performance.now() - exportStarted,
      });
      this.loadedSnapshotStamp = this.snapshotStamp();
      this.emitChange();
    } catch (error) {
      this.dirty = true;
      throw error;
    }
  }

  /** A reader reloads when the writer saved a new snapshot; returns whether it did. */
  async reloadIfChanged(): Promise<boolean> {
    if (this.role !== 'reader' || this.closed) return false;
    const stamp = this.snapshotStamp();
    if (stamp === this.loadedSnapshotStamp) return false;
    // A save still being written: the next look reads it.
    if (!(await this.loadSnapshot())) return false;
    this.emitChange();
    return true;
  }

  /** A reader takes over writing when the writer has gone (its window closed or crashed). */
  async tryPromote(): Promise<boolean> {
    if (this.role === 'writer' || this.closed) return false;
    const lock = tryAcquireLock(this.lockPath, this.options.purpose ?? `pid ${process.pid}`);
    if (!lock) return false;
    this.lock = lock;
    this.loadedSnapshotStamp = '';
    await this.loadSnapshot();
    this.emitChange();
    return true;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.save();
    } finally {
      this.closed = true;
      clearTimeout(this.saveTimer);
      this.lock?.release();
      this.lock = undefined;
      this.currentStore.close();
      this.listeners.clear();
    }
  }
}

/** A writer killed while saving leaves its temp file; only the lock holder saves, so any found are dead. */
function removeAbandonedTempFiles(stateDir: string): void {
  for (const name of fs.readdirSync(stateDir)) {
    if (name.startsWith(`${SNAPSHOT_FILE}.tmp-`)) fs.rmSync(path.join(stateDir, name), { force: true });
  }
}

async function newDatabase(): Promise<Database> {
  const SQL = await loadSqlJs();
  return new SQL.Database();
}

async function freshStore(): Promise<Store> {
  // A task each for opening, the settings and every statement of the schema: sql.js compiles its code as it
  // first runs, and the first three as one task held the extension host 55-130 ms.
  const db = await newDatabase();
  await yieldToHost();
  // Store sets the page size, which only an empty database takes: before the schema.
  const store = new Store(db);
  await yieldToHost();
  await migrateInSteps(store.db, yieldToHost);
  return store;
}
