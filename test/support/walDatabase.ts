/** SQLite databases in WAL mode as opencode keeps its store, written by real SQLite (better-sqlite3). */
import * as fs from 'node:fs';
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

const OPENCODE_DUMP = path.join(
  __dirname,
  '..',
  'fixtures',
  'opencode',
  'opencode-1.18.33.lazyagents.excerpt.sql',
);

/**
 * A large opencode store as opencode 1.18 writes it: the fixture's schema and its one real session, in
 * `projectRoot`, among `others` sessions of another project of 1,250 parts each (about 1.7 MB a session).
 */
export function largeOpencodeStore(dir: string, projectRoot: string, others: number): string {
  const file = path.join(dir, 'opencode.db');
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(fs.readFileSync(OPENCODE_DUMP, 'utf8'));
    db.prepare('UPDATE session SET directory = ?').run(projectRoot);
    db.exec('CREATE TEMP TABLE other AS SELECT * FROM session');
    const session = db.prepare("UPDATE other SET id = ?, directory = '/work/elsewhere'");
    const copy = db.prepare('INSERT INTO session SELECT * FROM other');
    const part = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
    const filler = JSON.stringify({ type: 'text', text: 'x'.repeat(1200) });
    db.transaction(() => {
      for (let s = 0; s < others; s++) {
        session.run(`ses_other${s}`);
        copy.run();
        for (let i = 0; i < 1250; i++)
          part.run(`prt_${s}_${i}`, `msg_other${s}`, `ses_other${s}`, i, i, filler);
      }
    })();
  } finally {
    db.close();
  }
  return file;
}
