/**
 * Everything Context Deck creates holds the agent's activity: folders 0700 and files 0600 from the first byte,
 * whatever the umask, as the bundled CLI creates them in a home that does not exist yet.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { startChild } from '../support/childRun';
import { tempWorkspace } from '../support/events';
import { useShippedBundle } from '../support/shipped';

const shipped = useShippedBundle();
let ws: ReturnType<typeof tempWorkspace>;

beforeEach(() => {
  ws = tempWorkspace('cd-modes-');
});
afterEach(() => ws.cleanup());

/** Every entry below `root` (itself included) whose mode lets group or others in. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const stat = fs.lstatSync(entry);
    if ((stat.mode & 0o077) !== 0) found.push(`${entry} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) stack.push(path.join(entry, name));
  }
  return found;
}

test(
  'the CLI creates a new home, its project folders and files private (0700 and 0600)',
  { skip: process.platform === 'win32' },
  async () => {
    const home = path.join(ws.home, 'new-home');
    const cli = (...args: string[]) =>
      startChild(process.execPath, [shipped('cli'), ...args, '--home', home, '--project', ws.project]);
    const saved = cli('save', 'We decided to keep the cache');
    assert.equal(await saved.exited, 0, saved.stderr);
    const ingested = cli('ingest');
    assert.equal(await ingested.exited, 0, ingested.stderr);
    assert.ok(fs.readdirSync(path.join(home, 'projects')).length > 0, 'a project folder was made');
    assert.deepEqual(openToOthers(home), []);
  },
);
