/**
 * The bytes of an agent's session file, decompressed where the agent compressed it (Codex's cold rollouts,
 * `rollout-*.jsonl.zst`, are zstd frames). Node's zlib decodes zstd from Node 22.15 and 23.8; where it
 * cannot, a compressed file is reported as unreadable rather than read as lines of garbage.
 */
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

/** The magic number every zstd frame starts with (RFC 8878, 3.1.1). */
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

export function isZstd(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ZSTD_MAGIC.every((byte, i) => bytes[i] === byte);
}

type Decoder = (data: Uint8Array, maxBytes: number) => Uint8Array;

const builtIn = (
  zlib as { zstdDecompressSync?: (data: Uint8Array, options: { maxOutputLength: number }) => Buffer }
).zstdDecompressSync;

/** The zstd decoder this process has, if any. */
export function zstdDecoder(): Decoder | undefined {
  return builtIn && ((data, maxBytes) => builtIn(data, { maxOutputLength: maxBytes }));
}

export class ZstdUnavailableError extends Error {
  constructor(readonly file: string) {
    super(`compressed with zstd, which this Node.js (${process.version}) cannot decompress`);
  }
}

/** A decompressed session file larger than this is not one an agent wrote. */
const MAX_DECOMPRESSED = 1024 * 1024 * 1024;

/**
 * The file's bytes (its first `maxBytes` when given), decompressed when they are a zstd frame. Throws
 * ZstdUnavailableError where they cannot be, and what reading throws.
 */
export function readSessionBytes(file: string, maxBytes?: number): Buffer {
  const fd = fs.openSync(file, 'r');
  let bytes: Buffer;
  try {
    const magic = Buffer.alloc(4);
    const compressed = isZstd(magic.subarray(0, fs.readSync(fd, magic, 0, 4, 0)));
    if (!compressed && maxBytes !== undefined) {
      const head = Buffer.alloc(Math.min(maxBytes, fs.fstatSync(fd).size));
      return head.subarray(0, fs.readSync(fd, head, 0, head.length, 0));
    }
    bytes = fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (!isZstd(bytes)) return bytes;
  const decode = zstdDecoder();
  if (!decode) throw new ZstdUnavailableError(file);
  const limit = maxBytes ?? MAX_DECOMPRESSED;
  try {
    return Buffer.from(decode(bytes, limit));
  } catch (error) {
    // Past the limit: the part wanted (a head) is all there is to read.
    if (maxBytes === undefined) throw error;
    return Buffer.from(decode(bytes, MAX_DECOMPRESSED)).subarray(0, maxBytes);
  }
}

/** Whether the last `lookback` bytes of a session file (decompressed) hold `marker`; false when unreadable. */
export function sessionTailIncludes(file: string, marker: string, lookback: number): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const magic = Buffer.alloc(4);
    if (isZstd(magic.subarray(0, fs.readSync(fd, magic, 0, 4, 0)))) {
      const whole = readSessionBytes(file);
      return whole.subarray(Math.max(0, whole.length - lookback)).includes(marker);
    }
    const size = fs.fstatSync(fd).size;
    const tail = Buffer.alloc(Math.min(size, lookback));
    fs.readSync(fd, tail, 0, tail.length, size - tail.length);
    return tail.includes(marker);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
