/**
 * Reading a file that another process appends to, one run of complete lines at a time, and recognising
 * whether the part already read is still there. Shared by the history import and the live gauge.
 */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

const NEWLINE = 0x0a;
/** Bytes hashed at the start of a file and just before the read offset to recognise content already read. */
const FINGERPRINT_BYTES = 4096;
/**
 * Longer lines are skipped as malformed. Claude Code writes whole tool results and pasted images on one
 * line, so lines of several megabytes are normal; this only bounds memory against a corrupt file.
 */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export type LineChunk =
  /**
   * `lines`: complete lines (newline-terminated) decoded as UTF-8; `length`: their size in bytes; `bytes`:
   * those bytes, in the reader's buffer until its next read.
   */
  | { kind: 'lines'; lines: string[]; length: number; bytes: Buffer }
  /** One line over MAX_LINE_BYTES, to be skipped whole. */
  | { kind: 'oversized'; length: number };

/**
 * Reads runs of complete lines. Its read buffer is reused from call to call (and file to file): fresh
 * multi-megabyte buffers per chunk cost more in garbage collection than the parsing itself. One reader
 * serves one caller at a time.
 */
export class LineReader {
  private buffer = Buffer.alloc(0);

  /**
   * The complete lines from `offset`, about `chunkBytes` of them (more when a single line is longer), or
   * undefined when no complete line follows: a torn last line is left for a later read.
   */
  async read(handle: FileHandle, offset: number, chunkBytes: number): Promise<LineChunk | undefined> {
    let want = chunkBytes;
    for (;;) {
      if (this.buffer.length < want) this.buffer = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(this.buffer, 0, want, offset);
      const data = this.buffer.subarray(0, bytesRead);
      const lastNewline = data.lastIndexOf(NEWLINE);
      if (lastNewline >= 0) {
        const lines = data.toString('utf8', 0, lastNewline).split('\n');
        return { kind: 'lines', lines, length: lastNewline + 1, bytes: data.subarray(0, lastNewline + 1) };
      }
      if (bytesRead < want) return finishedLastLine(data);
      if (want > MAX_LINE_BYTES) return skipOversizedLine(handle, offset + bytesRead, offset);
      want = Math.min(want * 4, MAX_LINE_BYTES + 1);
    }
  }
}

/**
 * A last line without its newline is normally still being written. But a proper prefix of a JSON object is
 * never a JSON object, so one that parses is complete: files written by other tools (and the fixtures) may
 * simply not end with a newline.
 */
function finishedLastLine(data: Buffer): LineChunk | undefined {
  const text = data.toString('utf8');
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  try {
    JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  return { kind: 'lines', lines: [text], length: data.length, bytes: data };
}

async function skipOversizedLine(
  handle: FileHandle,
  from: number,
  lineStart: number,
): Promise<LineChunk | undefined> {
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  for (let position = from; ;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return undefined;
    const newline = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
    if (newline >= 0) return { kind: 'oversized', length: position + newline + 1 - lineStart };
    position += bytesRead;
  }
}

/** Hashes of the file's first bytes and of the bytes just before `offset`, as of `offset`. */
export interface Fingerprint {
  head: string;
  tail: string;
}

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

async function hashRange(handle: FileHandle, start: number, length: number): Promise<string> {
  const buffer = Buffer.allocUnsafe(length);
  const { bytesRead } = await handle.read(buffer, 0, length, start);
  return sha1(buffer.subarray(0, bytesRead));
}

export function fingerprint(handle: FileHandle, offset: number): Promise<Fingerprint> {
  return new ChunkFingerprints(handle).at(offset);
}

/**
 * The fingerprints of one file read a chunk at a time, taken from the bytes read: a chunk ends with the bytes
 * before its offset, and the file's first bytes are hashed once. The file is read only for what no chunk held
 * (reading began past the first bytes, a chunk shorter than the bytes hashed, an oversized line).
 */
export class ChunkFingerprints {
  /** Of the file's first FINGERPRINT_BYTES, once the file is longer. */
  private head: string | undefined;
  private last: { offset: number; mark: Fingerprint } | undefined;

  constructor(private readonly handle: FileHandle) {}

  /**
   * As `fingerprint(handle, offset)`, where `read` holds the bytes that end at `offset` (a chunk's `bytes`).
   * They are hashed before this awaits anything, so the reader may reuse its buffer after the call.
   */
  async at(offset: number, read?: Buffer): Promise<Fingerprint> {
    if (this.last?.offset === offset) return this.last.mark;
    const length = Math.min(offset, FINGERPRINT_BYTES);
    const held = read !== undefined && read.length >= length;
    let tail = held ? sha1(read.subarray(read.length - length)) : undefined;
    if (this.head === undefined && held && length === FINGERPRINT_BYTES && read.length === offset)
      this.head = sha1(read.subarray(0, FINGERPRINT_BYTES));
    tail ??= await hashRange(this.handle, offset - length, length);
    // Shorter than the bytes hashed, the file's start and the bytes before the offset are the same bytes.
    let head = length < FINGERPRINT_BYTES ? tail : this.head;
    if (head === undefined) head = this.head = await hashRange(this.handle, 0, FINGERPRINT_BYTES);
    const mark = { head, tail };
    this.last = { offset, mark };
    return mark;
  }
}

/**
 * Whether the file still holds what was read up to `offset` (same first bytes, same bytes before the
 * offset). A truncated or replaced file fails this and must be read again from its start.
 */
export async function stillHolds(
  handle: FileHandle,
  size: number,
  offset: number,
  expected: Fingerprint,
): Promise<boolean> {
  if (size < offset) return false;
  const actual = await fingerprint(handle, offset);
  return actual.head === expected.head && actual.tail === expected.tail;
}
