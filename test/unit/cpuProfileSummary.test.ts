/**
 * The profile summary behind "Profile the Extension Host" and the footprint benchmark's figures, on real V8
 * profiles of this process (node:inspector and the pause watch, as the extension records them): busy work in
 * a script of ours counts as ours, and a pause of the host is ours when our code ran most of it; someone
 * else's work and idle time are not ours.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Session } from 'node:inspector';
import type { Profiler } from 'node:inspector';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { describeCpuProfile, isOurPause, summariseCpuProfile } from '../../src/host/cpuProfileSummary';
import { watchPauses } from '../../src/host/editor/pauseWatch';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function post(session: Session, method: string, params: object = {}): Promise<unknown> {
  return new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

/** A script standing for an extension's bundle: a busy loop of `ms`, from its own file. */
function script(name: string): { file: string; spin: (ms: number) => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-profile-'));
  const file = path.join(dir, name, 'dist', 'extension.js');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    'exports.spin = function spin(ms) { const end = performance.now() + ms; let x = 0; while (performance.now() < end) x += Math.sqrt(x + 1); return x; };\n',
  );
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return { file, spin: (require(file) as { spin: (ms: number) => void }).spin };
}

test('a profile tells our busy time, and which of the host pauses were ours, from another extension and idling', async () => {
  const ours = script('ours');
  const theirs = script('theirs');
  const session = new Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 1000 });
  await post(session, 'Profiler.start');
  const watch = watchPauses(50);
  await sleep(100);
  ours.spin(120);
  await sleep(100);
  // Back to back with another extension's work: one pause, mostly theirs.
  theirs.spin(100);
  ours.spin(30);
  theirs.spin(100);
  await sleep(100);
  // Short tasks of ours with the loop turning between them: no pause at all.
  for (let i = 0; i < 5; i++) {
    ours.spin(20);
    await sleep(15);
  }
  const pauses = watch.stop();
  const { profile } = (await post(session, 'Profiler.stop')) as Profiler.StopReturnType;
  session.disconnect();

  const root = path.dirname(path.dirname(ours.file)) + path.sep;
  const summary = summariseCpuProfile(
    profile,
    (url) => url.replace(/^file:\/\//, '').startsWith(root),
    pauses,
  );
  // 250 ms of ours. The bounds are wide: on a loaded machine the process loses the CPU mid-spin, and what is
  // checked is whose time it was, not how long it took.
  assert.ok(summary.oursMs > 150 && summary.oursMs < 450, `ours ${summary.oursMs} ms`);
  // The host was busy with theirs too, and idle for the rest.
  assert.ok(summary.busyMs > summary.oursMs + 150, `busy ${summary.busyMs} ms, ours ${summary.oursMs} ms`);
  assert.ok(summary.busyMs < summary.ms - 150, `busy ${summary.busyMs} of ${summary.ms} ms`);

  const described = JSON.stringify(summary.pauses);
  assert.equal(summary.pauses.length, 2, described);
  const [mixed, mine] = summary.pauses;
  assert.ok(mixed.ms > 200 && mixed.ms < 450 && !isOurPause(mixed), described);
  assert.ok(mixed.oursMs > 15 && mixed.oursMs < 100, described);
  assert.ok(mine.ms > 100 && mine.ms < 250 && isOurPause(mine), described);
  assert.equal(mine.entry, 'spin');
  assert.ok(mine.atMs >= 90 && mine.atMs < 600, described);
  assert.match(
    describeCpuProfile(summary),
    /paused over 50 ms 2 times, 1 of them mostly our code \(\d+ ms at 0\.\d\d s in spin\); the longest of other code \d+ ms/,
  );
});
