/**
 * The dashboard's event figures (events per agent, the newest event) come from counters kept by ingest, not
 * from scans of the events table: they must say what a scan would, after any mix of ingests, and in a
 * database written before the counters existed (the migration fills them).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { MIGRATIONS } from '../../src/engine/storage/schema';
import { FIXTURES_DIR, appendEvents, sessionEvents, tempWorkspace } from '../support/events';

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace('cd-counters-');
});
afterEach(() => ws.cleanup());

function vscodeEvents(cwd: string, at: number): Array<Record<string, unknown>> {
  return ['SessionStart.json', 'UserPromptSubmit.json', 'PostToolUse.read_file.json'].map((name, i) => ({
    ...(JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, 'vscode/local', name), 'utf8')) as object),
    cwd,
    timestamp: new Date(at + i * 1000).toISOString(),
  }));
}

/** What scans of the events table say. */
function scanned(engine: ProjectEngine) {
  const agents = Object.fromEntries(
    engine.db
      .all('SELECT agent, count(*) AS n FROM events WHERE agent IS NOT NULL GROUP BY agent ORDER BY agent')
      .map((row) => [String(row.agent), Number(row.n)]),
  );
  const newest = engine.db.get('SELECT max(received_at) AS at FROM events')?.at;
  return { agents, lastEventAt: newest == null ? null : Number(newest) };
}

const shown = (engine: ProjectEngine) => ({
  agents: engine.counts().agents,
  lastEventAt: engine.lastEventAt(),
});

test('events per agent and the newest event match a scan of the table, ingest after ingest', async () => {
  const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
  try {
    assert.deepEqual(shown(engine), { agents: {}, lastEventAt: null });
    appendEvents(
      ws.home,
      sessionEvents({ sessionId: 's1', cwd: ws.project, startAt: 1e12, tools: [{ tool: 'Read' }] }),
    );
    await engine.ingest();
    appendEvents(ws.home, vscodeEvents(ws.project, 1e12 + 60_000), 'vscode.jsonl');
    appendEvents(
      ws.home,
      sessionEvents({ sessionId: 's2', cwd: ws.project, startAt: 1e12 + 120_000, tools: [] }),
    );
    await engine.ingest();
    const expected = scanned(engine);
    assert.equal(expected.agents.vscode, 3);
    assert.ok(expected.agents['claude-code'] > 0);
    assert.deepEqual(shown(engine), expected);
  } finally {
    await engine.close();
  }
});

test('a database written before the counters gets them from its rows', async () => {
  const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
  try {
    appendEvents(
      ws.home,
      sessionEvents({ sessionId: 's1', cwd: ws.project, startAt: 1e12, tools: [{ tool: 'Bash' }] }),
    );
    appendEvents(ws.home, vscodeEvents(ws.project, 1e12 + 60_000), 'vscode.jsonl');
    await engine.ingest();
    const expected = scanned(engine);
    // As the version before: no counters, no index.
    engine.db.run("DELETE FROM counters WHERE name LIKE 'events.%'");
    engine.db.run('DROP INDEX tool_calls_failed');
    const migration = MIGRATIONS.find((sql) => sql.includes('events.last_received_at'));
    assert.ok(migration);
    for (const statement of migration.split(';')) if (statement.trim()) engine.db.run(statement);
    assert.deepEqual(shown(engine), expected);
  } finally {
    await engine.close();
  }
});
