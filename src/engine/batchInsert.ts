import type { SqlValue } from 'sql.js';
import type { Store } from './store';

/** Rows per multi-row INSERT: each sql.js statement call crosses into wasm, so fewer, larger calls win. */
const ROWS_PER_STATEMENT = 64;

/** Buffers rows of one table and writes them with multi-row INSERT statements. */
export class BatchInsert {
  private pending: SqlValue[] = [];
  private readonly oneRowSql: string;
  private readonly fullBatchSql: string;

  constructor(
    private readonly store: Store,
    table: string,
    private readonly columns: readonly string[],
    verb: 'INSERT' | 'INSERT OR IGNORE' = 'INSERT',
  ) {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    this.oneRowSql = `${verb} INTO ${table} (${columns.join(', ')}) VALUES ${tuple}`;
    this.fullBatchSql = `${verb} INTO ${table} (${columns.join(', ')}) VALUES ${Array(ROWS_PER_STATEMENT).fill(tuple).join(', ')}`;
  }

  add(row: readonly SqlValue[]): void {
    this.pending.push(...row);
    if (this.pending.length === ROWS_PER_STATEMENT * this.columns.length) this.flush();
  }

  flush(): void {
    const width = this.columns.length;
    if (this.pending.length === ROWS_PER_STATEMENT * width) {
      this.store.run(this.fullBatchSql, this.pending);
    } else {
      for (let i = 0; i < this.pending.length; i += width)
        this.store.run(this.oneRowSql, this.pending.slice(i, i + width));
    }
    this.pending = [];
  }
}
