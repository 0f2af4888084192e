/**
 * Which pages of a SQLite database live in its write-ahead log, found the way SQLite's own recovery finds
 * them (https://www.sqlite.org/fileformat2.html#the_write_ahead_log), without the `-shm` index (reading must
 * write nothing): after a valid 32-byte header, frames count in order while their salts match the header's
 * and their cumulative checksums hold; only frames up to the last commit frame (non-zero "database size")
 * count, so a transaction being written or a torn tail is left out; a later frame of a page wins.
 *
 * The WAL is read in chunks of about 1 MiB; what is kept is one offset per page.
 */
import type { FileHandle } from 'node:fs/promises';
import { SqliteFileError, u32 } from './sqliteRecord';

const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
export const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
const CHUNK_BYTES = 1024 * 1024;

export interface WalIndex {
  /** The header as read, to tell later whether a checkpoint restarted the log. */
  header: Uint8Array;
  pageSize: number;
  /** The database's size in pages as of the last committed transaction. */
  databasePages: number;
  /** Page number → file offset of the latest committed frame holding it. */
  frames: Map<number, number>;
  /** The largest page number a committed frame holds. */
  lastPage: number;
}

function u32le(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset + 3] << 24) | (bytes[offset + 2] << 16) | (bytes[offset + 1] << 8) | bytes[offset]) >>> 0
  );
}

/** SQLite's WAL checksum over `length` bytes (a multiple of 8), continuing from `seed`. */
function walChecksum(
  bytes: Uint8Array,
  offset: number,
  length: number,
  bigEndian: boolean,
  seed: readonly [number, number],
): [number, number] {
  const word = bigEndian ? u32 : u32le;
  let [s0, s1] = seed;
  for (let i = offset; i < offset + length; i += 8) {
    s0 = (s0 + word(bytes, i) + s1) >>> 0;
    s1 = (s1 + word(bytes, i + 4) + s0) >>> 0;
  }
  return [s0, s1];
}

export function isPageSize(size: number): boolean {
  return size >= 512 && size <= 65536 && (size & (size - 1)) === 0;
}

async function readAt(handle: FileHandle, into: Uint8Array, position: number): Promise<number> {
  return (await handle.read(into, 0, into.length, position)).bytesRead;
}

/** The committed frames of the WAL open as `wal`; undefined when it holds none (or is no valid WAL). */
export async function indexWal(wal: FileHandle): Promise<WalIndex | undefined> {
  const header = new Uint8Array(WAL_HEADER_BYTES);
  if ((await readAt(wal, header, 0)) < WAL_HEADER_BYTES) return undefined;
  const magic = u32(header, 0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return undefined;
  const bigEndian = magic === WAL_MAGIC_BE;
  const pageSize = u32(header, 8);
  if (!isPageSize(pageSize)) return undefined;
  let checksum = walChecksum(header, 0, 24, bigEndian, [0, 0]);
  if (checksum[0] !== u32(header, 24) || checksum[1] !== u32(header, 28)) return undefined;
  const salt1 = u32(header, 16);
  const salt2 = u32(header, 20);

  const frameBytes = FRAME_HEADER_BYTES + pageSize;
  const chunk = new Uint8Array(Math.max(1, Math.floor(CHUNK_BYTES / frameBytes)) * frameBytes);
  // Frames of the transaction being read: they count once a commit frame closes it.
  const pending = new Map<number, number>();
  const frames = new Map<number, number>();
  let databasePages = 0;
  let lastPage = 0;
  let position = WAL_HEADER_BYTES;
  for (;;) {
    const wholeFrames = Math.floor((await readAt(wal, chunk, position)) / frameBytes);
    for (let frame = 0; frame < wholeFrames; frame++) {
      const at = frame * frameBytes;
      const page = u32(chunk, at);
      if (page === 0 || u32(chunk, at + 8) !== salt1 || u32(chunk, at + 12) !== salt2) return done();
      checksum = walChecksum(chunk, at, 8, bigEndian, checksum);
      checksum = walChecksum(chunk, at + FRAME_HEADER_BYTES, pageSize, bigEndian, checksum);
      if (checksum[0] !== u32(chunk, at + 16) || checksum[1] !== u32(chunk, at + 20)) return done();
      pending.set(page, position + at);
      const commitSize = u32(chunk, at + 4);
      if (commitSize !== 0) {
        for (const [committed, offset] of pending) {
          frames.set(committed, offset);
          lastPage = Math.max(lastPage, committed);
        }
        pending.clear();
        databasePages = commitSize;
      }
    }
    if (wholeFrames * frameBytes < chunk.length) return done();
    position += chunk.length;
  }

  function done(): WalIndex | undefined {
    return frames.size === 0 ? undefined : { header, pageSize, databasePages, frames, lastPage };
  }
}

/**
 * The page of the frame at `offset`. Its header must still name `page` with the salts of `index`: a
 * checkpoint that restarted the log meanwhile rewrote the frames with new salts, and their pages are not
 * of the moment the index was taken.
 */
export async function readWalFrame(
  wal: FileHandle,
  index: WalIndex,
  page: number,
  offset: number,
): Promise<Uint8Array> {
  const frame = new Uint8Array(FRAME_HEADER_BYTES + index.pageSize);
  const read = await readAt(wal, frame, offset);
  if (
    read < frame.length ||
    u32(frame, 0) !== page ||
    u32(frame, 8) !== u32(index.header, 16) ||
    u32(frame, 12) !== u32(index.header, 20)
  )
    throw new SqliteFileError(
      `the WAL frame of page ${page} changed while reading (a checkpoint restarted the log): open the database again`,
    );
  return frame.subarray(FRAME_HEADER_BYTES);
}
