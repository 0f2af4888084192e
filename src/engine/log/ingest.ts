import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVENT_WIDTH, REJECT_WIDTH } from './chunkParse';
import { type ChunkReader, inlineReader, workerReader } from './chunkReaders';
import { EventRowWriter } from './eventRows';
import { NO_FOLLOW_NO_WAIT } from '../storage/privateFiles';
import type { Routes } from './routing';
import type { Store } from '../storage/store';
import { dropImportedActivity } from '../transcripts/sharedActivity';
import { mergeSomeOfMemoryIndex } from '../memory/observationWriter';
import { yieldToHost } from '../yieldToHost';

/** How many bytes at the start and before the committed offset identify a file's already-read content. */
const FINGERPRINT_BYTES = 4096;
/**
 * Bytes per transaction. Each commit rewrites the B-tree pages it touched, so larger chunks are faster;
 * 4 MiB (about 6,000 events, well under 100 ms of work) still leaves the host responsive between chunks.
 */
export const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;
/** A backlog of this many chunks or more is parsed on a worker; less is not worth starting one. */
const PARSE_WORKER_MIN_CHUNKS = 3;

export interface IngestProgress {
  doneBytes: number;
  totalBytes: number;
}

export interface IngestOptions {
  /** Bytes read and committed per transaction; smaller chunks keep the host responsive. */
  chunkBytes?: number;
  onProgress?: (progress: IngestProgress) => void;
  /** Called after each committed chunk (e.g. to save a snapshot during a long backlog). */
  afterChunk?: () => Promise<void> | void;
  signal?: AbortSignal;
}

export interface IngestResult {
  events: number;
  rejected: number;
  /** Lines that belong to other projects (or to none), left for them. */
  foreign: number;
  bytes: number;
  /** Files found replaced or truncated and read again from their start. */
  restarted: string[];
  /** Chunks read and parsed on the parse worker (large backlogs); the rest were parsed inline. */
  workerChunks: number;
}

interface LogFileRow {
  id: number;
  path: string;
  identity: string;
  head_len: number;
  head_hash: string;
  tail_hash: string;
  offset: number;
  generation: number;
  [key: string]: number | string;
}

interface FilePlan {
  row: LogFileRow;
  size: number;
  identity: string;
  start: number;
  restarted: boolean;
}

export interface LogListing {
  /** Regular `*.jsonl` files, oldest day first. */
  files: string[];
  /** Why each other `*.jsonl` entry (a folder, link, FIFO...) is not read, for the user. */
  skipped: string[];
}

function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * The log files of `eventsDir`. Only regular files are read: a FIFO would block ingestion forever, a link
 * could lead to /dev/zero or to a credentials file, a folder fails every read. Links are not followed.
 */
export function listLogFiles(eventsDir: string): LogListing {
  const listing: LogListing = { files: [], skipped: [] };
  let names: string[];
  try {
    names = fs.readdirSync(eventsDir);
  } catch {
    return listing;
  }
  for (const name of names.filter((n) => n.endsWith('.jsonl')).sort()) {
    const file = path.join(eventsDir, name);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(file);
    } catch {
      continue; // Gone since the listing.
    }
    if (stat.isFile()) listing.files.push(file);
    else listing.skipped.push(`${file} is ${kindOf(stat)}, not an event log file: it is not read.`);
  }
  return listing;
}

/** A descriptor on `file` if it still is a regular file: never through a link, never waiting on a FIFO. */
function openLogFile(file: string): number | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | NO_FOLLOW_NO_WAIT);
  } catch {
    return undefined;
  }
  if (fs.fstatSync(fd).isFile()) return fd;
  fs.closeSync(fd);
  return undefined;
}

function hashBytes(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

function readRange(fd: number, start: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = fs.readSync(fd, buffer, 0, length, start);
  return buffer.subarray(0, read);
}

function identityOf(stat: fs.Stats): string {
  return `${stat.dev}:${stat.ino}`;
}

/**
 * Reads the event log into a project's database exactly once: each chunk's rows and the file offset that
 * produced them are committed in one transaction, so a crash anywhere leaves either both or neither.
 */
export class Ingestor {
  constructor(
    private readonly store: Store,
    private readonly eventsDir: string,
    private readonly routes: Routes,
    private readonly now: () => number = Date.now,
    /** The parse worker's script; without one, chunks are parsed inline. */
    private readonly parseWorkerFile?: string,
  ) {}

  /** Bytes in the log not yet read by this project (a cheap estimate for deciding to show progress). */
  pendingBytes(): number {
    let pending = 0;
    for (const file of listLogFiles(this.eventsDir).files) {
      try {
        const size = fs.lstatSync(file).size;
        const row = this.fileRow(file);
        pending += Math.max(0, size - (row && row.offset <= size ? row.offset : 0));
      } catch {
        // Vanished between listing and stat.
      }
    }
    return pending;
  }

  async ingestAll(options: IngestOptions = {}): Promise<IngestResult> {
    const result: IngestResult = {
      events: 0,
      rejected: 0,
      foreign: 0,
      bytes: 0,
      restarted: [],
      workerChunks: 0,
    };
    const plans: FilePlan[] = [];
    for (const file of listLogFiles(this.eventsDir).files) {
      const plan = this.plan(file);
      if (plan) plans.push(plan);
    }
    const progress: IngestProgress = {
      doneBytes: 0,
      totalBytes: plans.reduce((sum, plan) => sum + (plan.size - plan.start), 0),
    };
    const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    const reader =
      this.parseWorkerFile && progress.totalBytes >= PARSE_WORKER_MIN_CHUNKS * chunkBytes
        ? workerReader(this.routes, chunkBytes, this.parseWorkerFile)
        : inlineReader(this.routes, chunkBytes);
    try {
      for (const plan of plans) {
        if (options.signal?.aborted) break;
        if (plan.restarted) result.restarted.push(plan.row.path);
        await this.ingestFile(plan, reader, options, result, progress);
      }
    } finally {
      result.workerChunks = reader.workerChunks;
      await reader.close();
    }
    return result;
  }

  private fileRow(file: string): LogFileRow | undefined {
    return this.store.get<LogFileRow>('SELECT * FROM log_files WHERE path = ?', [file]);
  }

  /** Where to resume in a file, detecting truncation or replacement by content, not only by size. */
  private plan(file: string): FilePlan | undefined {
    const fd = openLogFile(file);
    if (fd === undefined) return undefined;
    try {
      const stat = fs.fstatSync(fd);
      const identity = identityOf(stat);
      let row = this.fileRow(file);
      if (!row) {
        this.store.run('INSERT INTO log_files (path, identity) VALUES (?, ?)', [file, identity]);
        row = this.fileRow(file)!;
        return { row, size: stat.size, identity, start: 0, restarted: false };
      }
      if (row.offset === 0) return { row, size: stat.size, identity, start: 0, restarted: false };
      const sameContent =
        stat.size >= row.offset &&
        hashBytes(readRange(fd, 0, row.head_len)) === row.head_hash &&
        hashBytes(
          readRange(
            fd,
            row.offset - Math.min(row.offset, FINGERPRINT_BYTES),
            Math.min(row.offset, FINGERPRINT_BYTES),
          ),
        ) === row.tail_hash;
      if (sameContent) return { row, size: stat.size, identity, start: row.offset, restarted: false };
      // Replaced or truncated: what was read before stays counted; the new content is read from its start.
      this.store.run(
        'UPDATE log_files SET offset = 0, head_len = 0, head_hash = ?, tail_hash = ?, generation = generation + 1 WHERE id = ?',
        [hashBytes(Buffer.alloc(0)), hashBytes(Buffer.alloc(0)), row.id],
      );
      return { row: { ...row, offset: 0 }, size: stat.size, identity, start: 0, restarted: true };
    } finally {
      fs.closeSync(fd);
    }
  }

  private async ingestFile(
    plan: FilePlan,
    reader: ChunkReader,
    options: IngestOptions,
    result: IngestResult,
    progress: IngestProgress,
  ): Promise<void> {
    const fd = openLogFile(plan.row.path);
    if (fd === undefined) return;
    // Replaced since it was planned: the next pass plans it again.
    if (identityOf(fs.fstatSync(fd)) !== plan.identity) {
      fs.closeSync(fd);
      return;
    }
    const rows = new EventRowWriter(this.store);
    let offset = plan.start;
    let reading = reader.read(fd, offset, this.now());
    try {
      for (;;) {
        if (options.signal?.aborted) return;
        const chunk = await reading;
        if (chunk.kind === 'none') return;
        // The next chunk is read (and, on a worker, parsed) while this one is written.
        reading = reader.read(fd, offset + chunk.length, this.now());
        reading.catch(() => undefined);
        const { parsed } = chunk;
        const events = parsed.events.length / EVENT_WIDTH;
        const rejected = parsed.rejects.length / REJECT_WIDTH;
        this.store.transaction(() => {
          dropImportedActivity(this.store, parsed);
          rows.write(parsed, plan.row.id, this.now());
          const newOffset = offset + chunk.length;
          const headLen = Math.min(newOffset, FINGERPRINT_BYTES);
          const tailLen = Math.min(newOffset, FINGERPRINT_BYTES);
          this.store.run(
            `UPDATE log_files SET offset = ?, identity = ?, head_len = ?, head_hash = ?, tail_hash = ?,
               lines = lines + ?, foreign_lines = foreign_lines + ? WHERE id = ?`,
            [
              newOffset,
              plan.identity,
              headLen,
              hashBytes(readRange(fd, 0, headLen)),
              hashBytes(readRange(fd, newOffset - tailLen, tailLen)),
              events + rejected,
              parsed.foreign,
              plan.row.id,
            ],
          );
        });
        if (parsed.memory.length > 0) {
          await yieldToHost();
          mergeSomeOfMemoryIndex(this.store);
        }
        result.events += events;
        result.rejected += rejected;
        result.foreign += parsed.foreign;
        offset += chunk.length;
        result.bytes += chunk.length;
        progress.doneBytes += chunk.length;
        options.onProgress?.({ ...progress });
        await options.afterChunk?.();
        // Let the host's other work run between chunks of a large backlog.
        await yieldToHost();
      }
    } finally {
      await reading.catch(() => undefined);
      fs.closeSync(fd);
    }
  }
}
