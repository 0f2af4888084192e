import {
  type AgentSessionFile,
  findAgentSessionFiles,
  importAgentSessions,
  sessionFileOwner,
  unreadable,
} from './agentSessionImport';
import * as fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import type { IngestProgress } from '../../shared/ingest';
import type { ProjectStore } from '../storage/projectStore';
import { LineReader, stillHolds } from '../kernel/appendedLines';
import { TRANSCRIPT_ADAPTERS } from '../agents';
import type { TranscriptAdapter } from '../agents/adapter';
import { endIdleImportedSessions } from '../log/sessionRows';
import { noRows, type RowCounts } from './importedActivity';
import { writeChunkActivity } from './sessionItemRows';
import type { TranscriptChunk, TranscriptChunks, TranscriptFileRequest } from './transcriptChunks';
import { type TranscriptReader, inlineTranscriptReader, workerTranscriptReader } from './transcriptReaders';
import { bundledScript } from '../kernel/bundledScript';
import { yieldToHost } from '../kernel/yieldToHost';

/** Bytes per transaction: about 40 ms of work, so the host stays responsive between chunks. */
const DEFAULT_TRANSCRIPT_CHUNK_BYTES = 4 * 1024 * 1024;
/** An import of this many chunks or more is read on the transcript worker; less is not worth starting one. */
const WORKER_MIN_CHUNKS = 3;
/** How far into a file its recorded cwd and session are looked for (without a cwd it is nobody's). */
const HEAD_SEARCH_BYTES = 4 * 1024 * 1024;
/**
 * A transcript records no end. A session whose last line is older than this has ended at that line: no
 * tool runs longer (Bash stops a command after at most 10 minutes) and a session resumed later is opened
 * again by the import that reads its new lines.
 */
const IDLE_SESSION_MS = 30 * 60_000;
/** `end_reason` of a session taken to have ended at its last line (hooks record Claude Code's own reasons). */
const IDLE_END_REASON = 'idle';

export interface TranscriptImportOptions {
  /**
   * Session files or folders (searched for transcripts) to import into this project whatever cwd they
   * record. Without them, the agents' own folders are searched and files are routed by recorded cwd.
   */
  paths?: readonly string[];
  /**
   * The data folder to search for message transcripts instead of the agents' own (Claude Code's default:
   * `CLAUDE_CONFIG_DIR`, else `~/.claude`); with it, no other agent's files are searched.
   */
  transcriptsDir?: string;
  /** Read every file from its start again (nothing is counted twice either way). */
  force?: boolean;
  chunkBytes?: number;
  /**
   * The transcript worker's script, which reads large imports off this thread: by default the one bundled
   * beside this code, if any; null reads on this thread.
   */
  workerFile?: string | null;
  onProgress?: (progress: TranscriptImportProgress) => void;
  signal?: AbortSignal;
}

export interface TranscriptImportProgress extends IngestProgress {
  doneFiles: number;
  totalFiles: number;
  /** The file being read. */
  file: string;
}

export interface TranscriptImportResult extends RowCounts {
  /** Files with new bytes that were read. */
  files: number;
  /** Files unchanged since the last import. */
  skippedFiles: number;
  /** Files found that belong to another project (by recorded cwd) or record none. */
  foreignFiles: number;
  /**
   * Files not imported, each with why: a named file that is no agent's session file, and any file that
   * could not be read (too large, damaged, unreadable). Every other file is imported all the same.
   */
  problems: string[];
  /** Lines of message transcripts read. */
  lines: number;
  /** Entries of other session files (rollouts, opencode's store, Cline's tasks), read as session items. */
  entries: number;
  malformed: number;
  bytes: number;
  /** The signal stopped the import; what was read until then is kept. */
  cancelled: boolean;
  /** Chunks read on the transcript worker (large imports); the rest were read inline. */
  workerChunks: number;
}

interface Source {
  file: string;
  /** The agent whose transcript it is. */
  adapter: TranscriptAdapter;
  /** Named explicitly: imported whatever cwd it records. */
  forced: boolean;
}

interface FileProgressRow {
  size: number;
  mtime_ms: number;
  offset: number;
  head_hash: string;
  tail_hash: string;
  cwd: string | null;
  [column: string]: number | string | null;
}

interface Plan {
  file: string;
  adapter: TranscriptAdapter;
  size: number;
  mtimeMs: number;
  start: number;
  cwd: string | null;
  /** The first session id its lines record: a renamed file's session is not its name. */
  recordedSession?: string;
}

/** Named files as they are, named folders searched for each agent's transcripts; a missing path is an error. */
function namedFiles(paths: readonly string[]): string[] {
  return paths.flatMap((named) => {
    const full = path.resolve(named);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(full);
    } catch {
      throw new Error(`transcript path not found: ${named}`);
    }
    if (!stat.isDirectory()) return [full];
    return [...new Set(TRANSCRIPT_ADAPTERS.flatMap((adapter) => adapter.transcripts.list(full)))];
  });
}

function emptyResult(): TranscriptImportResult {
  return {
    files: 0,
    skippedFiles: 0,
    foreignFiles: 0,
    problems: [],
    lines: 0,
    entries: 0,
    malformed: 0,
    bytes: 0,
    ...noRows(),
    cancelled: false,
    workerChunks: 0,
  };
}

/**
 * Imports the agents' past sessions into a project's database: tool calls (with failures), prompts,
 * sessions and the observations hook events of the same activity would give. A message transcript's read
 * offset is committed with the rows read up to it, one transaction per chunk, so an interrupted import
 * resumes where it stopped and a grown file is read from where it ended; other session files are read
 * whole when they changed (agentSessionImport.ts).
 */
export async function importTranscripts(
  engine: ProjectStore,
  options: TranscriptImportOptions = {},
): Promise<TranscriptImportResult> {
  if (engine.role !== 'writer')
    throw new Error('only the process that writes this project can import transcripts');
  let sources: Source[];
  let agentFiles: AgentSessionFile[];
  const problems: string[] = [];
  if (options.paths?.length) {
    // Named files are told apart by their content.
    sources = [];
    agentFiles = [];
    for (const file of namedFiles(options.paths)) {
      const owner = sessionFileOwner(file);
      if (owner.adapter === undefined) problems.push(owner.problem);
      else if (owner.as === 'items') agentFiles.push({ file, adapter: owner.adapter });
      else sources.push({ file, adapter: owner.adapter, forced: true });
    }
  } else {
    sources = TRANSCRIPT_ADAPTERS.flatMap((adapter) =>
      adapter.transcripts
        .find(engine.identity.roots, options.transcriptsDir)
        .map((file) => ({ file, adapter, forced: false })),
    );
    agentFiles = options.transcriptsDir ? [] : findAgentSessionFiles(engine.identity.roots);
  }
  const result = await new TranscriptImport(engine, options).run(sources);
  result.problems.unshift(...problems);
  if (!result.cancelled) {
    const others = await importAgentSessions(engine, agentFiles, options);
    result.problems.push(...others.problems);
    result.files += others.files;
    result.skippedFiles += others.skippedFiles;
    result.entries += others.entries;
    result.malformed += others.malformed;
    result.bytes += others.bytes;
    result.toolCalls += others.toolCalls;
    result.failures += others.failures;
    result.prompts += others.prompts;
    result.sessions += others.sessions;
  }
  const ended = endIdleSessions(engine, engine.now() - IDLE_SESSION_MS);
  if (result.files > 0 || ended > 0) engine.noteExternalChange();
  return result;
}

/** How many session files of every agent may belong to sessions run in `roots`, for offering an import. */
export function countSessionFiles(roots: readonly string[]): number {
  const transcripts = TRANSCRIPT_ADAPTERS.reduce(
    (sum, adapter) => sum + adapter.transcripts.find(roots).length,
    0,
  );
  return transcripts + findAgentSessionFiles(roots).length;
}

/** Imported sessions that stopped long enough ago end at their last line (log/sessionRows.ts). */
function endIdleSessions(engine: ProjectStore, before: number): number {
  return endIdleImportedSessions(engine.store, before, IDLE_END_REASON);
}

class TranscriptImport {
  private readonly result = emptyResult();
  /** Reads the files' first lines when the import plans what to read. */
  private readonly headReader = new LineReader();
  private readonly workerFile: string | undefined;
  private readonly chunkBytes: number;

  constructor(
    private readonly engine: ProjectStore,
    private readonly options: TranscriptImportOptions,
  ) {
    this.chunkBytes = options.chunkBytes ?? DEFAULT_TRANSCRIPT_CHUNK_BYTES;
    this.workerFile =
      options.workerFile === undefined
        ? bundledScript('transcriptWorker.js')
        : (options.workerFile ?? undefined);
  }

  async run(sources: readonly Source[]): Promise<TranscriptImportResult> {
    const plans: Plan[] = [];
    const seen = new Set<string>();
    for (const source of sources) {
      if (seen.has(source.file)) continue;
      seen.add(source.file);
      const plan = await this.plan(source);
      if (plan) plans.push(plan);
    }
    const progress: TranscriptImportProgress = {
      doneBytes: 0,
      totalBytes: plans.reduce((sum, plan) => sum + plan.size - plan.start, 0),
      doneFiles: 0,
      totalFiles: plans.length,
      file: '',
    };
    // Each file is opened and its first chunk read while the file before it is written: reading waits on
    // the disk (and, on the worker, parses), writing on this thread, and done in turn each waited for the other.
    const reader =
      this.workerFile && progress.totalBytes >= WORKER_MIN_CHUNKS * this.chunkBytes
        ? workerTranscriptReader(this.workerFile)
        : inlineTranscriptReader();
    const open = (plan: Plan) => openAhead(reader, this.request(plan));
    let next = plans.length > 0 ? open(plans[0]) : undefined;
    try {
      for (let index = 0; index < plans.length; index++) {
        const opening = next!;
        next = index + 1 < plans.length ? open(plans[index + 1]) : undefined;
        if (this.options.signal?.aborted) {
          await closeAhead(opening);
          break;
        }
        const plan = plans[index];
        progress.file = plan.file;
        try {
          await this.importFile(plan, await opening, progress);
        } catch (error) {
          // What was read of it is kept (each chunk commits with its offset); the next file is read all the same.
          this.result.problems.push(unreadable(plan.file, error));
        }
        progress.doneFiles++;
      }
    } finally {
      if (next) await closeAhead(next);
      this.result.workerChunks = reader.workerChunks;
      await reader.close();
    }
    this.result.cancelled = this.options.signal?.aborted === true;
    return this.result;
  }

  /** Where to start reading a file, or undefined when it is unchanged or not this project's. */
  private async plan(source: Source): Promise<Plan | undefined> {
    let handle: FileHandle;
    try {
      handle = await fs.promises.open(source.file, 'r');
    } catch {
      return undefined;
    }
    try {
      const force = this.options.force === true;
      const stat = await handle.stat();
      const row = this.engine.store.get<FileProgressRow>('SELECT * FROM transcript_files WHERE path = ?', [
        source.file,
      ]);
      if (row && !force && row.size === stat.size && row.mtime_ms === stat.mtimeMs) {
        this.result.skippedFiles++;
        return undefined;
      }
      const recorded = await this.recordedHead(handle, source.adapter);
      const cwd = row?.cwd ?? recorded.cwd ?? null;
      if (!source.forced && (cwd === null || !this.engine.belongsHere(cwd))) {
        this.result.foreignFiles++;
        return undefined;
      }
      // A file that no longer holds what was read (truncated, replaced) is read again from its start.
      const resume =
        row &&
        !force &&
        row.offset > 0 &&
        (await stillHolds(handle, stat.size, row.offset, { head: row.head_hash, tail: row.tail_hash }));
      return {
        file: source.file,
        adapter: source.adapter,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        start: resume ? row.offset : 0,
        cwd,
        recordedSession: recorded.sessionId,
      };
    } finally {
      await handle.close();
    }
  }

  /** The first cwd and session id the transcript records (its first lines may be summaries or snapshots). */
  private async recordedHead(
    handle: FileHandle,
    adapter: TranscriptAdapter,
  ): Promise<{ cwd?: string; sessionId?: string }> {
    const head: { cwd?: string; sessionId?: string } = {};
    for (let offset = 0; offset < HEAD_SEARCH_BYTES;) {
      const chunk = await this.headReader.read(handle, offset, 64 * 1024);
      if (!chunk) return head;
      if (chunk.kind === 'lines') {
        for (const line of chunk.lines) {
          if (!line.includes('"cwd"') && !line.includes('"sessionId"')) continue;
          const parsed = adapter.transcripts.parseLine(line);
          if (!parsed.ok) continue;
          head.cwd ??= parsed.entry.cwd;
          head.sessionId ??= parsed.entry.sessionId;
          if (head.cwd !== undefined && head.sessionId !== undefined) return head;
        }
      }
      offset += chunk.length;
    }
    return head;
  }

  /** What the reader of `plan`'s file needs: plain data, as it may go to the transcript worker. */
  private request(plan: Plan): TranscriptFileRequest {
    const byPath = plan.adapter.transcripts.sessionOf(plan.file);
    const { subagent } = byPath;
    return {
      file: plan.file,
      agent: plan.adapter.id,
      start: plan.start,
      chunkBytes: this.chunkBytes,
      context: {
        sessionId: plan.recordedSession ?? byPath.sessionId,
        subagent,
        lastAt: Math.round(plan.mtimeMs),
      },
      options: {
        transcriptPath: subagent ? undefined : plan.file,
        cwd: plan.cwd ?? undefined,
        promptKeys: 'transcript',
      },
    };
  }

  private async importFile(
    plan: Plan,
    opened: OpenedFile,
    progress: TranscriptImportProgress,
  ): Promise<void> {
    const { signal, onProgress } = this.options;
    const { chunks } = opened;
    let reading = opened.reading;
    try {
      this.result.files++;
      for (;;) {
        if (signal?.aborted) return;
        const chunk = await reading;
        // Read to the size it had when planned, it is done: lines added since are the next import's.
        const last = chunk.length === 0 || chunk.end >= plan.size;
        // The next chunk is read while this one is written.
        if (!last) reading = settled(chunks.next());
        this.engine.store.transaction(() => {
          this.result.lines += chunk.lines;
          this.result.malformed += chunk.malformed;
          const counts = writeChunkActivity(this.engine.store, plan.adapter, chunk.activity);
          this.result.toolCalls += counts.toolCalls;
          this.result.failures += counts.failures;
          this.result.prompts += counts.prompts;
          this.result.sessions += counts.sessions;
          // `size` is the size examined to its end: only then may an unchanged file be skipped next time.
          this.engine.store.run(
            `INSERT INTO transcript_files (path, size, mtime_ms, offset, head_hash, tail_hash, cwd)
             VALUES (?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
               offset = excluded.offset, head_hash = excluded.head_hash, tail_hash = excluded.tail_hash,
               cwd = coalesce(excluded.cwd, cwd)`,
            [
              plan.file,
              last ? plan.size : -1,
              plan.mtimeMs,
              chunk.end,
              chunk.mark.head,
              chunk.mark.tail,
              plan.cwd,
            ],
          );
        });
        this.result.bytes += chunk.length;
        progress.doneBytes += chunk.length;
        onProgress?.({ ...progress });
        if (last) return;
        // Let the host's other work run between chunks of a large import.
        await yieldToHost();
      }
    } finally {
      await closeAhead({ chunks, reading });
    }
  }
}

/** A transcript opened, its first chunk being read: ahead of its turn, while the file before it is written. */
interface OpenedFile {
  chunks: TranscriptChunks;
  reading: Promise<TranscriptChunk>;
}

/** A read that fails is answered when awaited, not as an unhandled rejection meanwhile. */
function settled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

function openAhead(reader: TranscriptReader, request: TranscriptFileRequest): Promise<OpenedFile> {
  return settled(reader.open(request).then((chunks) => ({ chunks, reading: settled(chunks.next()) })));
}

/** Closes a file opened ahead once its read is over (a handle closed under a read fails it). */
async function closeAhead(opened: OpenedFile | Promise<OpenedFile>): Promise<void> {
  let file: OpenedFile;
  try {
    file = await opened;
  } catch {
    return; // Not opened: nothing to close.
  }
  await file.reading.catch(() => undefined);
  await file.chunks.close();
}
