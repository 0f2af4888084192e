import { isAscii, isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type EventPayload,
  MAX_LINE_BYTES,
  parseEventLine,
  recorderFields,
  sampleOf,
  stringField,
  toEpochMs,
} from './eventLine';
import { EventRowWriter } from './eventRows';
import type { Store } from './store';

/**
 * The session ids a chunk's lines mention, found without parsing them: a superset (any "session_id" string
 * in a payload), so the summariser can read what it knows of them in one query.
 */
function mentionedSessionIds(text: string): Set<string> {
  const ids = new Set<string>();
  for (const match of text.matchAll(/"session_id":"([^"\\]+)"/g)) ids.add(match[1]);
  return ids;
}

/** How many bytes at the start and before the committed offset identify a file's already-read content. */
const FINGERPRINT_BYTES = 4096;
const NEWLINE = 0x0a;
/**
 * Bytes per transaction. Each commit rewrites the B-tree pages it touched, so larger chunks are faster;
 * 4 MiB (about 6,000 events, well under 100 ms of work) still leaves the host responsive between chunks.
 */
export const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;

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

/** Decides whether an event's working directory belongs to the project being ingested. */
export type Router = (cwd: string) => boolean;

export function listLogFiles(eventsDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(eventsDir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => path.join(eventsDir, name));
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
    private readonly belongsHere: Router,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes in the log not yet read by this project (a cheap estimate for deciding to show progress). */
  pendingBytes(): number {
    let pending = 0;
    for (const file of listLogFiles(this.eventsDir)) {
      try {
        const size = fs.statSync(file).size;
        const row = this.fileRow(file);
        pending += Math.max(0, size - (row && row.offset <= size ? row.offset : 0));
      } catch {
        // Vanished between listing and stat.
      }
    }
    return pending;
  }

  async ingestAll(options: IngestOptions = {}): Promise<IngestResult> {
    const result: IngestResult = { events: 0, rejected: 0, foreign: 0, bytes: 0, restarted: [] };
    const plans: FilePlan[] = [];
    for (const file of listLogFiles(this.eventsDir)) {
      const plan = this.plan(file);
      if (plan) plans.push(plan);
    }
    const progress: IngestProgress = {
      doneBytes: 0,
      totalBytes: plans.reduce((sum, plan) => sum + (plan.size - plan.start), 0),
    };
    for (const plan of plans) {
      if (options.signal?.aborted) break;
      if (plan.restarted) result.restarted.push(plan.row.path);
      await this.ingestFile(plan, options, result, progress);
    }
    return result;
  }

  private fileRow(file: string): LogFileRow | undefined {
    return this.store.get<LogFileRow>('SELECT * FROM log_files WHERE path = ?', [file]);
  }

  /** Where to resume in a file, detecting truncation or replacement by content, not only by size. */
  private plan(file: string): FilePlan | undefined {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return undefined;
    }
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
    options: IngestOptions,
    result: IngestResult,
    progress: IngestProgress,
  ): Promise<void> {
    const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    const handle = await fs.promises.open(plan.row.path, 'r');
    let offset = plan.start;
    let reading = this.readCompleteLines(handle, offset, chunkBytes);
    try {
      for (;;) {
        if (options.signal?.aborted) return;
        const chunk = await reading;
        if (chunk.kind === 'none') return;
        // The next chunk is read while this one is written.
        reading = this.readCompleteLines(handle, offset + chunk.length, chunkBytes);
        reading.catch(() => undefined);
        const before = { ...result };
        const fd = handle.fd;
        this.store.transaction(() => {
          if (chunk.kind === 'lines') this.ingestLines(chunk.bytes, plan.row.id, offset, result);
          else
            this.reject(
              plan.row.id,
              offset,
              chunk.length,
              `line of ${chunk.length} bytes is over the ${MAX_LINE_BYTES / 1024 / 1024} MiB limit`,
              chunk.sample,
              result,
            );
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
              result.events - before.events + (result.rejected - before.rejected),
              result.foreign - before.foreign,
              plan.row.id,
            ],
          );
        });
        offset += chunk.length;
        result.bytes += chunk.length;
        progress.doneBytes += chunk.length;
        options.onProgress?.({ ...progress });
        await options.afterChunk?.();
        // Let the host's other work run between chunks of a large backlog.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      await reading.catch(() => undefined);
      await handle.close();
    }
  }

  /**
   * The next run of complete lines from `offset`, or an over-long line to reject whole. A torn last line
   * (no newline yet) is left for a later pass.
   */
  private async readCompleteLines(
    handle: fs.promises.FileHandle,
    offset: number,
    chunkBytes: number,
  ): Promise<
    | { kind: 'none' }
    | { kind: 'lines'; bytes: Buffer; length: number }
    | { kind: 'oversized'; length: number; sample: string }
  > {
    let want = chunkBytes;
    for (;;) {
      const buffer = Buffer.alloc(want);
      const { bytesRead } = await handle.read(buffer, 0, want, offset);
      const data = buffer.subarray(0, bytesRead);
      const lastNewline = data.lastIndexOf(NEWLINE);
      if (lastNewline >= 0) {
        const bytes = data.subarray(0, lastNewline + 1);
        return { kind: 'lines', bytes, length: bytes.length };
      }
      if (bytesRead < want) return { kind: 'none' };
      if (want > MAX_LINE_BYTES) return this.skipOversizedLine(handle, offset, data);
      want = Math.min(want * 4, MAX_LINE_BYTES + 1);
    }
  }

  private async skipOversizedLine(
    handle: fs.promises.FileHandle,
    offset: number,
    head: Buffer,
  ): Promise<{ kind: 'none' } | { kind: 'oversized'; length: number; sample: string }> {
    const sample = sampleOf(head.subarray(0, 400).toString('utf8'));
    const buffer = Buffer.alloc(1024 * 1024);
    let position = offset + head.length;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return { kind: 'none' };
      const newline = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
      if (newline >= 0) return { kind: 'oversized', length: position + newline + 1 - offset, sample };
      position += bytesRead;
    }
  }

  private ingestLines(bytes: Buffer, fileId: number, baseOffset: number, result: IngestResult): void {
    const rows = new EventRowWriter(this.store);
    rows.begin();
    const ingestedAt = this.now();
    // Most chunks are ASCII: decoded once, their lines are slices whose character offsets are byte offsets.
    const asciiText = isAscii(bytes) ? bytes.toString('latin1') : undefined;
    rows.loadSessions(mentionedSessionIds(asciiText ?? bytes.toString('utf8')));
    const onPayload = (payload: EventPayload, offset: number) => {
      const cwd = stringField(payload, 'cwd');
      if (cwd === undefined || !this.belongsHere(cwd)) {
        result.foreign++;
        return;
      }
      rows.add(payload, fileId, offset, toEpochMs(recorderFields(payload).ts) ?? ingestedAt);
      result.events++;
    };
    if (asciiText !== undefined) {
      for (let start = 0; start < asciiText.length;) {
        const newline = asciiText.indexOf('\n', start);
        this.ingestLine(
          asciiText.slice(start, newline),
          fileId,
          baseOffset + start,
          newline + 1 - start,
          result,
          onPayload,
        );
        start = newline + 1;
      }
    } else {
      const allValidUtf8 = isUtf8(bytes);
      for (let start = 0; start < bytes.length;) {
        const newline = bytes.indexOf(NEWLINE, start);
        const offset = baseOffset + start;
        if (!allValidUtf8 && !isUtf8(bytes.subarray(start, newline))) {
          const sample = sampleOf(bytes.toString('utf8', start, Math.min(newline, start + 400)));
          this.reject(fileId, offset, newline + 1 - start, 'not valid UTF-8', sample, result);
        } else {
          this.ingestLine(
            bytes.toString('utf8', start, newline),
            fileId,
            offset,
            newline + 1 - start,
            result,
            onPayload,
          );
        }
        start = newline + 1;
      }
    }
    rows.flush();
  }

  /** One line without its newline (a CR before it is dropped): a payload, nothing if blank, or a reject. */
  private ingestLine(
    line: string,
    fileId: number,
    offset: number,
    length: number,
    result: IngestResult,
    onPayload: (payload: EventPayload, offset: number) => void,
  ): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') return;
    const parsed = parseEventLine(text);
    if (parsed.ok) onPayload(parsed.payload, offset);
    else this.reject(fileId, offset, length, parsed.reason, sampleOf(text), result);
  }

  private reject(
    fileId: number,
    offset: number,
    length: number,
    reason: string,
    sample: string,
    result: IngestResult,
  ): void {
    this.store.run(
      'INSERT INTO rejects (file_id, offset, length, reason, sample, rejected_at) VALUES (?, ?, ?, ?, ?, ?)',
      [fileId, offset, length, reason, sample, this.now()],
    );
    result.rejected++;
  }
}
