/**
 * Entries of the event log folder that are not regular files - a FIFO, a folder, a link to /dev/zero or to a
 * credentials file - are skipped with a warning, never read or waited on, and the recorder never writes into
 * one. Whatever could hang runs as a real child process (the bundled CLI and recorder).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { listLogFiles } from '../../src/engine/log/ingest';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { startChild, until } from '../support/childRun';
import { hookEvent, tempWorkspace } from '../support/events';
import { appendSession, savedEvents, useShippedBundle } from '../support/shipped';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY';

const shipped = useShippedBundle();
let ws: ReturnType<typeof tempWorkspace>;

beforeEach(() => {
  ws = tempWorkspace('cd-hostile-');
});
afterEach(() => ws.cleanup());

const eventsDir = () => path.join(ws.home, 'events');

/** A credentials file outside the home, as a user has them. */
function credentialsFile(): string {
  const file = path.join(path.dirname(ws.home), 'credentials');
  fs.writeFileSync(
    file,
    `[default]\naws_access_key_id = AKIAQ7XZ3V5B7N9M2K4L\naws_secret_access_key = ${SECRET}\n`,
  );
  return file;
}

function mkfifo(file: string): void {
  assert.equal(spawnSync('mkfifo', [file]).status, 0, `mkfifo ${file}`);
}

function plant(kinds: Array<'fifo' | 'folder' | 'zero' | 'credentials'>): string[] {
  fs.mkdirSync(eventsDir(), { recursive: true });
  return kinds.map((kind, i) => {
    const entry = path.join(eventsDir(), `0${i}-${kind}.jsonl`);
    if (kind === 'fifo') mkfifo(entry);
    else if (kind === 'folder') fs.mkdirSync(entry);
    else fs.symlinkSync(kind === 'zero' ? '/dev/zero' : credentialsFile(), entry);
    return entry;
  });
}

const seedSession = (id: string) => appendSession(ws.home, ws.project, id);

const cli = (...args: string[]) =>
  startChild(process.execPath, [shipped('cli'), ...args, '--home', ws.home, '--project', ws.project]);

describe('hostile entries in events/', () => {
  test('a folder and a link to a credentials file are skipped: ingest works and stores nothing of them', async () => {
    const planted = plant(['folder', 'credentials']);
    const sent = seedSession('s1');
    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    try {
      const result = await engine.ingest();
      assert.deepEqual({ events: result.events, rejected: result.rejected }, { events: sent, rejected: 0 });
      assert.deepEqual(engine.rejects(), []);
    } finally {
      await engine.close();
    }
    assert.ok(
      !fs.readFileSync(engine.snapshotPath).includes(SECRET),
      'the secret never reached the database',
    );
    // What the dashboard and the CLI warn with, once each.
    const listing = listLogFiles(eventsDir());
    assert.deepEqual(listing.files, [path.join(eventsDir(), 'test.jsonl')]);
    assert.deepEqual(listing.skipped, [
      `${planted[0]} is a folder, not an event log file: it is not read.`,
      `${planted[1]} is a symbolic link, not an event log file: it is not read.`,
    ]);
  });

  test('ingest --follow is not stopped by a FIFO or a link to /dev/zero, says so once, and keeps reading', async () => {
    const planted = plant(['fifo', 'zero', 'folder', 'credentials']);
    const sent = seedSession('s1');
    const run = cli('ingest', '--follow', '--json', '--save-interval', '0');
    await until(() => planted.every((entry) => run.stderr.includes(entry)), 'a warning for each entry');

    // Still following: a new session is read and saved.
    const more = seedSession('s2');
    await until(
      async () => (await savedEvents(ws.home, ws.project)) === sent + more,
      'the new session saved',
    );
    run.child.kill('SIGINT');
    assert.equal(await run.exited, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { events: number; rejected: number };
    assert.deepEqual(
      { events: result.events, rejected: result.rejected },
      { events: sent + more, rejected: 0 },
    );
    for (const entry of planted) {
      assert.equal(run.stderr.split(entry).length - 1, 1, `one warning for ${entry}:\n${run.stderr}`);
    }
  });

  test('the recorder never waits on a FIFO nor writes through a link standing in for today’s log', async () => {
    const payload = JSON.stringify(hookEvent('Stop', { cwd: ws.project }));
    fs.mkdirSync(eventsDir(), { recursive: true });
    const today = () => path.join(eventsDir(), `${new Date().toISOString().slice(0, 10)}.jsonl`);
    const record = () =>
      startChild(process.execPath, [shipped('hook'), '--home', ws.home], { input: payload });

    mkfifo(today());
    const fifo = record();
    assert.equal(await fifo.exited, 0, 'exits (0) instead of waiting for a reader');
    assert.match(fifo.stderr, /not a regular file/);
    fs.rmSync(today());

    const credentials = credentialsFile();
    const before = fs.readFileSync(credentials, 'utf8');
    fs.symlinkSync(credentials, today());
    const link = record();
    assert.equal(await link.exited, 0);
    assert.match(link.stderr, /symbolic link/);
    assert.equal(fs.readFileSync(credentials, 'utf8'), before, 'nothing was appended to the link’s target');
  });
});
