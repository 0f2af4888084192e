/** SQLite databases in WAL mode as opencode keeps its store, written by real SQLite (better-sqlite3). */
import * as path from 'node:path';
import Database from 'better-sqlite3';

/**
 * `opencode.db` in `dir`, in WAL mode with automatic checkpoints off: while the connection stays open,
 * what it writes stays in the `-wal` file.
 */
export function walDatabase(dir: string): { file: string; db: Database.Database } {
  const file = path.join(dir, 'opencode.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  return { file, db };
}
