/**
 * The profile summary behind "Profile the Extension Host" and the footprint benchmark's idle figure, on real
 * V8 profiles of this process (node:inspector, as the extension records them): busy work in a script of
 * ours counts as ours, with its longest stretch; someone else's work and idle time do not.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Session } from 'node:inspector';
import type { Profiler } from 'node:inspector';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { summariseCpuProfile } from '../../src/host/cpuProfileSummary';

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

test('a profile tells our busy time and longest stretch from another extension and from idling', async () => {
  const ours = script('ours');
  const theirs = script('theirs');
  const session = new Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 1000 });
  await post(session, 'Profiler.start');
  await sleep(100);
  ours.spin(120);
  await sleep(100);
  ours.spin(30);
  await sleep(50);
  theirs.spin(200);
  await sleep(100);
  const { profile } = (await post(session, 'Profiler.stop')) as Profiler.StopReturnType;
  session.disconnect();

  const root = path.dirname(path.dirname(ours.file)) + path.sep;
  const summary = summariseCpuProfile(profile, (url) => url.replace(/^file:\/\//, '').startsWith(root));
  // 150 ms of ours; sampling and timer slack allow some error either way.
  assert.ok(summary.oursMs > 110 && summary.oursMs < 200, `ours ${summary.oursMs} ms`);
  assert.ok(
    summary.longestOursMs > 100 && summary.longestOursMs < 170,
    `longest ${summary.longestOursMs} ms`,
  );
  // The host was busy with theirs too, and idle for the rest.
  assert.ok(summary.busyMs > summary.oursMs + 150, `busy ${summary.busyMs} ms, ours ${summary.oursMs} ms`);
  assert.ok(summary.busyMs < summary.ms - 150, `busy ${summary.busyMs} of ${summary.ms} ms`);
});
