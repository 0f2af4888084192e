/**
 * Jobs that yield at the same moment (after a catch-up: the gauge, the registry, the views) must not run back
 * to back in one turn of the event loop, which would hold the extension host as one long task: each turn
 * resumes one of them, and the loop polls for input between.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { yieldToHost } from '../../src/engine/kernel/yieldToHost';

test('jobs yielding at once are resumed one per turn of the event loop, in the order they yielded', async () => {
  // Someone else's work that runs once per turn, as VS Code's own immediates do.
  let turn = 0;
  let turning = true;
  const nextTurn = () => {
    turn++;
    if (turning) setImmediate(nextTurn);
  };
  setImmediate(nextTurn);
  const resumed: Array<{ job: string; turn: number }> = [];
  const job = async (name: string) => {
    for (let slice = 0; slice < 4; slice++) {
      await yieldToHost();
      resumed.push({ job: name, turn });
    }
  };
  await Promise.all(['gauge', 'registry', 'views'].map(job));
  turning = false;
  const turns = resumed.map((entry) => entry.turn);
  assert.equal(new Set(turns).size, turns.length, `one resumption per turn: ${turns.join(', ')}`);
  assert.deepEqual(
    resumed.slice(0, 3).map((entry) => entry.job),
    ['gauge', 'registry', 'views'],
    'first come, first resumed',
  );
  assert.equal(resumed.length, 12);
});
