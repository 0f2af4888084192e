/**
 * A project's `db.sqlite` that is empty, a folder or unreadable is set aside with a warning and the database
 * rebuilt from the event log, as a damaged one is; the writer lock never outlives the command. Through the
 * bundled CLI, as a user meets it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { startChild } from '../support/childRun';
import { tempWorkspace } from '../support/events';
import { appendSession, savedEvents, useShippedBundle } from '../support/shipped';

const shipped = useShippedBundle();
let ws: ReturnType<typeof tempWorkspace>;

beforeEach(() => {
  ws = tempWorkspace('cd-unusable-db-');
});
afterEach(() => ws.cleanup());

const cli = (...args: string[]) =>
  startChild(process.execPath, [shipped('cli'), ...args, '--home', ws.home, '--project', ws.project]);

async function ingest(): Promise<{ code: number | null; stderr: string }> {
  const run = cli('ingest');
  return { code: await run.exited, stderr: run.stderr };
}

function stateDir(): string {
  const projects = path.join(ws.home, 'projects');
  return path.join(projects, fs.readdirSync(projects)[0]);
}

const cases: Array<{ name: string; spoil: (file: string) => void; skip?: boolean }> = [
  { name: 'empty (0 bytes)', spoil: (file) => fs.truncateSync(file, 0) },
  {
    name: 'a folder',
    spoil: (file) => {
      fs.rmSync(file);
      fs.mkdirSync(file);
    },
  },
  {
    name: 'unreadable',
    spoil: (file) => fs.chmodSync(file, 0),
    // The superuser reads whatever the mode says.
    skip: process.getuid?.() === 0,
  },
];

for (const { name, spoil, skip } of cases) {
  test(
    `a db.sqlite that is ${name} is set aside with a warning and rebuilt from the log`,
    { skip },
    async () => {
      const sent = appendSession(ws.home, ws.project, 's1');
      assert.equal((await ingest()).code, 0);
      const snapshot = path.join(stateDir(), 'db.sqlite');
      spoil(snapshot);

      const run = await ingest();
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stderr,
        /warning: The database snapshot was damaged \(.+\)\. It was moved to .+db\.sqlite\.damaged-/,
      );
      assert.equal(await savedEvents(ws.home, ws.project), sent, 'rebuilt from the event log');
      const entries = fs.readdirSync(stateDir());
      assert.ok(
        entries.some((entry) => entry.startsWith('db.sqlite.damaged-')),
        'the old file is kept aside',
      );
      assert.ok(!entries.includes('writer.lock'), 'no lock left behind');
    },
  );
}
