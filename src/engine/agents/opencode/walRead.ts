/**
 * A consistent, read-only snapshot of a SQLite database in WAL mode, as one in-memory image that sql.js can
 * open. opencode keeps its store in WAL mode and writes to it while we read; sql.js cannot open a WAL
 * database (it has no -wal or -shm of its own), and we must never write to the user's files, not even the
 * -shm index a real SQLite reader would update.
 *
 * So the main file and its `-wal` are read into memory and the WAL is replayed the way SQLite's own recovery
 * does (https://www.sqlite.org/fileformat2.html#the_write_ahead_log): after a valid 32-byte header, frames
 * are taken in order while their salts match the header's and their cumulative checksums hold; only the
 * frames up to the last commit frame (non-zero "database size") count, so a transaction being written (or a
 * torn tail) is left out. Later frames of a page replace earlier ones. The `-shm` file is not needed.
 * Finally header bytes 18 and 19 (write/read format version, 2 for WAL) become 1, so the image opens as an
 * ordinary rollback-journal database.
 */
import * as fs from 'node:fs';

const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

export interface WalReplay {
  /** The database as of the last committed transaction. */
  image: Uint8Array;
  /** WAL frames applied (0 when there was no usable WAL). */
  frames: number;
  /** Why the WAL was ignored, when it was present but unusable. */
  ignored?: string;
}

function u32(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0
  );
}

function u32le(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset + 3] << 24) | (bytes[offset + 2] << 16) | (bytes[offset + 1] << 8) | bytes[offset]) >>> 0
  );
}

/** SQLite's WAL checksum over `length` bytes (a multiple of 8), continuing from `[s0, s1]`. */
function walChecksum(
  bytes: Uint8Array,
  offset: number,
  length: number,
  bigEndian: boolean,
  seed: readonly [number, number] = [0, 0],
): [number, number] {
  const word = bigEndian ? u32 : u32le;
  let [s0, s1] = seed;
  for (let i = offset; i < offset + length; i += 8) {
    s0 = (s0 + word(bytes, i) + s1) >>> 0;
    s1 = (s1 + word(bytes, i + 4) + s0) >>> 0;
  }
  return [s0, s1];
}

function isPageSize(size: number): boolean {
  return size >= 512 && size <= 65536 && (size & (size - 1)) === 0;
}

/** Marks the image as a rollback-journal database (header bytes 18 and 19 = 1). */
function asRollbackJournal(image: Uint8Array): Uint8Array {
  if (image.length >= 100) {
    image[18] = 1;
    image[19] = 1;
  }
  return image;
}

/** The main file's bytes with the committed frames of `wal` applied. Pure: neither input is changed. */
export function applyWal(main: Uint8Array, wal: Uint8Array | undefined): WalReplay {
  const unchanged = (ignored?: string): WalReplay => ({
    image: asRollbackJournal(new Uint8Array(main)),
    frames: 0,
    ignored,
  });
  if (!wal || wal.length < WAL_HEADER_BYTES)
    return unchanged(wal && wal.length > 0 ? 'WAL header is short' : undefined);
  const magic = u32(wal, 0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return unchanged('not a WAL file');
  const bigEndian = (magic & 1) === 1;
  const pageSize = u32(wal, 8);
  if (!isPageSize(pageSize)) return unchanged(`WAL page size ${pageSize} is invalid`);
  const salt1 = u32(wal, 16);
  const salt2 = u32(wal, 20);
  const header = walChecksum(wal, 0, 24, bigEndian);
  if (header[0] !== u32(wal, 24) || header[1] !== u32(wal, 28))
    return unchanged('WAL header checksum mismatch');

  const frameBytes = FRAME_HEADER_BYTES + pageSize;
  // Frames of the transaction being read; they count only once a commit frame closes it.
  let pending: Array<{ page: number; data: number }> = [];
  const committed: Array<{ page: number; data: number }> = [];
  let databasePages = 0;
  let checksum = header;
  for (let offset = WAL_HEADER_BYTES; offset + frameBytes <= wal.length; offset += frameBytes) {
    const page = u32(wal, offset);
    const commitSize = u32(wal, offset + 4);
    if (page === 0 || u32(wal, offset + 8) !== salt1 || u32(wal, offset + 12) !== salt2) break;
    checksum = walChecksum(wal, offset, 8, bigEndian, checksum);
    checksum = walChecksum(wal, offset + FRAME_HEADER_BYTES, pageSize, bigEndian, checksum);
    if (checksum[0] !== u32(wal, offset + 16) || checksum[1] !== u32(wal, offset + 20)) break;
    pending.push({ page, data: offset + FRAME_HEADER_BYTES });
    if (commitSize !== 0) {
      committed.push(...pending);
      pending = [];
      databasePages = commitSize;
    }
  }
  if (committed.length === 0) return unchanged();

  const image = new Uint8Array(databasePages * pageSize);
  image.set(main.subarray(0, Math.min(main.length, image.length)));
  for (const frame of committed) {
    if (frame.page > databasePages) continue;
    image.set(wal.subarray(frame.data, frame.data + pageSize), (frame.page - 1) * pageSize);
  }
  return { image: asRollbackJournal(image), frames: committed.length };
}

function fingerprint(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  } catch {
    return 'absent';
  }
}

function readIfPresent(file: string): Uint8Array | undefined {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Reads `dbFile` and `dbFile-wal` without writing anything. A checkpoint between the two reads would pair a
 * main file and a WAL of different moments, so the pair is read again (a few times) until neither file
 * changed meanwhile.
 */
export function readWalSnapshot(dbFile: string, attempts = 5): WalReplay {
  const walFile = `${dbFile}-wal`;
  let main: Uint8Array = new Uint8Array(0);
  let wal: Uint8Array | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const before = `${fingerprint(dbFile)}|${fingerprint(walFile)}`;
    main = fs.readFileSync(dbFile);
    wal = readIfPresent(walFile);
    if (`${fingerprint(dbFile)}|${fingerprint(walFile)}` === before) break;
  }
  return applyWal(main, wal);
}
