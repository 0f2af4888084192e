import type { BindParams, Database, SqlValue, Statement } from 'sql.js';

export type Row = Record<string, SqlValue>;

/**
 * A sql.js database with a cache of prepared statements. `export()` frees every prepared statement and
 * resets pragmas, so the cache is dropped there and statements are prepared again on next use.
 */
export class Store {
  private statements = new Map<string, Statement>();

  constructor(readonly db: Database) {
    this.applyPragmas();
  }

  private applyPragmas(): void {
    // In-memory database: the snapshot file is the durable copy, so no journal is needed.
    this.db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;');
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
    this.dropStatements();
    const bytes = this.db.export();
    this.applyPragmas();
    return bytes;
  }

  close(): void {
    this.dropStatements();
    this.db.close();
  }

  private dropStatements(): void {
    for (const statement of this.statements.values()) {
      try {
        statement.free();
      } catch {
        // Already freed by sql.js.
      }
    }
    this.statements.clear();
  }
}
