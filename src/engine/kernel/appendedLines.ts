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
  /** `lines`: complete lines (newline-terminated) decoded as UTF-8; `length`: their size in bytes. */
  | { kind: 'lines'; lines: string[]; length: number }
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
        return { kind: 'lines', lines, length: lastNewline + 1 };
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
  return { kind: 'lines', lines: [text], length: data.length };
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

async function hashRange(handle: FileHandle, start: number, length: number): Promise<string> {
  const buffer = Buffer.allocUnsafe(length);
  const { bytesRead } = await handle.read(buffer, 0, length, start);
  return createHash('sha1').update(buffer.subarray(0, bytesRead)).digest('hex');
}

export async function fingerprint(handle: FileHandle, offset: number): Promise<Fingerprint> {
  const length = Math.min(offset, FINGERPRINT_BYTES);
  return {
    head: await hashRange(handle, 0, length),
    tail: await hashRange(handle, offset - length, length),
  };
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
