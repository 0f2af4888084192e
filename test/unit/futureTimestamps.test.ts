/**
 * A line stamped in the future by a wrong clock (2099) is taken as written when its log file last changed:
 * it never stays "just now" on top of the memory's findings and sessions, and a rebuild gives the same times.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { afterEach, beforeEach, test } from 'node:test';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { appendEvents, sessionEvents, tempWorkspace } from '../support/events';

let ws: ReturnType<typeof tempWorkspace>;

beforeEach(() => {
  ws = tempWorkspace('cd-future-');
});
afterEach(() => ws.cleanup());

test('events stamped 2099 are clamped to the time their log file was last written, the same at a rebuild', async () => {
  const file = appendEvents(
    ws.home,
    sessionEvents({
      sessionId: 'wrong-clock',
      cwd: ws.project,
      startAt: Date.parse('2099-01-01T00:00:00Z'),
      prompts: ['fix the build'],
      tools: [{ tool: 'Bash', error: 'Error: the build failed' }],
    }),
  );
  const writtenBy = Math.ceil(fs.statSync(file).mtimeMs);
  const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
  try {
    const times = () => ({
      lastEvent: engine.lastEventAt(),
      latestObservation: engine.store.number('SELECT max(at) FROM observations'),
      sessionEnd: engine.store.number('SELECT max(last_event_at) FROM sessions'),
    });
    await engine.ingest();
    assert.ok(engine.store.number('SELECT count(*) FROM observations') > 0, 'the session left findings');
    const read = times();
    assert.deepEqual(read, { lastEvent: writtenBy, latestObservation: writtenBy, sessionEnd: writtenBy });
    await engine.rebuild();
    assert.deepEqual(times(), read);
  } finally {
    await engine.close();
  }
});
