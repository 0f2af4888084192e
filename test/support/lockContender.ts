/**
 * One contender of the writer-lock stress test (test/unit/lockRace.test.ts), run as its own process:
 * `node lockContender.js LOCK HOLDERS_DIR HOLD_MS`. For each line `go <epoch ms>` on stdin it waits until
 * that moment (so all contenders start together), tries to take the lock once, and prints one JSON line:
 * whether it got the lock and the most holders it saw at once. A holder marks itself in HOLDERS_DIR for as
 * long as it holds the lock and counts the marks right after taking the lock and right before letting go.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { tryAcquireLock } from '../../src/engine/storage/writerLock';

const [lockPath, holdersDir, holdMs] = process.argv.slice(2);

function holdersNow(): number {
  return fs.readdirSync(holdersDir).length;
}

async function attempt(startAt: number): Promise<{ acquired: boolean; seen: number }> {
  // Sleep until just before the start, then spin: a timer alone wakes each contender at a different moment.
  await new Promise((resolve) => setTimeout(resolve, startAt - Date.now() - 5));
  while (Date.now() < startAt) {
    // Spinning.
  }
  const lock = tryAcquireLock(lockPath, `contender ${process.pid}`);
  if (!lock) return { acquired: false, seen: 0 };
  const mark = path.join(holdersDir, String(process.pid));
  fs.writeFileSync(mark, '');
  let seen = holdersNow();
  await new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
  seen = Math.max(seen, holdersNow());
  fs.rmSync(mark);
  lock.release();
  return { acquired: true, seen };
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const startAt = Number(line.split(' ')[1]);
  void attempt(startAt).then((result) => process.stdout.write(`${JSON.stringify(result)}\n`));
});
process.stdout.write('ready\n');
