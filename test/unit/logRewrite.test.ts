/**
 * A log file edited, cut short or replaced after it was read never has what was read counted twice: new lines
 * are still read, and a warning says what happened.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { startChild } from '../support/childRun';
import { appendEvents, sessionEvents, tempWorkspace, toLines } from '../support/events';
import { useShippedBundle } from '../support/shipped';

const shipped = useShippedBundle();
let ws: ReturnType<typeof tempWorkspace>;

beforeEach(() => {
  ws = tempWorkspace('cd-rewrite-');
});
afterEach(() => ws.cleanup());

const prompts = (sessionId: string, count: number, startAt: number) =>
  sessionEvents({
    sessionId,
    cwd: ws.project,
    startAt,
    prompts: Array.from({ length: count }, (_, i) => `prompt ${i} of ${sessionId}`),
  });

/** A file of 500 prompts, read once; returns the engine and the file. */
async function readOnce(): Promise<{ engine: ProjectEngine; file: string }> {
  const file = appendEvents(ws.home, prompts('first', 500, 1e12));
  const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
  await engine.ingest();
  assert.equal(engine.counts().prompts, 500);
  return { engine, file };
}

describe('a log file rewritten after it was read', () => {
  test('edited in place (a line changed and one removed) then appended to: only the new lines are read', async () => {
    const { engine, file } = await readOnce();
    try {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines[10] = lines[10].replace('prompt 9 of first', 'prompt nine, reworded');
      lines.splice(20, 1);
      fs.writeFileSync(file, lines.join('\n') + toLines(prompts('second', 3, 2e12)));
      const result = await engine.ingest();
      assert.equal(engine.counts().prompts, 503);
      assert.equal(result.rewritten.length, 1);
      assert.match(result.rewritten[0], /was changed after it was read: what was read is not counted again/);
      const again = await engine.ingest();
      assert.deepEqual([again.events, again.rewritten], [0, []], 'said once');
    } finally {
      await engine.close();
    }
  });

  test('cut short in the middle of a line, then appended to: nothing read twice, the new lines read', async () => {
    const { engine, file } = await readOnce();
    try {
      fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
      const result = await engine.ingest();
      assert.equal(engine.counts().prompts, 500);
      assert.match(result.rewritten[0], /was cut short .* what was read is not counted again/);
      // The recorder ends a cut line before it appends its own (log/eventLog.ts).
      fs.appendFileSync(file, `\n${toLines(prompts('second', 3, 2e12))}`);
      const more = await engine.ingest();
      assert.equal(engine.counts().prompts, 503);
      assert.deepEqual([more.rejected, more.rewritten], [0, []], 'the rest of the cut line was read already');
    } finally {
      await engine.close();
    }
  });

  test('the CLI warns when it finds a file cut short, and counts nothing twice', async () => {
    const { engine, file } = await readOnce();
    await engine.close();
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 3));
    const run = startChild(process.execPath, [
      shipped('cli'),
      'ingest',
      '--json',
      '--home',
      ws.home,
      '--project',
      ws.project,
    ]);
    assert.equal(await run.exited, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`warning: .*${file.split('/').at(-1)} was cut short`));
    assert.equal((JSON.parse(run.stdout) as { events: number }).events, 0);
  });
});
