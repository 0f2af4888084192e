/**
 * A read-only reader of the SQLite file format (https://www.sqlite.org/fileformat2.html) that reads pages on
 * demand, for databases too large to load whole (opencode keeps every project's sessions in one `opencode.db`
 * that grows past a gigabyte). Memory stays at the page cache, one offset per page held in the WAL, and one
 * row; reads are async, so the thread is free between pages.
 *
 * - WAL: the committed frames of `<file>-wal` replace main-file pages (sqliteWal.ts). Nothing is ever written,
 *   not even the `-shm` a real SQLite reader updates, so no lock keeps a checkpoint from running meanwhile:
 *   opening is retried until the main file and the WAL header did not change around indexing the WAL, and a
 *   WAL frame rewritten after that is detected when read (a SqliteFileError: open again). A checkpoint that
 *   copies newer pages into the main file during a long read cannot be detected; what it can cause (a row
 *   missed or seen twice, a malformed structure) is bounded like any corruption.
 * - Bounds: a row whose payload is over `maxRowBytes` is skipped before its overflow chain is read, and
 *   counted in `skippedRows`. Every traversal checks page numbers, cell bounds, b-tree depth (64), pages
 *   entered twice and overflow chains, so a corrupt file is a SqliteFileError, never a hang.
 * - Tables: rowid tables only (WITHOUT ROWID, virtual tables and generated columns are a SqliteFileError).
 *   Columns come from the CREATE TABLE sql; fields missing from rows written before an ALTER TABLE ADD COLUMN
 *   read as the column's DEFAULT when it is a literal, else as null.
 * - Lookups: `rowsWhere` compares values as stored, under the BINARY collation and without type affinity
 *   (the text '1' does not match the integer 1; 1 matches 1.0); null matches NULL.
 */
import * as fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { fileKind } from './boundedRead';
import {
  type KeyProbe,
  type SqlValue,
  type TextCodec,
  SqliteFileError,
  compareField,
  compareNumbers,
  compareProbes,
  decodeRecord,
  fieldValue,
  keyProbe,
  numberIfSafe,
  readSize,
  readVarint,
  recordLayout,
  textCodec,
  u16,
  u32,
} from './sqliteRecord';
import { type TableShape, parseCreateIndex, parseCreateTable, sameName } from './sqliteSchemaSql';
import { WAL_HEADER_BYTES, type WalIndex, indexWal, isPageSize, readWalFrame } from './sqliteWal';

export { SqliteFileError } from './sqliteRecord';
export type { SqlValue } from './sqliteRecord';

export interface SqliteReadLimits {
  /** A row whose payload is larger is skipped (and counted in `skippedRows`), never read. Default 16 MiB. */
  maxRowBytes?: number;
  /** B-tree pages kept in memory (0: none). Default 256. */
  maxPagesCached?: number;
}

/** A row of sqlite_schema. */
export interface SchemaEntry {
  type: string;
  name: string;
  tableName: string;
  rootPage: number;
  sql: string | null;
}

/** A table row keyed by its column names. */
export type Row = Record<string, SqlValue>;

const DEFAULT_MAX_ROW_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_PAGES_CACHED = 256;
const MAX_DEPTH = 64;
const OPEN_ATTEMPTS = 5;
/** SQLite's hard limit on a value's length, and so on a cell's payload. */
const MAX_PAYLOAD_BYTES = 2 ** 31 - 1;
const HEADER_MAGIC = 'SQLite format 3\0';

const LEAF_TABLE = 0x0d;
const INTERIOR_TABLE = 0x05;
const LEAF_INDEX = 0x0a;
const INTERIOR_INDEX = 0x02;

interface WalFile {
  handle: FileHandle;
  index: WalIndex;
}

/** Pages by number, from the WAL when it holds them, else from the main file; b-tree pages through an LRU cache. */
class PageStore {
  pagesRead = 0;
  closed = false;
  private readonly cache = new Map<number, Uint8Array>();

  constructor(
    private readonly main: FileHandle,
    private readonly wal: WalFile | undefined,
    readonly pageSize: number,
    readonly pageCount: number,
    private readonly maxCached: number,
  ) {}

  async cached(page: number, from: number): Promise<Uint8Array> {
    if (this.closed) throw new SqliteFileError('the database is closed');
    const hit = this.cache.get(page);
    if (hit) {
      this.cache.delete(page);
      this.cache.set(page, hit);
      return hit;
    }
    const data = await this.read(page, from);
    if (this.maxCached > 0) {
      this.cache.set(page, data);
      if (this.cache.size > this.maxCached) this.cache.delete(this.cache.keys().next().value as number);
    }
    return data;
  }

  /** A page past the cache: overflow pages are read once, and would only push b-tree pages out. */
  async read(page: number, from: number): Promise<Uint8Array> {
    if (this.closed) throw new SqliteFileError('the database is closed');
    if (!Number.isInteger(page) || page < 1 || page > this.pageCount)
      throw new SqliteFileError(
        `page ${page}, ${from === 0 ? 'named in the schema' : `referenced from page ${from}`}, is not among the database's ${this.pageCount} pages (is the file truncated?)`,
      );
    this.pagesRead++;
    const frame = this.wal?.index.frames.get(page);
    if (this.wal && frame !== undefined) return readWalFrame(this.wal.handle, this.wal.index, page, frame);
    const data = new Uint8Array(this.pageSize);
    const { bytesRead } = await this.main.read(data, 0, this.pageSize, (page - 1) * this.pageSize);
    if (bytesRead < this.pageSize) throw new SqliteFileError(`page ${page} is past the end of the file`);
    return data;
  }
}

/** Pages one traversal entered: entering one again means the b-tree loops or shares a page. */
class Visited {
  private readonly bits: Uint8Array;

  constructor(
    pageCount: number,
    private readonly root: number,
  ) {
    this.bits = new Uint8Array(Math.floor(pageCount / 8) + 1);
  }

  enter(page: number): void {
    const byte = Math.floor(page / 8);
    const bit = 1 << (page % 8);
    if (this.bits[byte] & bit)
      throw new SqliteFileError(`page ${page} appears twice in the b-tree rooted at page ${this.root}`);
    this.bits[byte] |= bit;
  }
}

interface BtreeNode {
  page: number;
  data: Uint8Array;
  leaf: boolean;
  cellCount: number;
  /** Where the cell pointer array starts. */
  pointers: number;
  rightChild: number;
}

/** A cell's payload: its size, the part on the page, and the first page of the rest. */
interface PayloadCell {
  page: number;
  data: Uint8Array;
  size: number;
  localStart: number;
  localSize: number;
  firstOverflow: number;
}

interface UsableIndex {
  name: string;
  rootPage: number;
  descending: boolean;
}

async function openRegularFile(file: string): Promise<FileHandle> {
  // O_NONBLOCK: a FIFO in the file's place must not block the open.
  const handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  const stat = await handle.stat();
  if (stat.isFile()) return handle;
  await handle.close();
  throw new SqliteFileError(`${file} is ${fileKind(stat)}, not a regular file`);
}

async function identity(file: string): Promise<string> {
  try {
    const stat = await fs.promises.stat(file, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw error;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** The WAL's committed frames, or undefined when there is no WAL or it commits nothing. */
async function openWal(file: string): Promise<WalFile | undefined> {
  let handle: FileHandle;
  try {
    handle = await openRegularFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const index = await indexWal(handle);
    if (index) return { handle, index };
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return undefined;
}

/** Whether the WAL at `file` is still the one indexed, not restarted by a checkpoint (appended frames are fine). */
async function walUnchanged(file: string, wal: WalFile): Promise<boolean> {
  const header = new Uint8Array(WAL_HEADER_BYTES);
  await wal.handle.read(header, 0, WAL_HEADER_BYTES, 0);
  const opened = await wal.handle.stat({ bigint: true });
  const atPath = await identity(file);
  return sameBytes(header, wal.index.header) && atPath.startsWith(`${opened.ino}:`);
}

export class SqliteFile {
  private skipped = 0;
  private entries: readonly SchemaEntry[] = [];
  private readonly shapes = new Map<string, TableShape>();

  private constructor(
    private readonly pages: PageStore,
    private readonly usable: number,
    private readonly codec: TextCodec,
    private readonly maxRowBytes: number,
    private readonly handles: readonly FileHandle[],
  ) {}

  /**
   * Opens `file` (and its `-wal`) for reading. Rejects with a SqliteFileError when it is no SQLite database
   * or is malformed, with the file system's error when it cannot be read.
   */
  static async open(file: string, limits: SqliteReadLimits = {}): Promise<SqliteFile> {
    for (let attempt = 1; ; attempt++) {
      const before = await identity(file);
      const main = await openRegularFile(file);
      let wal: WalFile | undefined;
      try {
        const opened = await main.stat({ bigint: true });
        wal = await openWal(`${file}-wal`);
        // A checkpoint between indexing the WAL and reading the main file would pair two moments.
        const unchanged =
          before === `${opened.ino}:${opened.size}:${opened.mtimeNs}` &&
          before === (await identity(file)) &&
          (!wal || (await walUnchanged(`${file}-wal`, wal)));
        if (unchanged) return await SqliteFile.read(main, Number(opened.size), wal, limits);
      } catch (error) {
        await Promise.all([main.close(), wal?.handle.close()]);
        throw error;
      }
      await Promise.all([main.close(), wal?.handle.close()]);
      if (attempt === OPEN_ATTEMPTS)
        throw new SqliteFileError(`${file} kept changing (checkpoints) while being opened: try again`);
    }
  }

  private static async read(
    main: FileHandle,
    mainSize: number,
    wal: WalFile | undefined,
    limits: SqliteReadLimits,
  ): Promise<SqliteFile> {
    const head = new Uint8Array(100);
    const headBytes = (await main.read(head, 0, 100, 0)).bytesRead;
    const mainHeader =
      headBytes === 100 && Buffer.from(head.subarray(0, 16)).toString('latin1') === HEADER_MAGIC;
    if (!wal && !mainHeader)
      throw new SqliteFileError(headBytes === 0 ? 'the file is empty' : 'the file is not a SQLite database');
    const pageSize = wal ? wal.index.pageSize : u16(head, 16) === 1 ? 65536 : u16(head, 16);
    if (!isPageSize(pageSize)) throw new SqliteFileError(`the page size ${pageSize} is invalid`);

    // The in-header size counts when the change counter matches "version valid for"; else the file's size.
    const mainPages = Math.floor(mainSize / pageSize);
    const headerPages = mainHeader && u32(head, 24) === u32(head, 92) ? u32(head, 28) : 0;
    const declared = wal ? wal.index.databasePages : headerPages || mainPages;
    // Pages neither file holds cannot be read: past them is where a truncated file ends.
    const pageCount = Math.min(declared, Math.max(mainPages, wal?.index.lastPage ?? 0));
    if (pageCount < 1) throw new SqliteFileError('the file holds no complete page');
    const store = new PageStore(
      main,
      wal,
      pageSize,
      pageCount,
      limits.maxPagesCached ?? DEFAULT_MAX_PAGES_CACHED,
    );

    const first = await store.cached(1, 0);
    if (Buffer.from(first.subarray(0, 16)).toString('latin1') !== HEADER_MAGIC)
      throw new SqliteFileError('page 1 is not a SQLite database header');
    const declaredSize = u16(first, 16) === 1 ? 65536 : u16(first, 16);
    if (declaredSize !== pageSize)
      throw new SqliteFileError(`the header's page size ${declaredSize} differs from the WAL's ${pageSize}`);
    if (first[19] > 2)
      throw new SqliteFileError(`file format version ${first[19]} is newer than this reader`);
    if (first[21] !== 64 || first[22] !== 32 || first[23] !== 32)
      throw new SqliteFileError('the header has invalid payload fractions');
    const usable = pageSize - first[20];
    if (usable < 480) throw new SqliteFileError(`the usable page size ${usable} is under 480 bytes`);

    const reader = new SqliteFile(
      store,
      usable,
      textCodec(u32(first, 56)),
      limits.maxRowBytes ?? DEFAULT_MAX_ROW_BYTES,
      wal ? [main, wal.handle] : [main],
    );
    reader.entries = await reader.readSchema();
    return reader;
  }

  private async readSchema(): Promise<SchemaEntry[]> {
    const entries: SchemaEntry[] = [];
    for await (const { payload } of this.tableRows(1)) {
      const [type, name, tableName, rootPage, sql] = decodeRecord(payload, this.codec);
      if (
        typeof type !== 'string' ||
        typeof name !== 'string' ||
        typeof tableName !== 'string' ||
        typeof rootPage !== 'number' ||
        (typeof sql !== 'string' && sql !== null)
      )
        throw new SqliteFileError(`sqlite_schema has a malformed row (${String(name)})`);
      entries.push({ type, name, tableName, rootPage, sql });
    }
    return entries;
  }

  schema(): readonly SchemaEntry[] {
    return this.entries;
  }

  /** Rows skipped because their payload is over `maxRowBytes`: each time one is met, by any read. */
  get skippedRows(): number {
    return this.skipped;
  }

  /** Pages read from the files (cache misses and overflow pages). */
  get pagesRead(): number {
    return this.pages.pagesRead;
  }

  /** The rows of `table` in rowid order. */
  async *scan(table: string): AsyncIterable<Row> {
    const { rootPage, shape } = this.table(table);
    for await (const { rowid, payload } of this.tableRows(rootPage)) yield this.row(shape, payload, rowid);
  }

  /**
   * The rows of `table` whose `column` equals one of `values`. Through an index that starts with `column`
   * (not partial, BINARY collation) when there is one, in index order: by value, then by the index's further
   * columns; by the rowid when `column` is the INTEGER PRIMARY KEY; else a scan, in rowid order.
   */
  async *rowsWhere(table: string, column: string, values: readonly SqlValue[]): AsyncIterable<Row> {
    const { rootPage, shape } = this.table(table);
    const columnIndex = shape.columns.findIndex((candidate) => sameName(candidate.name, column));
    if (columnIndex < 0) throw new SqliteFileError(`table ${table} has no column ${column}`);
    const probes = values
      .map((value) => keyProbe(value, this.codec))
      .sort(compareProbes)
      .filter((probe, i, sorted) => i === 0 || compareProbes(sorted[i - 1], probe) !== 0);
    if (probes.length === 0) return;

    if (columnIndex === shape.rowidColumn) {
      for (const probe of probes) {
        if (probe.rank !== 1 || (typeof probe.number === 'number' && !Number.isInteger(probe.number)))
          continue;
        const rowid = typeof probe.number === 'number' ? numberIfSafe(BigInt(probe.number)) : probe.number;
        const found = await this.rowPayload(rootPage, rowid);
        if (found instanceof Uint8Array) yield this.row(shape, found, rowid);
      }
      return;
    }

    const index = this.indexOn(table, shape, columnIndex);
    if (!index) {
      const name = shape.columns[columnIndex].name;
      for await (const { rowid, payload } of this.tableRows(rootPage)) {
        const row = this.row(shape, payload, rowid);
        const value = keyProbe(row[name], this.codec);
        if (probes.some((probe) => compareProbes(value, probe) === 0)) yield row;
      }
      return;
    }
    if (index.descending) probes.reverse();
    for (const probe of probes) {
      for await (const entry of this.indexMatches(index, probe)) {
        const layout = recordLayout(entry);
        const rowid = fieldValue(entry, layout, layout.types.length - 1, this.codec);
        if (typeof rowid !== 'number' && typeof rowid !== 'bigint')
          throw new SqliteFileError(`an entry of index ${index.name} ends in no rowid`);
        const found = await this.rowPayload(rootPage, rowid);
        if (found === 'missing')
          throw new SqliteFileError(`index ${index.name} names row ${rowid}, which table ${table} lacks`);
        if (found instanceof Uint8Array) yield this.row(shape, found, rowid);
      }
    }
  }

  async close(): Promise<void> {
    if (this.pages.closed) return;
    this.pages.closed = true;
    await Promise.all(this.handles.map((handle) => handle.close()));
  }

  private table(table: string): { rootPage: number; shape: TableShape } {
    const entry = this.entries.find(
      (candidate) => candidate.type === 'table' && sameName(candidate.name, table),
    );
    if (!entry) throw new SqliteFileError(`the database has no table ${table}`);
    if (entry.sql === null || entry.rootPage < 1)
      throw new SqliteFileError(`table ${table} has no b-tree (root page ${entry.rootPage})`);
    let shape = this.shapes.get(entry.name);
    if (!shape) {
      shape = parseCreateTable(entry.sql, entry.name);
      this.shapes.set(entry.name, shape);
    }
    return { rootPage: entry.rootPage, shape };
  }

  private indexOn(table: string, shape: TableShape, columnIndex: number): UsableIndex | undefined {
    const column = shape.columns[columnIndex];
    for (const entry of this.entries) {
      // Automatic indexes (UNIQUE, PRIMARY KEY) have no sql: which columns they hold is not written down.
      if (entry.type !== 'index' || entry.sql === null || !sameName(entry.tableName, table)) continue;
      let index;
      try {
        index = parseCreateIndex(entry.sql, entry.name);
      } catch (error) {
        // An index this reader cannot parse is only not used.
        if (error instanceof SqliteFileError) continue;
        throw error;
      }
      const collation = index.collation ?? column.collation ?? 'BINARY';
      if (
        !index.partial &&
        index.firstColumn !== undefined &&
        sameName(index.firstColumn, column.name) &&
        sameName(collation, 'BINARY')
      )
        return { name: entry.name, rootPage: entry.rootPage, descending: index.descending };
    }
    return undefined;
  }

  private row(shape: TableShape, payload: Uint8Array, rowid: number | bigint): Row {
    const layout = recordLayout(payload);
    // fromEntries defines each key as an own property, also one named __proto__.
    return Object.fromEntries(
      shape.columns.map((column, i) => {
        if (i === shape.rowidColumn) return [column.name, rowid];
        if (i < layout.types.length) return [column.name, fieldValue(payload, layout, i, this.codec)];
        const fallback = column.defaultValue;
        return [column.name, fallback instanceof Uint8Array ? fallback.slice() : fallback];
      }),
    );
  }

  private async node(page: number, from: number, kind: 'table' | 'index'): Promise<BtreeNode> {
    const data = await this.pages.cached(page, from);
    const at = page === 1 ? 100 : 0;
    const type = data[at];
    const [leafType, interiorType] =
      kind === 'table' ? [LEAF_TABLE, INTERIOR_TABLE] : [LEAF_INDEX, INTERIOR_INDEX];
    if (type !== leafType && type !== interiorType)
      throw new SqliteFileError(`page ${page} (type ${type}, from page ${from}) is no ${kind} b-tree page`);
    const leaf = type === leafType;
    const pointers = at + (leaf ? 8 : 12);
    const cellCount = u16(data, at + 3);
    if (pointers + 2 * cellCount > this.usable)
      throw new SqliteFileError(`page ${page} claims ${cellCount} cells, more than fit in it`);
    return { page, data, leaf, cellCount, pointers, rightChild: leaf ? 0 : u32(data, at + 8) };
  }

  private cellStart(node: BtreeNode, index: number): number {
    const start = u16(node.data, node.pointers + 2 * index);
    if (start < node.pointers + 2 * node.cellCount || start + 4 > this.usable)
      throw new SqliteFileError(
        `cell ${index} of page ${node.page} starts at ${start}, outside its cell area`,
      );
    return start;
  }

  /** The child left of cell `index`; the right-most child for `index` = cellCount. */
  private childOf(node: BtreeNode, index: number): number {
    return index === node.cellCount ? node.rightChild : u32(node.data, this.cellStart(node, index));
  }

  /** The payload of a cell whose payload starts at `start`, split per the file format's local-size formulas. */
  private payloadAt(node: BtreeNode, start: number, size: number, table: boolean): PayloadCell {
    const usable = this.usable;
    const maxLocal = table ? usable - 35 : Math.floor(((usable - 12) * 64) / 255) - 23;
    const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
    let localSize = size;
    if (size > maxLocal) {
      const spread = minLocal + ((size - minLocal) % (usable - 4));
      localSize = spread <= maxLocal ? spread : minLocal;
    }
    const overflows = localSize < size;
    if (start + localSize + (overflows ? 4 : 0) > usable)
      throw new SqliteFileError(`a cell of page ${node.page} runs past the end of the page`);
    return {
      page: node.page,
      data: node.data,
      size,
      localStart: start,
      localSize,
      firstOverflow: overflows ? u32(node.data, start + localSize) : 0,
    };
  }

  private tableLeafCell(node: BtreeNode, index: number): { rowid: number | bigint; cell: PayloadCell } {
    const start = this.cellStart(node, index);
    const [size, afterSize] = readSize(node.data, start, this.usable, MAX_PAYLOAD_BYTES, 'a payload size');
    const [rowid, afterRowid] = readVarint(node.data, afterSize, this.usable);
    return { rowid, cell: this.payloadAt(node, afterRowid, size, true) };
  }

  private interiorKey(node: BtreeNode, index: number): number | bigint {
    return readVarint(node.data, this.cellStart(node, index) + 4, this.usable)[0];
  }

  private async indexEntry(node: BtreeNode, index: number): Promise<Uint8Array> {
    const start = this.cellStart(node, index) + (node.leaf ? 0 : 4);
    const [size, afterSize] = readSize(node.data, start, this.usable, MAX_PAYLOAD_BYTES, 'a payload size');
    if (size > this.maxRowBytes)
      throw new SqliteFileError(`an index entry on page ${node.page} is ${size} bytes, over the row limit`);
    return this.payload(this.payloadAt(node, afterSize, size, false));
  }

  /** A cell's whole payload: the local part, then its overflow chain, which must be just as long as needed. */
  private async payload(cell: PayloadCell): Promise<Uint8Array> {
    const local = cell.data.subarray(cell.localStart, cell.localStart + cell.localSize);
    if (cell.localSize === cell.size) return local;
    const payload = new Uint8Array(cell.size);
    payload.set(local);
    const chain = new Set<number>();
    const perPage = this.usable - 4;
    let filled = cell.localSize;
    let next = cell.firstOverflow;
    let from = cell.page;
    const problem = (what: string) =>
      new SqliteFileError(`the overflow chain of a cell of page ${cell.page} ${what}`);
    while (filled < cell.size) {
      if (next === 0) throw problem(`ends after ${filled} of its ${cell.size} bytes`);
      if (chain.has(next)) throw problem(`loops back to page ${next}`);
      chain.add(next);
      const data = await this.pages.read(next, from);
      const take = Math.min(perPage, cell.size - filled);
      payload.set(data.subarray(4, 4 + take), filled);
      filled += take;
      from = next;
      next = u32(data, 0);
    }
    if (next !== 0) throw problem(`is longer than its ${cell.size} bytes need`);
    return payload;
  }

  /** Rows of the table b-tree at `root`, leaf by leaf, left to right. */
  private async *tableRows(root: number): AsyncGenerator<{ rowid: number | bigint; payload: Uint8Array }> {
    const visited = new Visited(this.pages.pageCount, root);
    const enter = (page: number, from: number) => {
      visited.enter(page);
      return this.node(page, from, 'table');
    };
    // Interior pages above the current leaf, each with the next child to enter.
    const stack: Array<{ node: BtreeNode; next: number }> = [];
    let node = await enter(root, 0);
    for (;;) {
      while (!node.leaf) {
        if (stack.length === MAX_DEPTH) throw this.tooDeep(root);
        stack.push({ node, next: 1 });
        node = await enter(this.childOf(node, 0), node.page);
      }
      for (let i = 0; i < node.cellCount; i++) {
        const { rowid, cell } = this.tableLeafCell(node, i);
        if (cell.size > this.maxRowBytes) this.skipped++;
        else yield { rowid, payload: await this.payload(cell) };
      }
      while (stack.length > 0 && stack[stack.length - 1].next > stack[stack.length - 1].node.cellCount)
        stack.pop();
      const parent = stack[stack.length - 1];
      if (!parent) return;
      node = await enter(this.childOf(parent.node, parent.next++), parent.node.page);
    }
  }

  private tooDeep(root: number): SqliteFileError {
    return new SqliteFileError(`the b-tree rooted at page ${root} is deeper than ${MAX_DEPTH} levels`);
  }

  /** The payload of row `rowid` of the table b-tree at `root`; 'tooLarge' when it is skipped (and counted). */
  private async rowPayload(
    root: number,
    rowid: number | bigint,
  ): Promise<Uint8Array | 'missing' | 'tooLarge'> {
    const path: number[] = [];
    for (let page = root, from = 0; ;) {
      if (path.includes(page))
        throw new SqliteFileError(`the b-tree rooted at page ${root} loops at page ${page}`);
      if (path.length === MAX_DEPTH) throw this.tooDeep(root);
      path.push(page);
      const node = await this.node(page, from, 'table');
      // The first cell whose key is not below rowid: on a leaf, the row; on an interior page, its left child
      // holds keys up to that cell's.
      let low = 0;
      let high = node.cellCount;
      while (low < high) {
        const middle = (low + high) >>> 1;
        const key = node.leaf ? this.tableLeafCell(node, middle).rowid : this.interiorKey(node, middle);
        if (compareNumbers(key, rowid) < 0) low = middle + 1;
        else high = middle;
      }
      if (!node.leaf) {
        from = page;
        page = this.childOf(node, low);
        continue;
      }
      if (low === node.cellCount) return 'missing';
      const { rowid: found, cell } = this.tableLeafCell(node, low);
      if (compareNumbers(found, rowid) !== 0) return 'missing';
      if (cell.size <= this.maxRowBytes) return this.payload(cell);
      this.skipped++;
      return 'tooLarge';
    }
  }

  /** How an index entry orders against `probe` by its first column, in the index's direction. */
  private order(entry: Uint8Array, probe: KeyProbe, index: UsableIndex): number {
    const layout = recordLayout(entry);
    if (layout.types.length < 2)
      throw new SqliteFileError(`index ${index.name} has an entry without its rowid`);
    const order = compareField(entry, layout, 0, probe);
    return index.descending ? -order : order;
  }

  /**
   * The entries of `index` whose first column equals `probe`, in index order: a descent to the first entry not
   * before it, then entries in order (an interior page's entries come between its children) until one is after.
   */
  private async *indexMatches(index: UsableIndex, probe: KeyProbe): AsyncGenerator<Uint8Array> {
    const visited = new Visited(this.pages.pageCount, index.rootPage);
    const enter = (page: number, from: number) => {
      visited.enter(page);
      return this.node(page, from, 'index');
    };
    // Interior pages above the current leaf, each with the child being read.
    const stack: Array<{ node: BtreeNode; child: number }> = [];
    let node = await enter(index.rootPage, 0);
    let at: number;
    for (;;) {
      let low = 0;
      let high = node.cellCount;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (this.order(await this.indexEntry(node, middle), probe, index) < 0) low = middle + 1;
        else high = middle;
      }
      at = low;
      if (node.leaf) break;
      if (stack.length === MAX_DEPTH) throw this.tooDeep(index.rootPage);
      stack.push({ node, child: at });
      node = await enter(this.childOf(node, at), node.page);
    }
    for (;;) {
      for (; at < node.cellCount; at++) {
        const entry = await this.indexEntry(node, at);
        const order = this.order(entry, probe, index);
        if (order > 0) return;
        if (order === 0) yield entry;
      }
      while (stack.length > 0 && stack[stack.length - 1].child >= stack[stack.length - 1].node.cellCount)
        stack.pop();
      const parent = stack[stack.length - 1];
      if (!parent) return;
      const entry = await this.indexEntry(parent.node, parent.child);
      const order = this.order(entry, probe, index);
      if (order > 0) return;
      if (order === 0) yield entry;
      parent.child++;
      node = await enter(this.childOf(parent.node, parent.child), parent.node.page);
      while (!node.leaf) {
        if (stack.length === MAX_DEPTH) throw this.tooDeep(index.rootPage);
        stack.push({ node, child: 0 });
        node = await enter(this.childOf(node, 0), node.page);
      }
      at = 0;
    }
  }
}
