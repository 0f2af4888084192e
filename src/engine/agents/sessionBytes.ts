/**
 * The text of an agent's session file, decompressed where the agent compressed it (Codex's cold rollouts,
 * `rollout-*.jsonl.zst`, are zstd frames), read a piece at a time within fixed bounds. fzstd, a pure-JS
 * decoder, decodes a block at a time on every Node.js the extension host may run (Node 20's zlib has no
 * zstd). Each frame's header is checked before it is decoded (kernel/zstdFrames.ts): a decoder sets a
 * frame's window aside up front, and a few bytes may ask for gigabytes.
 */
import * as fs from 'node:fs';
import { Decompress } from 'fzstd';
import { MAX_WINDOW_BYTES, isZstd, zstdFrames } from '../kernel/zstdFrames';

/**
 * What one session file may hold. A long session of any agent is tens of MB of text and tens of thousands
 * of lines; beyond these bounds a file is reported, not read, whatever it decompresses to.
 */
export const SESSION_LIMITS = {
  /** Text, decompressed. */
  bytes: 256 * 1024 * 1024,
  lines: 1_000_000,
  /** A line longer than this is skipped and counted, never held. */
  lineBytes: 32 * 1024 * 1024,
};

export type SessionLimits = typeof SESSION_LIMITS;

/** A session file past SESSION_LIMITS, or a compressed one whose frames ask for too much: not read. */
class SessionFileTooLarge extends RangeError {}

const READ_BYTES = 1024 * 1024;
const ENOUGH = Symbol('enough');

/**
 * Hands the file's text to `onBytes` a block at a time, decompressed where it is zstd, until the end or
 * until `onBytes` returns false. Throws SessionFileTooLarge for frames that ask for more than the bounds
 * allow, ZstdFrameError for broken ones, and what reading throws.
 */
function eachBlock(file: string, onBytes: (block: Uint8Array) => boolean, limits: SessionLimits): void {
  const fd = fs.openSync(file, 'r');
  try {
    const magic = Buffer.alloc(4);
    if (!isZstd(magic.subarray(0, fs.readSync(fd, magic, 0, 4, 0)))) {
      const buffer = Buffer.alloc(READ_BYTES);
      for (let position = 0; ;) {
        const read = fs.readSync(fd, buffer, 0, buffer.length, position);
        if (read === 0 || !onBytes(buffer.subarray(0, read))) return;
        position += read;
      }
    }
    // Compressed, the file is smaller than its text: no larger than the text may be.
    const size = fs.fstatSync(fd).size;
    if (size > limits.bytes) throw new SessionFileTooLarge(`larger than ${mib(limits.bytes)}`);
    const data = Buffer.alloc(size);
    decompressFrames(data.subarray(0, fs.readSync(fd, data, 0, size, 0)), onBytes, limits);
  } finally {
    fs.closeSync(fd);
  }
}

function decompressFrames(data: Uint8Array, onBytes: (block: Uint8Array) => boolean, limits: SessionLimits) {
  for (const frame of zstdFrames(data)) {
    if ((frame.contentBytes ?? 0) > limits.bytes)
      throw new SessionFileTooLarge(`decompresses to more than ${mib(limits.bytes)}`);
    if (frame.windowBytes > Math.min(MAX_WINDOW_BYTES, limits.bytes))
      throw new SessionFileTooLarge(`a zstd frame asks for a ${mib(frame.windowBytes)} window`);
    const stream = new Decompress((block) => {
      if (!onBytes(block)) throw ENOUGH;
    });
    try {
      stream.push(data.subarray(frame.start, frame.end), true);
    } catch (error) {
      if (error === ENOUGH) return;
      throw error;
    }
  }
}

function mib(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/** The first `maxBytes` of the file's text, decompressed where it is zstd. */
export function readSessionHead(file: string, maxBytes: number): Buffer {
  const blocks: Uint8Array[] = [];
  let total = 0;
  eachBlock(
    file,
    (block) => {
      blocks.push(Buffer.from(block));
      total += block.length;
      return total < maxBytes;
    },
    SESSION_LIMITS,
  );
  return Buffer.concat(blocks, total).subarray(0, maxBytes);
}

/**
 * Each line of the file's text to `onLine`, read and decompressed a block at a time: the text is never one
 * string. A line longer than `limits.lineBytes` is skipped and counted, never held. Throws
 * SessionFileTooLarge past the text's or the lines' bound (the lines given until then are a part).
 */
export function readSessionLines(
  file: string,
  onLine: (line: string) => void,
  limits: SessionLimits = SESSION_LIMITS,
): { longLines: number } {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let longLines = 0;
  let lines = 0;
  let total = 0;
  const endLine = () => {
    if (++lines > limits.lines) throw new SessionFileTooLarge(`more than ${limits.lines} lines`);
    if (tooLong) longLines++;
    else onLine(Buffer.concat(pending, pendingBytes).toString('utf8'));
    pending = [];
    pendingBytes = 0;
    tooLong = false;
  };
  const add = (piece: Uint8Array) => {
    if (tooLong || pendingBytes + piece.length > limits.lineBytes) {
      tooLong = true;
      pending = [];
      pendingBytes = 0;
      return;
    }
    // The block's memory may be reused for the next read: the line keeps a copy.
    pending.push(Buffer.from(piece));
    pendingBytes += piece.length;
  };
  eachBlock(
    file,
    (block) => {
      total += block.length;
      if (total > limits.bytes) throw new SessionFileTooLarge(`more than ${mib(limits.bytes)} of text`);
      let start = 0;
      for (let newline = block.indexOf(0x0a); newline >= 0; newline = block.indexOf(0x0a, start)) {
        add(block.subarray(start, newline));
        endLine();
        start = newline + 1;
      }
      if (start < block.length) add(block.subarray(start));
      return true;
    },
    limits,
  );
  if (pendingBytes > 0 || tooLong) endLine();
  return { longLines };
}

/** Whether the last `lookback` bytes of a session file (decompressed) hold `marker`; false when unreadable. */
export function sessionTailIncludes(file: string, marker: string, lookback: number): boolean {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const magic = Buffer.alloc(4);
      if (!isZstd(magic.subarray(0, fs.readSync(fd, magic, 0, 4, 0)))) {
        const size = fs.fstatSync(fd).size;
        const tail = Buffer.alloc(Math.min(size, lookback));
        fs.readSync(fd, tail, 0, tail.length, size - tail.length);
        return tail.includes(marker);
      }
    } finally {
      fs.closeSync(fd);
    }
    // A compressed file's tail is its last decompressed blocks: those that hold the last `lookback` bytes.
    const blocks: Uint8Array[] = [];
    let held = 0;
    eachBlock(
      file,
      (block) => {
        blocks.push(Buffer.from(block));
        held += block.length;
        while (held - blocks[0].length >= lookback) held -= blocks.shift()!.length;
        return true;
      },
      SESSION_LIMITS,
    );
    const tail = Buffer.concat(blocks);
    return tail.subarray(Math.max(0, tail.length - lookback)).includes(marker);
  } catch {
    return false;
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
