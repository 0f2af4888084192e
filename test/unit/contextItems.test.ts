import assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
import { readAdviceState, writeAdviceState } from '../../src/engine/pruning/adviceState';
import { adviseSession, dismissalKey } from '../../src/engine/pruning/sessionAdvice';
import { ContextGauge } from '../../src/engine/live';
import { tempWorkspace } from '../support/events';
import { compactBoundaryLine, promptLine, toolTurnLines, writeTranscript } from '../support/transcripts';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';

const MIN = 60_000;
let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => ws.cleanup());

describe('context items from the transcript', () => {
  test('files read, skills, subagent outputs and MCP servers, with accesses and tokens; a compaction clears them', async () => {
    const now = Date.now();
    const file = path.join(ws.home, 'session.jsonl');
    const base = { sessionId: 's', cwd: ws.project };
    writeTranscript(file, [
      promptLine({ ...base, text: 'Refactor the payment module', at: now - 100 * MIN }),
      ...toolTurnLines({
        ...base,
        turns: [
          {
            tool: 'Read',
            input: { file_path: '/repo/old.ts' },
            resultChars: 40_000,
            tokens: 30_000,
            at: now - 95 * MIN,
          },
        ],
      }),
      compactBoundaryLine({ ...base, at: now - 90 * MIN, preTokens: 150_000 }),
      promptLine({ ...base, text: 'Now fix the payment retries in src/payments.ts', at: now - 80 * MIN }),
      ...toolTurnLines({
        ...base,
        turns: [
          {
            tool: 'Read',
            input: { file_path: '/repo/src/payments.ts' },
            resultChars: 8_000,
            tokens: 60_000,
            at: now - 70 * MIN,
          },
          {
            tool: 'Read',
            input: { file_path: '/repo/src/payments.ts' },
            resultChars: 8_000,
            tokens: 90_000,
            at: now - 3 * MIN,
          },
          {
            tool: 'Skill',
            input: { skill: 'pdf-forms' },
            resultChars: 2_800,
            tokens: 120_000,
            at: now - 150 * MIN,
          },
          {
            tool: 'Task',
            input: { subagent_type: 'Explore', prompt: 'look around' },
            resultChars: 12_000,
            tokens: 150_000,
            at: now - 40 * MIN,
          },
          {
            tool: 'mcp__github__search_issues',
            input: { q: 'x' },
            resultChars: 4_000,
            tokens: 168_000,
            at: now - 20 * MIN,
          },
          { tool: 'Grep', input: { pattern: 'x' }, resultChars: 500, tokens: 169_000, at: now - 10 * MIN },
          {
            tool: 'Edit',
            input: { file_path: '/repo/src/payments.ts', old_string: 'a', new_string: 'b' },
            resultChars: 400,
            tokens: 170_000,
            at: now - 2 * MIN,
          },
        ],
      }),
    ]);
    const gauge = new ContextGauge(file, claudeCodeAdapter);
    await gauge.refresh();
    const reading = gauge.reading();
    const items = Object.fromEntries(reading.items.map((item) => [item.id, item]));
    assert.deepEqual(Object.keys(items).sort(), [
      'file:/repo/src/payments.ts',
      'mcp_server:github',
      'skill:pdf-forms',
      'subagent:Explore',
    ]);
    const payments = items['file:/repo/src/payments.ts'];
    assert.deepEqual(
      [payments.accesses, payments.tokens, payments.editedAt, payments.lastAccessAt],
      [3, 4_100, now - 2 * MIN + 1000, now - 2 * MIN + 1000],
      'two reads of 8,000 characters and an edit, the edit the latest use (at its result)',
    );
    assert.equal(items['skill:pdf-forms'].tokens, 700);
    assert.equal(reading.latestPrompt, 'Now fix the payment retries in src/payments.ts');
    assert.equal(reading.prompts, 1, 'one prompt since the compaction');
    assert.equal(reading.percent, 85);
  });

  test('context-deck prune --json: phase, recommendations with savings, reasons and actions', async () => {
    const now = Date.now();
    const file = path.join(ws.home, 'session.jsonl');
    const base = { sessionId: 'p', cwd: ws.project };
    writeTranscript(file, [
      promptLine({ ...base, text: 'start', at: now - 200 * MIN }),
      promptLine({ ...base, text: 'Fix the checkout totals in cart.ts', at: now - 30 * MIN }),
      ...toolTurnLines({
        ...base,
        turns: [
          {
            tool: 'Read',
            input: { file_path: '/repo/src/legacyReport.ts' },
            resultChars: 20_000,
            tokens: 100_000,
            at: now - 180 * MIN,
          },
          {
            tool: 'Read',
            input: { file_path: '/repo/src/cart.ts' },
            resultChars: 6_000,
            tokens: 150_000,
            at: now - 2 * MIN,
          },
          {
            tool: 'Skill',
            input: { skill: 'pdf-forms' },
            resultChars: 2_800,
            tokens: 170_000,
            at: now - 170 * MIN,
          },
        ],
      }),
    ]);
    const out: string[] = [];
    const code = await runCli(
      ['prune', '--json', '--transcript', file, '--home', ws.home, '--project', ws.project],
      {
        stdout: (text) => out.push(text),
        stderr: () => undefined,
      },
    );
    assert.equal(code, 0);
    const advice = JSON.parse(out.join('\n'));
    assert.equal(advice.percent, 85);
    assert.equal(advice.phase, 'aggressive');
    const items = advice.recommendations.map((rec: { item: string }) => rec.item);
    assert.ok(items.includes('/repo/src/legacyReport.ts'));
    assert.ok(!items.includes('/repo/src/cart.ts'), 'the file of the current task is kept');
    const legacy = advice.recommendations.find(
      (rec: { item: string }) => rec.item === '/repo/src/legacyReport.ts',
    );
    const gauge = new ContextGauge(file, claudeCodeAdapter);
    await gauge.refresh();
    const read = gauge
      .reading()
      .breakdown.items.find((item) => item.ref.file === '/repo/src/legacyReport.ts')!;
    assert.ok(read.measured && read.tokens !== 5_000, 'the breakdown measures the read, not characters / 4');
    assert.deepEqual(
      [legacy.type, legacy.savingTokens, legacy.savingMeasured, legacy.action],
      ['file', read.tokens, true, 'closeFile'],
      "the saving is the breakdown's figure for the read",
    );
    assert.equal(legacy.reason, 'unused for 3 h after one use, unrelated to your latest prompt; saves 50k');
    assert.equal(
      advice.compact,
      '/compact Keep what matters for the current task: fix, checkout, totals, cart, start. ' +
        'Drop the details of: legacyReport.ts, pdf-forms.',
      'the task from the prompts, newest first; the drops by name',
    );
  });

  test('pinned items are never suggested; dismissed ones return once they change; servers never called are items', async () => {
    const now = Date.now();
    const file = path.join(ws.home, 'pins.jsonl');
    const base = { sessionId: 'q', cwd: ws.project };
    const turn = (name: string, minutesAgo: number, tokens: number) => ({
      tool: 'Read',
      input: { file_path: `/repo/${name}` },
      resultChars: 4_000,
      tokens,
      at: now - minutesAgo * MIN,
    });
    writeTranscript(file, [
      promptLine({ ...base, text: 'one', at: now - 300 * MIN }),
      promptLine({ ...base, text: 'Tune the cache eviction', at: now - 200 * MIN }),
      ...toolTurnLines({ ...base, turns: [turn('a.ts', 190, 100_000), turn('b.ts', 180, 170_000)] }),
    ]);
    const gauge = new ContextGauge(file, claudeCodeAdapter);
    await gauge.refresh();
    const ids = (state = readAdviceState(ws.home, 'p1')) =>
      adviseSession(gauge.reading(), { now, servers: ['playwright'], state }).recommendations.map(
        (rec) => rec.itemId,
      );
    assert.deepEqual(ids().sort(), ['file:/repo/a.ts', 'file:/repo/b.ts', 'mcp_server:playwright']);

    const [a] = gauge.reading().items.filter((item) => item.id === 'file:/repo/a.ts');
    writeAdviceState(ws.home, 'p1', { pinned: ['mcp_server:playwright'], dismissed: [dismissalKey(a)] });
    assert.deepEqual(ids(), ['file:/repo/b.ts']);

    // a.ts is read again: it changed, so the dismissal no longer holds.
    writeTranscript(file, toolTurnLines({ ...base, turns: [turn('a.ts', 100, 171_000)] }));
    await gauge.refresh();
    assert.ok(ids().includes('file:/repo/a.ts'));
    assert.ok(!ids().includes('mcp_server:playwright'), 'pins last');
  });
});
