/**
 * What is read of events (how many, per agent, the newest, the ids other rows name them by) comes from
 * counters kept by ingest; there is no table of events. The counters must hold after any mix of ingests,
 * and a database written when there was a table gets them from its rows.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { migrate } from '../../src/engine/storage/schema';
import { Store } from '../../src/engine/storage/store';
import {
  eventCount,
  eventsByAgent,
  firstNewEventId,
  lastEventReceivedAt,
} from '../../src/engine/log/eventCounters';
import { FIXTURES_DIR, appendEvents, sessionEvents, tempWorkspace } from '../support/events';
import { databaseBefore } from '../support/oldSchema';

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace('cd-counters-');
});
afterEach(() => ws.cleanup());

/** VS Code's hook events carry no recorder time: they are stamped with the time of ingest. */
function vscodeEvents(cwd: string): Array<Record<string, unknown>> {
  return ['SessionStart.json', 'UserPromptSubmit.json', 'PostToolUse.read_file.json'].map((name) => ({
    ...(JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, 'vscode/local', name), 'utf8')) as object),
    cwd,
  }));
}

test('events, events per agent and the newest event are counted ingest after ingest; ids never repeat', async () => {
  const ingestedAt = 2e12;
  const engine = await ProjectEngine.open({
    home: ws.home,
    folder: ws.project,
    role: 'writer',
    now: () => ingestedAt,
  });
  try {
    assert.deepEqual(engine.counts().agents, {});
    assert.equal(engine.lastEventAt(), null);
    const first = sessionEvents({
      sessionId: 's1',
      cwd: ws.project,
      startAt: 1e12,
      tools: [{ tool: 'Read' }, { tool: 'Bash', error: 'exit 1' }],
    });
    appendEvents(ws.home, first);
    await engine.ingest();
    assert.equal(engine.counts().events, first.length);
    assert.equal(engine.lastEventAt(), 1e12 + (first.length - 1) * 1000);

    const second = sessionEvents({
      sessionId: 's2',
      cwd: ws.project,
      startAt: 1e12 + 120_000,
      tools: [{ tool: 'Edit' }],
    });
    appendEvents(ws.home, vscodeEvents(ws.project), 'vscode.jsonl');
    appendEvents(ws.home, second);
    await engine.ingest();
    const counts = engine.counts();
    assert.equal(counts.events, first.length + second.length + 3);
    assert.deepEqual(counts.agents, { 'claude-code': first.length + second.length, vscode: 3 });
    assert.equal(engine.lastEventAt(), ingestedAt);

    // Tool calls name their event: ids from the second ingest follow those of the first.
    const eventIds = engine.store
      .all('SELECT event_id FROM tool_calls ORDER BY event_id')
      .map((row) => Number(row.event_id));
    assert.equal(eventIds.length, 4);
    assert.equal(new Set(eventIds).size, eventIds.length);
    assert.ok(Math.max(...eventIds) <= counts.events);
  } finally {
    await engine.close();
  }
});

test('a database written with a table of events gets its counters from the rows, and the table goes', async () => {
  const db = await databaseBefore('DROP TABLE events');
  const rows: Array<[number, number, string | null]> = [
    [1, 1000, 'claude-code'],
    [2, 3000, 'claude-code'],
    [3, 2000, null],
    [7, 4000, 'codex'],
  ];
  for (const [id, at, agent] of rows)
    db.run(
      "INSERT INTO events (id, file_id, offset, received_at, session_id, kind, agent) VALUES (?, 1, ?, ?, 's', 'PostToolUse', ?)",
      [id, id * 100, at, agent],
    );
  // The counters an ingest of that version kept.
  db.run(
    "INSERT INTO counters (name, value) VALUES ('events.agent:claude-code', 2), ('events.agent:codex', 1)",
  );
  db.run("INSERT INTO counters (name, value) VALUES ('events.last_received_at', 4000)");
  migrate(db);
  const store = new Store(db);
  try {
    assert.equal(eventCount(store), 4);
    assert.deepEqual(eventsByAgent(store), { 'claude-code': 2, codex: 1 });
    assert.equal(lastEventReceivedAt(store), 4000);
    assert.equal(store.get("SELECT name FROM sqlite_schema WHERE name = 'events'"), undefined);
    // The next event takes the id after the highest ever given, not after the count.
    assert.equal(firstNewEventId(store), 8);
  } finally {
    store.close();
  }
});
