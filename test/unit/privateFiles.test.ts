/**
 * Private by default: what Context Deck writes under its home is for its owner only (folders 0700, files
 * 0600), a home left open by an earlier version is closed at start without following links, and a settings
 * file Connect edits keeps its own mode and its symlink. Children run with umask 022, the usual default,
 * under which anything not created private would be readable by everyone.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { makeHomePrivate } from '../../src/engine/kernel/privateFiles';
import { startChild } from '../support/childRun';
import { hookEvent, tempWorkspace } from '../support/events';
import { useShippedBundle } from '../support/shipped';

const shipped = useShippedBundle();
let ws: ReturnType<typeof tempWorkspace>;
let umask: number;

before(() => {
  umask = process.umask(0o022);
});
after(() => process.umask(umask));
beforeEach(() => {
  ws = tempWorkspace('cd-private-');
});
afterEach(() => ws.cleanup());

const modeOf = (entry: string) => fs.lstatSync(entry).mode & 0o777;

/** Every entry under `root` with its mode, as `find root -printf '%m %p'` lists them. */
function listing(root: string): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  const stack = [root];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    out.push([path.relative(root, entry) || '.', modeOf(entry)]);
    if (fs.lstatSync(entry).isDirectory())
      for (const name of fs.readdirSync(entry)) stack.push(path.join(entry, name));
  }
  return out.sort(([a], [b]) => a.localeCompare(b));
}

async function run(script: 'cli' | 'hook', args: string[], input?: string): Promise<void> {
  const child = startChild(process.execPath, [shipped(script), ...args, '--home', home()], {
    input,
  });
  assert.equal(await child.exited, 0, child.stderr);
}

/** A home that does not exist yet, as on a first run. */
const home = () => path.join(ws.home, 'context-deck');

describe('private by default', () => {
  test('a first recording, Connect and an ingest leave nothing another user could read', async () => {
    const settings = path.join(ws.project, '.claude', 'settings.local.json');
    fs.mkdirSync(path.dirname(settings));
    fs.writeFileSync(settings, '{}\n');
    await run('hook', [], JSON.stringify(hookEvent('Stop', { cwd: ws.project })));
    await run('cli', ['hooks', 'install', '--scope', 'local', '--project', ws.project]);
    await run('cli', ['ingest', '--project', ws.project]);

    const expected = (name: string) => (fs.lstatSync(path.join(home(), name)).isDirectory() ? '700' : '600');
    // The home alone already keeps everyone else out. Beside it, what the recorder, the recorder's install,
    // the snapshot and the session context write; a settings backup keeps the mode of its settings file, inside the private backups/.
    const mine = listing(home()).filter(
      ([name]) =>
        !name.startsWith('backups/') &&
        (!name.startsWith('projects') || /(db\.sqlite|session-context\.md)$/.test(name)),
    );
    assert.ok(
      mine.some(([name]) => name.startsWith('events/')) &&
        mine.some(([name]) => name.endsWith('db.sqlite')) &&
        mine.some(([name]) => name.endsWith('session-context.md')),
    );
    for (const [name, mode] of mine) assert.equal(mode.toString(8), expected(name), name);
    // What the extension does at start closes whatever else is left open.
    makeHomePrivate(home());
    for (const [name, mode] of listing(home())) assert.equal(mode.toString(8), expected(name), name);
  });

  test('a home an earlier version left open is closed at start; links and FIFOs are left alone', () => {
    const events = path.join(home(), 'events');
    const state = path.join(home(), 'projects', 'p-1');
    fs.mkdirSync(events, { recursive: true, mode: 0o755 });
    fs.mkdirSync(state, { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(events, '2026-01-01.jsonl'), '{}\n', { mode: 0o644 });
    fs.writeFileSync(path.join(state, 'db.sqlite'), 'db', { mode: 0o644 });
    const outside = path.join(ws.home, 'someone-elses.txt');
    fs.writeFileSync(outside, 'not ours', { mode: 0o644 });
    fs.symlinkSync(outside, path.join(events, 'link.jsonl'));
    assert.equal(spawnSync('mkfifo', ['-m', '644', path.join(events, 'fifo.jsonl')]).status, 0);

    const changed = makeHomePrivate(home());
    assert.deepEqual(
      changed.map((entry) => path.relative(fs.realpathSync(home()), entry)).sort(),
      ['', 'events', 'events/2026-01-01.jsonl', 'projects', 'projects/p-1', 'projects/p-1/db.sqlite'].sort(),
    );
    assert.equal(modeOf(outside), 0o644, 'a link’s target is not ours to change');
    assert.ok(fs.lstatSync(path.join(events, 'link.jsonl')).isSymbolicLink());
    assert.equal(modeOf(path.join(events, 'fifo.jsonl')), 0o644, 'a FIFO is never opened');
    assert.deepEqual(makeHomePrivate(home()), [], 'nothing left to change');
  });

  test('Connect keeps a 0600 settings file 0600, and a symlinked one a symlink', async () => {
    const dotfiles = path.join(ws.home, 'dotfiles', 'settings.local.json');
    fs.mkdirSync(path.dirname(dotfiles), { recursive: true });
    fs.writeFileSync(dotfiles, '{ "env": { "ANTHROPIC_API_KEY": "sk-ant-…" } }\n', { mode: 0o600 });
    const settings = path.join(ws.project, '.claude', 'settings.local.json');
    fs.mkdirSync(path.dirname(settings));
    fs.symlinkSync(dotfiles, settings);
    await run('cli', ['hooks', 'install', '--scope', 'local', '--project', ws.project]);
    assert.ok(fs.lstatSync(settings).isSymbolicLink(), 'still a symlink');
    assert.equal(modeOf(dotfiles), 0o600);
    assert.match(fs.readFileSync(dotfiles, 'utf8'), /spool\.sh/, 'written through the link');
  });
});
