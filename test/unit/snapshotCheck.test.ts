/**
 * The integrity check that guards every open and every follower's reload runs on a worker thread (it reads
 * every page: 1.4 s at a year of history), and gives the verdicts the check on the caller's thread gives:
 * ok for a good snapshot, a reason for each kind of damage. A worker that cannot run leaves the check here.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { integrityHere, integrityOf, readShared } from '../../src/engine/storage/snapshotCheck';
import { useBundle } from '../support/bundle';
import { appendEvents, sessionEvents, tempWorkspace } from '../support/events';

const script = useBundle({ snapshotCheckWorker: 'src/engine/workers/snapshotCheckWorker.ts' });

let ws: ReturnType<typeof tempWorkspace>;
let snapshot = '';
beforeEach(async () => {
  ws = tempWorkspace('cd-check-');
  for (let i = 0; i < 40; i++)
    appendEvents(
      ws.home,
      sessionEvents({
        sessionId: `s${i}`,
        cwd: ws.project,
        startAt: 1.7e12 + i * 3_600_000,
        prompts: [`Teach the parser ${i} about quoted strings`],
        tools: Array.from({ length: 10 }, (_, t) => ({ tool: ['Read', 'Edit'][t % 2] })),
      }),
    );
  const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
  await engine.ingest();
  await engine.close();
  snapshot = engine.snapshotPath;
});
afterEach(() => ws.cleanup());

const damages = {
  'garbage bytes': (file: string) => fs.writeFileSync(file, 'this is not a database at all'.repeat(200)),
  'a torn page': (file: string) => fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2) + 7),
  'flipped bytes inside a page': (file: string) => {
    const bytes = fs.readFileSync(file);
    for (let i = 16384; i < bytes.length; i += 97) bytes[i] ^= 0x5a;
    fs.writeFileSync(file, bytes);
  },
};

describe('snapshot integrity check on a worker thread', () => {
  test('a good snapshot is ok, read into memory the worker shares', async () => {
    const bytes = await readShared(snapshot);
    assert.ok(bytes && bytes.buffer instanceof SharedArrayBuffer);
    assert.equal(bytes.length, fs.statSync(snapshot).size);
    assert.deepEqual(await integrityOf(bytes, script('snapshotCheckWorker')), {
      verdict: 'ok',
      onWorker: true,
    });
    assert.equal(await readShared(path.join(ws.home, 'no-such-file')), undefined);
  });

  for (const [name, damage] of Object.entries(damages)) {
    test(`damaged by ${name}: the worker finds what the check here finds`, async () => {
      damage(snapshot);
      const bytes = (await readShared(snapshot))!;
      const check = await integrityOf(bytes, script('snapshotCheckWorker'));
      assert.ok(check.onWorker);
      assert.notEqual(check.verdict, 'ok');
      assert.equal(check.verdict, await integrityHere(bytes));
    });
  }

  test('a worker that cannot run leaves the check to this thread', async () => {
    const broken = path.join(ws.home, 'broken-worker.js');
    fs.writeFileSync(broken, "throw new Error('damaged script');\n");
    damages['flipped bytes inside a page'](snapshot);
    const bytes = (await readShared(snapshot))!;
    const check = await integrityOf(bytes, broken);
    assert.deepEqual(check, { verdict: await integrityHere(bytes), onWorker: false });
    assert.notEqual(check.verdict, 'ok');
  });
});
