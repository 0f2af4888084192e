/**
 * The bytes of an agent's session file, decompressed where the agent compressed it (Codex's cold rollouts,
 * `rollout-*.jsonl.zst`, are zstd frames). fzstd, a pure-JS decoder, decodes a block at a time on every
 * Node.js the extension host may run (Node 20's zlib has no zstd), so no more than the bytes wanted are held.
 */
import * as fs from 'node:fs';
import { Decompress } from 'fzstd';

/** The magic number every zstd frame starts with (RFC 8878, 3.1.1). */
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

function isZstd(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ZSTD_MAGIC.every((byte, i) => bytes[i] === byte);
}

/** A session file larger than this, compressed or not, is not one an agent wrote. */
const MAX_SESSION_BYTES = 1024 * 1024 * 1024;

const ENOUGH = Symbol('enough');

/** The first `limit` decompressed bytes of `data`, and whether that was all of them. */
function decompressHead(data: Uint8Array, limit: number): { bytes: Buffer; whole: boolean } {
  const blocks: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((block) => {
    blocks.push(block);
    total += block.length;
    if (total > limit) throw ENOUGH;
  });
  try {
    stream.push(data, true);
  } catch (error) {
    if (error !== ENOUGH) throw error;
  }
  return { bytes: Buffer.concat(blocks, total).subarray(0, limit), whole: total <= limit };
}

/**
 * The file's bytes (its first `maxBytes` when given), decompressed when they are a zstd frame. Throws what
 * reading or decoding throws, and for a file that is, or decompresses to, more than 1 GiB.
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
    if (fs.fstatSync(fd).size > MAX_SESSION_BYTES) throw new RangeError('larger than 1 GiB');
    bytes = fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (!isZstd(bytes)) return bytes;
  const { bytes: decompressed, whole } = decompressHead(bytes, maxBytes ?? MAX_SESSION_BYTES);
  if (!whole && maxBytes === undefined) throw new RangeError('decompresses to more than 1 GiB');
  return decompressed;
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

/**
 * What tells that a session file changed: its size and time, and those of its write-ahead log (a database
 * in WAL mode, like opencode's, grows its `-wal` file while the main file stays as it was).
 */
export function sessionFileStamp(file: string): { key: string; size: number; mtimeMs: number } | undefined {
  let main: fs.Stats;
  try {
    main = fs.statSync(file);
  } catch {
    return undefined;
  }
  let size = main.size;
  let mtimeMs = main.mtimeMs;
  try {
    const wal = fs.statSync(`${file}-wal`);
    size += wal.size;
    mtimeMs = Math.max(mtimeMs, wal.mtimeMs);
  } catch {
    // No write-ahead log: the file alone.
  }
  return { key: `${size}:${mtimeMs}`, size, mtimeMs };
}
