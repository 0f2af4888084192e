import type { BindParams, Database, SqlValue, Statement } from 'sql.js';

export type Row = Record<string, SqlValue>;

/** Page size of new databases (SQLite's default is 4 KiB). */
export const PAGE_SIZE = 16384;

/**
 * In-memory database: the snapshot file is the durable copy, so no journal is needed. sql.js keeps the
 * database in an emulated file whose every page read and write crosses into JS: a page cache of the hot pages
 * (16 MiB; 64 MiB read a backlog no faster, and the cache is a second copy of those pages in the extension
 * host's memory) and an exclusive lock keep pages in wasm between transactions, and 16 KiB pages (for new
 * databases) make a quarter as many crossings as the default 4 KiB.
 */
export function setUpStore(db: Database): void {
  db.exec(
    `PRAGMA page_size = ${PAGE_SIZE}; PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; ` +
      'PRAGMA cache_size = -16384; PRAGMA locking_mode = EXCLUSIVE;',
  );
}

/** A sql.js database with a cache of prepared statements (sql.js keeps them, and pragmas, across export). */
export class Store {
  private statements = new Map<string, Statement>();

  constructor(readonly db: Database) {
    setUpStore(db);
  }

  statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  run(sql: string, params?: BindParams): void {
    this.statement(sql).run(params);
  }

  all<T extends Row = Row>(sql: string, params?: BindParams): T[] {
    const statement = this.statement(sql);
    const rows: T[] = [];
    try {
      if (params) statement.bind(params);
      while (statement.step()) rows.push(statement.getAsObject() as T);
    } finally {
      statement.reset();
    }
    return rows;
  }

  get<T extends Row = Row>(sql: string, params?: BindParams): T | undefined {
    const statement = this.statement(sql);
    try {
      if (params) statement.bind(params);
      return statement.step() ? (statement.getAsObject() as T) : undefined;
    } finally {
      statement.reset();
    }
  }

  /** The first column of the first row, as a number. */
  number(sql: string, params?: BindParams): number {
    const row = this.get(sql, params);
    return row ? Number(Object.values(row)[0] ?? 0) : 0;
  }

  transaction<T>(work: () => T): T {
    this.db.exec('BEGIN');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  export(): Uint8Array {
    return this.db.export();
  }

  /** Closes the database; sql.js frees its statements with it. */
  close(): void {
    this.statements.clear();
    this.db.close();
  }
}
