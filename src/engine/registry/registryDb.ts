/** Database helpers shared by the registry's passes. */
import type { BindParams, SqlValue } from 'sql.js';
import type { ProjectStore } from '../storage/projectStore';
import type { Row, Store } from '../storage/store';

/** What the registry's write passes need of a project engine. */
export type RegistryWriter = Pick<ProjectStore, 'store' | 'role' | 'noteExternalChange'>;

/** A reader's database is replaced by the writer's next snapshot: writing to it would silently vanish. */
export function assertWriter(engine: RegistryWriter, what: string): void {
  if (engine.role !== 'writer') throw new Error(`only the window that writes this project can ${what}`);
}

/** Failures among its last 5 calls at which a tool is demoted (seed 002). */
export const DEMOTE_FAILURES = 3;

/**
 * Rows as objects, column names asked once: sql.js's `getAsObject` asks them again for every row, which
 * costs more than the query itself on the registry's thousands of rows.
 */
export function readRows<T extends Row>(store: Store, sql: string, params?: BindParams): T[] {
  const statement = store.statement(sql);
  const rows: T[] = [];
  try {
    if (params) statement.bind(params);
    const columns = statement.getColumnNames();
    while (statement.step()) {
      const values: SqlValue[] = statement.get();
      const row: Row = {};
      for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i];
      rows.push(row as T);
    }
  } finally {
    statement.reset();
  }
  return rows;
}
