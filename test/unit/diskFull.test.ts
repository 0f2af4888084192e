/**
 * Full disks: writes that stop partway lose nothing that was complete. The processes are the real recorder
 * and CLI (bundled), run under a file size limit (`prlimit --fsize`): the kernel then cuts a write short at
 * the limit and fails the next one, exactly as on a full disk (with EFBIG where a full disk says ENOSPC).
 * Raising the limit of the running process (`prlimit --pid`) is the disk getting room again.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { identifyProject } from '../../src/engine/kernel/projectIdentity';
import { startChild, until } from '../support/childRun';
import { hookEvent, tempWorkspace } from '../support/events';
import { appendSession, savedEvents, useShippedBundle } from '../support/shipped';

const hasPrlimit = spawnSync('prlimit', ['--version']).status === 0;
/** Smaller than any snapshot, larger than the lock and the session context. */
const ROOM_BYTES = 16 * 1024;

const shipped = useShippedBundle();
let ws: ReturnType<typeof tempWorkspace>;

beforeEach(() => {
  ws = tempWorkspace('cd-diskfull-');
});
afterEach(() => ws.cleanup());

/** The bundled CLI or recorder, under a file size limit when `roomBytes` is given. */
function run(script: 'cli' | 'hook', args: string[], options: { roomBytes?: number; input?: string } = {}) {
  const node = [process.execPath, shipped(script), ...args, '--home', ws.home];
  const [command, ...rest] =
    options.roomBytes === undefined ? node : ['prlimit', `--fsize=${options.roomBytes}:unlimited`, ...node];
  return startChild(command, rest, { input: options.input });
}

const cli = (args: string[], roomBytes?: number) =>
  run('cli', [...args, '--project', ws.project], { roomBytes });
const stateDir = () => path.join(ws.home, 'projects', identifyProject(ws.project).id);
const leftovers = () =>
  fs.readdirSync(stateDir()).filter((name) => name.includes('.tmp-') || name === 'writer.lock');

const seedSession = (id: string) => appendSession(ws.home, ws.project, id);

describe('full disk', { skip: hasPrlimit ? false : 'needs prlimit (util-linux)' }, () => {
  test('a recorder write cut short costs only its own event, never the next one', async () => {
    const big = JSON.stringify(
      hookEvent('PostToolUse', { cwd: ws.project, tool_response: { stdout: 'x'.repeat(4000) } }),
    );
    const cut = run('hook', [], { roomBytes: 1024, input: big });
    assert.equal(await cut.exited, 0, 'the recorder exits 0 whatever happens');
    const next = run('hook', [], {
      input: JSON.stringify(
        hookEvent('UserPromptSubmit', { cwd: ws.project, prompt: 'after the full disk' }),
      ),
    });
    assert.equal(await next.exited, 0, next.stderr);

    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    try {
      const result = await engine.ingest();
      assert.deepEqual(
        { events: result.events, rejected: result.rejected },
        { events: 1, rejected: 1 },
        'the cut line is rejected alone; the next event is read',
      );
      assert.equal(engine.store.get('SELECT text FROM prompts')?.text, 'after the full disk');
    } finally {
      await engine.close();
    }
  });

  test('ingest --follow keeps following through a full disk, says so once, and saves once there is room', async () => {
    const sent = seedSession('s1');
    const follow = cli(['ingest', '--follow', '--json', '--save-interval', '0'], ROOM_BYTES);
    let more = 0;
    try {
      await until(() => follow.stderr !== '' || follow.child.exitCode !== null, 'the full disk reported');
      assert.equal(follow.child.exitCode, null, `still following:\n${follow.stderr}`);
      assert.match(follow.stderr, /saving the database failed: could not write \S+db\.sqlite: E(FBIG|NOSPC)/);
      assert.deepEqual(
        leftovers().filter((name) => name !== 'writer.lock'),
        [],
        'no temp file',
      );

      more = seedSession('s2');
      const room = spawnSync('prlimit', ['--pid', String(follow.child.pid), '--fsize=unlimited:unlimited']);
      assert.equal(room.status, 0, room.stderr.toString());
      await until(
        async () => (await savedEvents(ws.home, ws.project)) === sent + more,
        'everything saved once there is room',
      );
      await until(() => /saving the database works again/.test(follow.stderr), 'the recovery reported');
      follow.child.kill('SIGINT');
      assert.equal(await follow.exited, 0, follow.stderr);
    } finally {
      follow.child.kill('SIGKILL');
    }
    assert.equal(follow.stderr.match(/saving the database failed/g)?.length, 1, follow.stderr);
    assert.equal((JSON.parse(follow.stdout) as { events: number }).events, sent + more);
    assert.deepEqual(leftovers(), []);
  });

  for (const { what, roomBytes, file } of [
    { what: 'a snapshot', roomBytes: ROOM_BYTES, file: 'db.sqlite' },
    { what: 'the writer lock', roomBytes: 0, file: 'writer.lock' },
  ]) {
    test(`${what} that cannot be written is not left behind, half written; the next run saves everything`, async () => {
      const sent = seedSession('s1');
      const full = cli(['ingest'], roomBytes);
      assert.equal(await full.exited, 1);
      assert.deepEqual(leftovers(), [], 'no temp file, no lock');
      assert.match(full.stderr, new RegExp(`could not write \\S+${file.replace('.', '\\.')}: E(FBIG|NOSPC)`));

      const roomy = cli(['ingest']);
      assert.equal(await roomy.exited, 0, roomy.stderr);
      assert.equal(await savedEvents(ws.home, ws.project), sent);
      assert.deepEqual(leftovers(), []);
    });
  }
});
