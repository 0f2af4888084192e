/**
 * The views that follow an ingest are one pipeline: `context-deck ingest` (the bundled CLI, a real process)
 * leaves the rows the extension leaves on the same log, its fold of history older than the detail window
 * included.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { afterIngest } from '../../src/engine/project/derivedViews';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { runInSteps } from '../../src/engine/kernel/steps';
import { startChild } from '../support/childRun';
import { appendEvents, type Payload, sessionEvents, tempWorkspace } from '../support/events';
import { useShippedBundle } from '../support/shipped';

const DAY = 86_400_000;
/** The extension's default `contextDeck.history.detailDays`. */
const DETAIL_DAYS = 30;
/** The chunk the extension host reads a small backlog in. */
const HOST_CHUNK_BYTES = 128 * 1024;

const shipped = useShippedBundle();

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace('cd-pipeline-');
});
afterEach(() => ws.cleanup());

/** A year of sessions, all but the last few older than the detail window, with prompts, tools and failures. */
function yearOfHistory(sessions: number): Payload[] {
  const now = Date.now();
  return Array.from({ length: sessions }, (_, i) =>
    sessionEvents({
      sessionId: `year-${i}`,
      cwd: ws.project,
      startAt: now - 365 * DAY + (i * 360 * DAY) / sessions,
      prompts: [`Make the parser ${i} accept quoted strings`, `Now fix test ${i}`],
      tools: Array.from({ length: 10 }, (_, t) => ({
        tool: ['Read', 'Edit', 'Bash', `mcp__docs__search_${i % 3}`][t % 4],
        ...(t === 5 ? { error: 'Exit code 1' } : {}),
      })),
    }),
  ).flat();
}

/** Every table's rows a user sees through (ids and the clock's stamps aside), as another window reads them. */
async function savedTables(home: string) {
  const reader = await ProjectEngine.open({ home, folder: ws.project, role: 'reader' });
  try {
    const rows = (sql: string) => reader.store.all(sql);
    return {
      sessions: rows('SELECT * FROM sessions ORDER BY id'),
      toolCalls: rows(
        'SELECT tool_use_id, session_id, tool_name, success, duration_ms, error, at FROM tool_calls ORDER BY at, tool_use_id',
      ),
      toolDays: rows('SELECT * FROM tool_days ORDER BY day, tool_name'),
      prompts: rows('SELECT session_id, text, at FROM prompts ORDER BY at, text'),
      observations: rows(
        'SELECT id, session_id, agent_type, type, source, text, tokens, at, forgotten_at FROM observations ORDER BY id',
      ),
      memorySessions: rows('SELECT * FROM memory_sessions ORDER BY session_id'),
      compactedSessions: rows('SELECT * FROM compacted_sessions ORDER BY session_id'),
      counters: rows('SELECT * FROM counters ORDER BY name'),
      registry: rows(
        'SELECT name, scope, type, origin, status, status_reason, last_used_at, usage_count, failure_count, window_calls, window_failures, last5_failures, last_error, agents FROM tool_registry ORDER BY name, scope',
      ),
    };
  } finally {
    await reader.close();
  }
}

/** The extension's path: read on the host's thread in its chunks, then the views that follow, then saved. */
async function ingestAsTheHost(home: string): Promise<void> {
  const engine = await ProjectEngine.open({ home, folder: ws.project, role: 'writer' });
  try {
    await engine.ingest({ chunkBytes: HOST_CHUNK_BYTES });
    // As the engine's view scheduler runs the derived views for the host, in steps.
    await runInSteps(afterIngest(engine, { detailDays: DETAIL_DAYS }));
  } finally {
    await engine.close();
  }
}

describe('the views that follow an ingest', () => {
  test('`context-deck ingest` of a year of history leaves the rows the extension leaves, folded', async () => {
    const events = yearOfHistory(120);
    const cliHome = path.join(ws.home, 'cli');
    const hostHome = path.join(ws.home, 'host');
    appendEvents(cliHome, events);
    appendEvents(hostHome, events);

    const cli = startChild(process.execPath, [
      shipped('cli'),
      'ingest',
      '--json',
      '--home',
      cliHome,
      '--project',
      ws.project,
    ]);
    assert.equal(await cli.exited, 0, cli.stderr);
    assert.equal((JSON.parse(cli.stdout) as { events: number }).events, events.length);
    await ingestAsTheHost(hostHome);

    const byCli = await savedTables(cliHome);
    const byHost = await savedTables(hostHome);
    assert.ok(byHost.toolDays.length > 0, 'the extension folded the older calls into daily counts');
    assert.ok(
      byHost.observations.some((row) => row.source === 'digest'),
      'and the older memory into digests',
    );
    assert.deepEqual(byCli, byHost);
    for (const home of [cliHome, hostHome]) {
      const project = fs.readdirSync(path.join(home, 'projects'))[0];
      assert.ok(
        fs.existsSync(path.join(home, 'projects', project, 'session-context.md')),
        'the next session context is written',
      );
    }
  });
});
