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
    /** An upsert clause (`ON CONFLICT ...`) applied to every row. */
    onConflict = '',
  ) {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const into = `${verb} INTO ${table} (${columns.join(', ')}) VALUES`;
    this.oneRowSql = `${into} ${tuple} ${onConflict}`;
    this.fullBatchSql = `${into} ${Array(ROWS_PER_STATEMENT).fill(tuple).join(', ')} ${onConflict}`;
  }

  add(row: readonly SqlValue[]): void {
    this.addFrom(row, 0);
  }

  /**
   * One row taken from a flat array of rows without copying it out: `lead` (values only the writer knows,
   * such as a file id) fills the first columns, then the rest come from `values` at `start`.
   */
  addFrom(values: readonly SqlValue[], start: number, lead: readonly SqlValue[] = []): void {
    for (const value of lead) this.pending.push(value);
    const end = start + this.columns.length - lead.length;
    for (let i = start; i < end; i++) this.pending.push(values[i]);
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
