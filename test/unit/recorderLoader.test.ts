/**
 * hook.js, what agents run: it runs recorder.js beside it from a V8 code cache that the first call writes.
 * Run as shipped: the bundled loader and recorder, copied where Connect installs them (`<home>/bin/`).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { installRecorder } from '../../src/engine/agents/recorderInstall';
import { hookEvent, tempWorkspace } from '../support/events';
import { useShippedBundle } from '../support/shipped';

const shipped = useShippedBundle();
let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace('cd-loader-');
});
afterEach(() => ws.cleanup());

const bin = () => path.join(ws.home, 'bin');
const cacheDir = () => path.join(bin(), 'code-cache');

function runHook(input: string, env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [path.join(bin(), 'hook.js'), '--home', ws.home], {
    input,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', ...env },
  });
}

function eventCount(): number {
  const dir = path.join(ws.home, 'events');
  return fs
    .readdirSync(dir)
    .reduce((n, name) => n + fs.readFileSync(path.join(dir, name), 'utf8').split('\n').length - 1, 0);
}

/** A stand-in recorder that prints `text`, its file dated `mtime`. */
function writeRecorder(text: string, mtime: Date): void {
  const file = path.join(bin(), 'recorder.js');
  fs.writeFileSync(file, `require('node:fs').writeSync(1, ${JSON.stringify(text)});\n`);
  fs.utimesSync(file, mtime, mtime);
}

describe('recorder loader (hook.js)', () => {
  test('the first call writes a private code cache; later calls record from it and leave it as it is', () => {
    installRecorder(ws.home, shipped('hook'));
    const payload = JSON.stringify(hookEvent('Stop', { cwd: ws.project }));
    const first = runHook(payload);
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stderr, '');
    const [cache, ...others] = fs.readdirSync(cacheDir());
    assert.equal(others.length, 0);
    assert.match(cache, new RegExp(`^${process.version.replace(/\./g, '\\.')}-${process.arch}-`));
    const file = path.join(cacheDir(), cache);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(cacheDir()).mode & 0o777, 0o700);
    const written = fs.statSync(file).mtimeMs;

    for (let i = 0; i < 3; i++) assert.equal(runHook(payload).status, 0);
    assert.equal(eventCount(), 4);
    assert.equal(fs.statSync(file).mtimeMs, written, 'an accepted cache is not written again');
  });

  test('a corrupt cache is set aside: the call records as usual and writes a good one', () => {
    installRecorder(ws.home, shipped('hook'));
    const payload = JSON.stringify(hookEvent('Stop', { cwd: ws.project }));
    assert.equal(runHook(payload).status, 0);
    const [cache] = fs.readdirSync(cacheDir());
    const file = path.join(cacheDir(), cache);
    const good = fs.readFileSync(file);
    fs.writeFileSync(file, Buffer.alloc(good.length, 7));
    const run = runHook(payload);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, '');
    assert.equal(eventCount(), 2);
    assert.notDeepEqual(fs.readFileSync(file), Buffer.alloc(good.length, 7), 'the cache was written anew');
  });

  test('an updated recorder of the same length runs as updated, not from the old cache', () => {
    fs.mkdirSync(bin(), { recursive: true });
    fs.copyFileSync(shipped('hook'), path.join(bin(), 'hook.js'));
    writeRecorder('version A', new Date('2026-01-01T00:00:00Z'));
    assert.equal(runHook('').stdout, 'version A');
    assert.equal(runHook('').stdout, 'version A');
    writeRecorder('version B', new Date('2026-01-02T00:00:00Z'));
    assert.equal(runHook('').stdout, 'version B');
    assert.equal(fs.readdirSync(cacheDir()).length, 1, "the old recorder's cache is dropped");
  });

  test('Node run with other flags keeps a cache of its own beside the first, and neither is rewritten', () => {
    fs.mkdirSync(bin(), { recursive: true });
    fs.copyFileSync(shipped('hook'), path.join(bin(), 'hook.js'));
    writeRecorder('ok', new Date('2026-01-01T00:00:00Z'));
    const flagged = { NODE_OPTIONS: '--max-old-space-size=300' };
    assert.equal(runHook('').stdout, 'ok');
    assert.equal(runHook('', flagged).stdout, 'ok');
    const caches = () =>
      fs
        .readdirSync(cacheDir())
        .map((name) => [name, fs.statSync(path.join(cacheDir(), name)).mtimeMs])
        .sort();
    const written = caches();
    assert.equal(written.length, 2);
    assert.equal(runHook('').stdout, 'ok');
    assert.equal(runHook('', flagged).stdout, 'ok');
    assert.deepEqual(caches(), written);
  });

  test('no recorder beside it: exit 0, nothing recorded, the reason on stderr', () => {
    fs.mkdirSync(bin(), { recursive: true });
    fs.copyFileSync(shipped('hook'), path.join(bin(), 'hook.js'));
    const run = runHook(JSON.stringify(hookEvent('Stop', { cwd: ws.project })));
    assert.equal(run.status, 0);
    assert.match(run.stderr, /context-deck hook: .*recorder\.js/);
    assert.ok(!fs.existsSync(path.join(ws.home, 'events')));
  });
});
