/**
 * The writer lock under contention: many real processes, started at the same moment against one lock left
 * by a dead process, never hold it two at a time; and the takeover's claims neither let two takers in nor
 * keep the lock from being recovered after a taker died halfway.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { lockHolder, tryAcquireLock } from '../../src/engine/storage/writerLock';
import { bundleForNode } from '../support/bundle';

const TRIALS = 30;
const CONTENDERS = 12;
const HOLD_MS = 150;

let dir: string;
let contenderScript: string;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-lock-'));
  await bundleForNode(path.join(dir, 'bundle'), { lockContender: 'test/support/lockContender.ts' });
  contenderScript = path.join(dir, 'bundle', 'lockContender.js');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A pid that certainly is dead: a child that already exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout);
}

function writeStaleLock(lockPath: string, since: number): void {
  fs.writeFileSync(
    lockPath,
    JSON.stringify({ pid: deadPid(), hostname: os.hostname(), since, purpose: 'crashed writer' }),
  );
}

interface Contender {
  child: ChildProcessWithoutNullStreams;
  next(): Promise<string>;
}

function startContender(lockPath: string, holders: string): Contender {
  const child = spawn(process.execPath, [contenderScript, lockPath, holders, String(HOLD_MS)]);
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    async next() {
      const { value, done } = await lines.next();
      if (done) throw new Error(`contender ${child.pid} ended`);
      return value as string;
    },
  };
}

describe('writer lock takeover', () => {
  test(`${CONTENDERS} processes started together against a dead writer's lock: at most one holder, ${TRIALS} trials`, async (t) => {
    const stateDir = path.join(dir, 'race');
    const holders = path.join(dir, 'holders');
    fs.mkdirSync(stateDir);
    fs.mkdirSync(holders);
    const lockPath = path.join(stateDir, 'writer.lock');
    const contenders = Array.from({ length: CONTENDERS }, () => startContender(lockPath, holders));
    try {
      for (const contender of contenders) assert.equal(await contender.next(), 'ready');
      let maxHolders = 0;
      let overlapping = 0;
      for (let trial = 1; trial <= TRIALS; trial++) {
        writeStaleLock(lockPath, trial);
        const startAt = Date.now() + 100;
        for (const contender of contenders) contender.child.stdin.write(`go ${startAt}\n`);
        const results = await Promise.all(
          contenders.map(async (c) => JSON.parse(await c.next()) as { acquired: boolean; seen: number }),
        );
        const seen = Math.max(...results.map((r) => r.seen));
        maxHolders = Math.max(maxHolders, seen);
        if (seen > 1) overlapping++;
        assert.ok(
          results.some((r) => r.acquired),
          `trial ${trial}: nobody recovered the dead writer's lock`,
        );
        assert.equal(fs.existsSync(lockPath), false, `trial ${trial}: every holder let go`);
      }
      t.diagnostic(
        `${TRIALS} trials x ${CONTENDERS} processes: at most ${maxHolders} holder(s) at once; ${overlapping} trials with two or more`,
      );
      assert.equal(overlapping, 0, `${overlapping} of ${TRIALS} trials had ${maxHolders} holders at once`);
    } finally {
      for (const contender of contenders) contender.child.kill();
    }
  });

  test('a taker at work on the same lock is waited for; one that died halfway does not block recovery', async () => {
    const stateDir = fs.mkdtempSync(path.join(dir, 'halfway-'));
    const lockPath = path.join(stateDir, 'writer.lock');
    writeStaleLock(lockPath, 1);
    // The claim a taker writes before replacing the lock names that lock by file and content.
    const replaces = `${fs.statSync(lockPath).ino}:${createHash('sha1').update(fs.readFileSync(lockPath)).digest('hex')}`;
    const taker = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    const claim = { pid: taker.pid, hostname: os.hostname(), since: 2, purpose: 'taker', replaces };
    fs.writeFileSync(`${lockPath}.claim-1`, JSON.stringify(claim));
    try {
      assert.equal(tryAcquireLock(lockPath, 'the next window'), undefined, 'the live taker is ahead');
    } finally {
      taker.kill('SIGKILL');
      await new Promise((resolve) => taker.once('exit', resolve));
    }
    const lock = tryAcquireLock(lockPath, 'the next window');
    assert.ok(lock, 'recovered once that taker is dead');
    assert.equal(lockHolder(lockPath)?.purpose, 'the next window');
    lock.release();
    assert.equal(lockHolder(lockPath), undefined);
  });

  test('a process killed while writing the lock leaves no lock, only a pending text the next taker removes', () => {
    const stateDir = fs.mkdtempSync(path.join(dir, 'killed-'));
    const lockPath = path.join(stateDir, 'writer.lock');
    // What a writer killed between writing its text and linking it into place leaves: never an empty lock.
    const pending = `${lockPath}.pending-${deadPid()}-1`;
    fs.writeFileSync(pending, '{"pid":');
    assert.equal(lockHolder(lockPath), undefined, 'nobody holds the lock');
    const lock = tryAcquireLock(lockPath, 'the next window');
    assert.ok(lock, 'taken at once, without waiting for an unreadable lock to age');
    assert.deepEqual(fs.readdirSync(stateDir), ['writer.lock']);
    lock.release();
  });

  test('claims of killed takers are removed by the next holder, its own at release; a live taker’s stays', async () => {
    const stateDir = fs.mkdtempSync(path.join(dir, 'claims-'));
    const lockPath = path.join(stateDir, 'writer.lock');
    const claimOf = (pid: number | undefined, replaces: string) =>
      JSON.stringify({ pid, hostname: os.hostname(), since: 1, purpose: 'taker', replaces });
    // Takers killed halfway through taking over locks long gone, and one still at work on another lock.
    fs.writeFileSync(`${lockPath}.claim-1`, claimOf(deadPid(), 'gone-1'));
    fs.writeFileSync(`${lockPath}.claim-2`, claimOf(deadPid(), 'gone-2'));
    const taker = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    fs.writeFileSync(`${lockPath}.claim-3`, claimOf(taker.pid, 'another'));
    try {
      const lock = tryAcquireLock(lockPath, 'the next window');
      assert.ok(lock);
      assert.deepEqual(fs.readdirSync(stateDir).sort(), ['writer.lock', 'writer.lock.claim-3']);
      lock.release();
    } finally {
      taker.kill('SIGKILL');
      await new Promise((resolve) => taker.once('exit', resolve));
    }

    // A takeover of a dead writer's lock: the taker's claim is the lock's other name, gone with it.
    fs.rmSync(`${lockPath}.claim-3`);
    writeStaleLock(lockPath, 2);
    const recovered = tryAcquireLock(lockPath, 'the window after');
    assert.ok(recovered);
    recovered.release();
    assert.deepEqual(fs.readdirSync(stateDir), []);
  });

  test('a lock held by a live process is respected, and named', () => {
    const stateDir = fs.mkdtempSync(path.join(dir, 'live-'));
    const lockPath = path.join(stateDir, 'writer.lock');
    const first = tryAcquireLock(lockPath, 'window A');
    assert.ok(first);
    assert.equal(tryAcquireLock(lockPath, 'window B'), undefined);
    assert.equal(lockHolder(lockPath)?.purpose, 'window A');
    first.release();
    const second = tryAcquireLock(lockPath, 'window B');
    assert.ok(second, 'free again once released');
    second.release();
  });
});
