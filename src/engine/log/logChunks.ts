/**
 * Reading the event log in runs of complete lines. Synchronous on a file descriptor, so the parse worker
 * can read ahead on the ingesting thread's descriptor (threads share them) while that thread writes.
 */
import * as fs from 'node:fs';
import { MAX_LINE_BYTES, sampleOf } from '../events/eventLine';

export type LogChunk =
  | { kind: 'none' }
  | { kind: 'lines'; bytes: Buffer; length: number }
  | { kind: 'oversized'; length: number; sample: string };

const NEWLINE = 0x0a;

/**
 * The next run of complete lines from `offset` (about `chunkBytes` long) of a file of `size` bytes, or an
 * over-long line to reject whole. A torn last line (no newline yet) is left for a later pass. No more is
 * allocated than the file holds: a buffer of `chunkBytes` for each of many small files was most of their cost.
 */
export function readCompleteLines(fd: number, offset: number, chunkBytes: number, size: number): LogChunk {
  const available = size - offset;
  let want = Math.min(chunkBytes, available);
  for (;;) {
    if (want <= 0) return { kind: 'none' };
    const buffer = Buffer.allocUnsafe(want);
    const data = buffer.subarray(0, fs.readSync(fd, buffer, 0, want, offset));
    const lastNewline = data.lastIndexOf(NEWLINE);
    if (lastNewline >= 0) {
      const bytes = data.subarray(0, lastNewline + 1);
      return { kind: 'lines', bytes, length: bytes.length };
    }
    if (want > MAX_LINE_BYTES) return skipOversizedLine(fd, offset, data);
    if (data.length < want || want >= available) return { kind: 'none' };
    want = Math.min(want * 4, MAX_LINE_BYTES + 1, available);
  }
}

function skipOversizedLine(fd: number, offset: number, head: Buffer): LogChunk {
  const sample = sampleOf(head.subarray(0, 400).toString('utf8'));
  const buffer = Buffer.alloc(1024 * 1024);
  let position = offset + head.length;
  for (;;) {
    const bytesRead = fs.readSync(fd, buffer, 0, buffer.length, position);
    if (bytesRead === 0) return { kind: 'none' };
    const newline = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
    if (newline >= 0) return { kind: 'oversized', length: position + newline + 1 - offset, sample };
    position += bytesRead;
  }
}
