import type { Database } from 'sql.js';
import { MIGRATIONS } from '../../src/engine/storage/schema';
import { loadSqlJs } from '../../src/engine/kernel/sqlJs';

/** A database as the version before the migration containing `marker` left it, for upgrade tests. */
export async function databaseBefore(marker: string): Promise<Database> {
  const version = MIGRATIONS.findIndex((migration) => migration.includes(marker));
  if (version <= 0) throw new Error(`no migration after the first contains ${marker}`);
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  for (const migration of MIGRATIONS.slice(0, version)) db.exec(migration);
  db.exec(`PRAGMA user_version = ${version}`);
  return db;
}
