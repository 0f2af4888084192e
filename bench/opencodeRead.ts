/**
 * One read of an opencode store, in a process of its own so that its peak memory is its own (run by
 * opencodeStore.bench.ts): `ours` reads as the live gauge and the import do; `native` asks better-sqlite3
 * for the same rows through the same indexes. Prints one JSON line.
 */
import Database from 'better-sqlite3';
import { opencodeSessions } from '../src/engine/agents/opencode/sessionStore';

const [mode, file, projectRoot, sessionId] = process.argv.slice(2);

async function ours(): Promise<number> {
  const one = await opencodeSessions.read(file, { projectRoot, sessionId });
  const all = await opencodeSessions.read(file, { projectRoot });
  return one.items.length + all.items.length;
}

function native(): number {
  const db = new Database(file, { readonly: true });
  try {
    const ids = db
      .prepare('SELECT id, directory FROM session')
      .all()
      .filter((row) => (row as { directory: string }).directory.startsWith(projectRoot))
      .map((row) => (row as { id: string }).id);
    let rows = 0;
    // As ours: the followed session, then the project's sessions.
    for (const wanted of [[sessionId], ids]) {
      const marks = wanted.map(() => '?').join(',');
      rows += db.prepare(`SELECT * FROM message WHERE session_id IN (${marks})`).all(...wanted).length;
      rows += db.prepare(`SELECT * FROM part WHERE session_id IN (${marks})`).all(...wanted).length;
    }
    return rows;
  } finally {
    db.close();
  }
}

void (async () => {
  const started = performance.now();
  const read = mode === 'native' ? native() : await ours();
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, read, peakRssBytes: process.resourceUsage().maxRSS * 1024 }));
})();
