/**
 * Saves that write only what changed. sql.js hands the database over whole, but history that has not changed
 * sits in pages that have not changed: the new image is compared with the file on disk page by page, and only
 * the differing pages are written, in place. They go through a redo journal (`<file>.pages`), synced before
 * the file is touched, so that a crash at any point leaves the old image (the journal is torn: dropped) or
 * the new one (the journal is whole: replayed at the next open).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { syncDirectory, writeFileAtomic, writeSynced } from './snapshot';

export const JOURNAL_SUFFIX = '.pages';
const MAGIC = Buffer.from('CDPAGES1');
/** Magic, new file size, page size, page count. */
const HEADER_BYTES = MAGIC.length + 8 + 4 + 4;
const DIGEST_BYTES = 20;
/** Compared a piece at a time: the old file is never read whole into memory. */
const READ_BYTES = 1 << 20;
/** Past this share of pages changed, one whole write (atomic rename) costs less than journal and pages. */
const WHOLE_WRITE_SHARE = 0.5;

export interface PageSave {
  /** Bytes written to the database file (the journal writes as much again). */
  writtenBytes: number;
}

/** What a journal holds: the file's new size and its changed pages. */
interface JournalPages {
  size: number;
  pageSize: number;
  pages: Array<{ page: number; data: Uint8Array }>;
}

/** SQLite's page size, from the header (offset 16, big-endian; 1 means 65536). */
function pageSizeOf(header: Uint8Array): number {
  const size = (header[16] << 8) | header[17];
  return size === 1 ? 65536 : size;
}

const journalOf = (target: string) => `${target}${JOURNAL_SUFFIX}`;

/** Whether a save is being applied to `target` (a reader must not trust what it reads now). */
export function saveInProgress(target: string): boolean {
  return fs.existsSync(journalOf(target));
}

/** Write `image` to `target`, only the pages that differ from what is there. */
export async function savePages(target: string, image: Uint8Array): Promise<PageSave> {
  const dirty = await changedPages(target, image);
  if (!dirty || dirty.pages.length * dirty.pageSize > WHOLE_WRITE_SHARE * image.length) {
    await writeFileAtomic(target, image);
    return { writtenBytes: image.length };
  }
  const changed = journalPages(image, dirty.pageSize, dirty.pages);
  await writeJournal(target, encodeJournal(changed));
  await applyJournal(target, changed);
  return { writtenBytes: dirty.pages.length * dirty.pageSize };
}

function journalPages(image: Uint8Array, pageSize: number, pages: number[]): JournalPages {
  return {
    size: image.length,
    pageSize,
    pages: pages.map((page) => ({ page, data: image.subarray(page * pageSize, (page + 1) * pageSize) })),
  };
}

/** The numbers of the pages of `image` that differ from `target`'s; undefined when there is nothing to compare with. */
async function changedPages(
  target: string,
  image: Uint8Array,
): Promise<{ pageSize: number; pages: number[] } | undefined> {
  if (image.length < 100) return undefined;
  const pageSize = pageSizeOf(image);
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(target, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(Math.max(READ_BYTES - (READ_BYTES % pageSize), pageSize));
    const fresh = Buffer.from(image.buffer, image.byteOffset, image.length);
    const pages: number[] = [];
    for (let offset = 0; offset < image.length; offset += buffer.length) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      if (offset === 0 && (bytesRead < 100 || pageSizeOf(buffer) !== pageSize)) return undefined;
      for (let at = 0; at < buffer.length && offset + at < image.length; at += pageSize) {
        const end = Math.min(at + pageSize, image.length - offset);
        const same =
          at + pageSize <= bytesRead && buffer.compare(fresh, offset + at, offset + end, at, end) === 0;
        if (!same) pages.push((offset + at) / pageSize);
      }
    }
    return { pageSize, pages };
  } finally {
    await handle.close();
  }
}

function encodeJournal({ size, pageSize, pages }: JournalPages): Buffer {
  const journal = Buffer.alloc(HEADER_BYTES + pages.length * (4 + pageSize) + DIGEST_BYTES);
  MAGIC.copy(journal, 0);
  journal.writeBigUInt64BE(BigInt(size), MAGIC.length);
  journal.writeUInt32BE(pageSize, MAGIC.length + 8);
  journal.writeUInt32BE(pages.length, MAGIC.length + 12);
  let at = HEADER_BYTES;
  for (const { page, data } of pages) {
    journal.writeUInt32BE(page, at);
    journal.set(data, at + 4);
    at += 4 + pageSize;
  }
  createHash('sha1').update(journal.subarray(0, at)).digest().copy(journal, at);
  return journal;
}

/** The journal's pages, or undefined when it is torn or not ours. */
function decodeJournal(journal: Buffer): JournalPages | undefined {
  if (journal.length < HEADER_BYTES + DIGEST_BYTES || !journal.subarray(0, MAGIC.length).equals(MAGIC))
    return undefined;
  const body = journal.length - DIGEST_BYTES;
  const digest = createHash('sha1').update(journal.subarray(0, body)).digest();
  if (!digest.equals(journal.subarray(body))) return undefined;
  const size = Number(journal.readBigUInt64BE(MAGIC.length));
  const pageSize = journal.readUInt32BE(MAGIC.length + 8);
  const count = journal.readUInt32BE(MAGIC.length + 12);
  if (HEADER_BYTES + count * (4 + pageSize) !== body) return undefined;
  const pages = [];
  for (let i = 0, at = HEADER_BYTES; i < count; i++, at += 4 + pageSize)
    pages.push({ page: journal.readUInt32BE(at), data: journal.subarray(at + 4, at + 4 + pageSize) });
  return { size, pageSize, pages };
}

/** The journal, durable before the database file is touched. */
export async function writeJournal(target: string, journal: Buffer): Promise<void> {
  const file = journalOf(target);
  try {
    await writeSynced(file, journal, 'w');
  } catch (error) {
    // A journal that did not get whole to disk never touched the file: the old image stands.
    await fs.promises.rm(file, { force: true });
    throw new Error(`could not write ${target}: ${(error as Error).message}`, { cause: error });
  }
  await syncDirectory(path.dirname(file));
}

/** Write the journal's pages into the database file, then drop the journal. */
async function applyJournal(target: string, { size, pageSize, pages }: JournalPages): Promise<void> {
  const handle = await fs.promises.open(target, 'r+');
  try {
    for (const { page, data } of pages) await handle.write(data, 0, data.length, page * pageSize);
    await handle.truncate(size);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rm(journalOf(target), { force: true });
}

/**
 * At open, before the file is read: a whole journal left by a save that was cut short is replayed (the new
 * image), a torn one dropped (the file never saw it). Returns what was done.
 */
export async function recoverPages(target: string): Promise<'replayed' | 'dropped' | 'none'> {
  let journal: JournalPages | undefined;
  try {
    journal = decodeJournal(await fs.promises.readFile(journalOf(target)));
  } catch {
    return 'none';
  }
  if (!journal || !fs.existsSync(target)) {
    await fs.promises.rm(journalOf(target), { force: true });
    return 'dropped';
  }
  await applyJournal(target, journal);
  return 'replayed';
}

/** For tests: the journal a save of `image` over `target` would write, or undefined for a whole write. */
export async function journalFor(target: string, image: Uint8Array): Promise<Buffer | undefined> {
  const dirty = await changedPages(target, image);
  return dirty ? encodeJournal(journalPages(image, dirty.pageSize, dirty.pages)) : undefined;
}
