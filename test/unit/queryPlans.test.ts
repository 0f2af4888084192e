/**
 * The lookups the views repeat at every update (the live gauge, the tool ranking, the next session's
 * context, the memory's counts) must find their rows by index: a scan of a table that grows with history
 * held the extension host 12-200 ms at a year of it (`npm run bench -- --only footprint --big`). Checked on
 * SQLite's own plans, so that a dropped index or a rewritten query that loses it fails here.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import {
  assembleSessionContext,
  assembleSessionContextInSteps,
} from '../../src/engine/context/sessionContextAssembly';
import { latestModel } from '../../src/engine/memory/sessions';
import { memoryCounts } from '../../src/engine/memory/stats';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { rankTools } from '../../src/engine/registry/ranking';
import { findActiveSession } from '../../src/engine/live/activeSession';
import { appendEvents, sessionEvents, tempWorkspace } from '../support/events';

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => ws.cleanup());

/** Three sessions of the last hours, each with a prompt, a read and a command; ingested. */
async function openWithSessions(now: number): Promise<ProjectEngine> {
  for (let i = 0; i < 3; i++)
    appendEvents(
      ws.home,
      sessionEvents({
        sessionId: `s${i}`,
        cwd: ws.project,
        startAt: now - (3 - i) * 3_600_000,
        prompts: [`Fix the failing test number ${i}`],
        tools: [{ tool: 'Read', input: { file_path: `${ws.project}/src/a${i}.ts` } }, { tool: 'Bash' }],
      }),
    );
  const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
  await engine.ingest();
  return engine;
}

/** Calls `seen` with every query the engine prepares, until the function returned is called. */
function watchQueries(engine: ProjectEngine, seen: (sql: string) => void): () => void {
  const store = engine.store;
  const statement = store.statement.bind(store);
  store.statement = (sql: string) => {
    seen(sql);
    return statement(sql);
  };
  return () => {
    store.statement = statement;
  };
}

test('what the views read at every update is looked up by index, never by a scan of history', async () => {
  const now = Date.now();
  const engine = await openWithSessions(now);
  try {
    const store = engine.store;
    const queries = new Set<string>();
    const unwatch = watchQueries(engine, (sql) => queries.add(sql));
    findActiveSession(store, ws.project);
    latestModel(store);
    memoryCounts(store);
    rankTools(engine);
    const context = assembleSessionContext(engine, { now });
    unwatch();
    assert.match(
      JSON.stringify(context),
      /Fix the failing test number 2/,
      'the previous session is summarised',
    );

    const scans: string[] = [];
    for (const sql of queries) {
      if (!/^\s*SELECT/i.test(sql)) continue;
      const plan = store.db.exec(`EXPLAIN QUERY PLAN ${sql}`)[0]?.values.map((row) => String(row[3])) ?? [];
      // A bare SCAN reads every row of a table; an automatic index is built from every row at each query.
      // The registry (a row per tool) and the counters do not grow with history.
      const bad = plan.filter(
        (step) => /^SCAN (?!tool_registry$|counters$)\w+$/.test(step) || /AUTOMATIC/.test(step),
      );
      if (bad.length > 0) scans.push(`${sql.replace(/\s+/g, ' ').trim()}\n    ${bad.join('; ')}`);
    }
    assert.ok(queries.size >= 8, `the lookups ran (${queries.size} queries)`);
    assert.deepEqual(scans, [], `queries that read all of a table:\n${scans.join('\n')}`);
  } finally {
    await engine.close();
  }
});

test('the extension host assembles the same next-session context with the thread let go between queries', async () => {
  const now = Date.now();
  const engine = await openWithSessions(now);
  try {
    let queriesInTask = 0;
    let mostInATask = 0;
    const unwatch = watchQueries(engine, () => {
      mostInATask = Math.max(mostInATask, ++queriesInTask);
    });
    let pauses = 0;
    const context = await assembleSessionContextInSteps(engine, { now }, async () => {
      pauses++;
      queriesInTask = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    });
    unwatch();
    assert.deepEqual(context, assembleSessionContext(engine, { now }));
    assert.match(context.text, /Fix the failing test number 2/);
    assert.ok(pauses >= 8, `${pauses} pauses`);
    // The previous session's summary is its six lookups; every other task runs one.
    assert.ok(mostInATask <= 6, `at most ${mostInATask} queries in one task`);
  } finally {
    await engine.close();
  }
});
