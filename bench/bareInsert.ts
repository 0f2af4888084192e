/**
 * The reference of the ingest benchmark: sql.js inserting the rows an ingest wrote, bare, as the engine's store
 * sets it up (its page size, cache, lock and journal), with prepared statements and a transaction per chunk's
 * rows: the most the engine could do. Run in the benchmark's process and in a fresh one (sqlJsBareWorker.ts).
 */
import { loadSqlJs } from '../src/engine/kernel/sqlJs';
import { MIGRATIONS } from '../src/engine/storage/schema';
import { setUpStore } from '../src/engine/storage/store';

export const TABLES = [
  'log_files',
  'sessions',
  'tool_calls',
  'prompts',
  'rejects',
  'observations',
  'search_postings',
] as const;

export type Rows = Record<(typeof TABLES)[number], { columns: string[]; values: unknown[][] }>;

function insertSql(table: string, columns: string[]): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}

/** Every insert of the same rows: each table's, the memory's search index included. */
export function insertJobs(rows: Rows): Array<{ sql: string; values: unknown[][] }> {
  return TABLES.map((table) => ({
    sql: insertSql(table, rows[table].columns),
    values: rows[table].values,
  }));
}

export async function sqlJsInsertMs(rows: Rows, batch: number): Promise<number> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  setUpStore(db);
  db.exec(MIGRATIONS.join(';'));
  globalThis.gc?.();
  const started = performance.now();
  for (const job of insertJobs(rows)) {
    const statement = db.prepare(job.sql);
    for (let i = 0; i < job.values.length; i += batch) {
      db.exec('BEGIN');
      for (const row of job.values.slice(i, i + batch)) statement.run(row as never[]);
      db.exec('COMMIT');
    }
    statement.free();
  }
  const ms = performance.now() - started;
  db.close();
  return ms;
}
