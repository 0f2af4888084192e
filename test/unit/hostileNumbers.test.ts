/**
 * Absurd numbers in session files (usage of 1e308, 1e18, negative): never shown, never forecast, never a
 * warning. The line that carries one is rejected and counted with the bad lines; the readings around it
 * stand. Read by the real gauges from real files.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { readRollout } from '../../src/engine/agents/codex/rollout';
import { ContextGauge } from '../../src/engine/live/contextGauge';
import { gaugeOfItems } from '../../src/engine/live/sessionFileGauge';
import { FIXTURES_DIR, tempWorkspace } from '../support/events';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';

const ROLLOUT = path.join(
  FIXTURES_DIR,
  'codex',
  'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.excerpt.jsonl',
);

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => (ws = tempWorkspace('cd-hostile-numbers-')));
afterEach(() => ws.cleanup());

function response(at: number, usage: Record<string, number>) {
  return {
    type: 'assistant',
    sessionId: 'numbers',
    isSidechain: false,
    timestamp: new Date(Date.parse('2026-11-01T10:00:00Z') + at * 1000).toISOString(),
    requestId: `req-${at}`,
    message: {
      id: `msg-${at}`,
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text: 'ok' }],
      usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 7, ...usage },
    },
  };
}

describe('absurd token counts', () => {
  for (const absurd of [1e308, 1e18, -5]) {
    test(`Claude Code: a response claiming ${absurd} input tokens is a bad line; the gauge keeps the last true reading`, async () => {
      const file = path.join(ws.home, 'numbers.jsonl');
      const lines = [response(1, { input_tokens: 40_000 }), response(2, { input_tokens: absurd })];
      fs.writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      const gauge = new ContextGauge(file, claudeCodeAdapter);
      await gauge.refresh();
      const reading = gauge.reading();
      assert.equal(reading.tokens, 40_000);
      assert.ok(Number.isFinite(reading.percent) && reading.percent < 100, String(reading.percent));
      assert.equal(reading.malformed, 1);
      assert.ok(reading.trend.every((point) => Number.isFinite(point.tokens) && point.tokens < 1e8));
    });
  }

  test('Codex: a token count of 1e18 (and a window of 1e308) is rejected; the readings before it stand', () => {
    const lines = fs.readFileSync(ROLLOUT, 'utf8').trimEnd().split('\n');
    const last = lines.map((line) => line.includes('"type":"token_count"')).lastIndexOf(true);
    const absurd = lines[last]
      .replace(/"total_tokens":\d+/g, '"total_tokens":1e18')
      .replace(/"model_context_window":\d+/g, '"model_context_window":1e308');
    const { items, skipped } = readRollout(
      [...lines.slice(0, last), absurd, ...lines.slice(last + 1)].join('\n'),
    );
    const whole = readRollout(lines.join('\n'));
    const reading = gaugeOfItems(ROLLOUT, items, skipped);
    const truth = gaugeOfItems(ROLLOUT, whole.items, whole.skipped);
    assert.ok(Number.isFinite(reading.percent) && reading.percent <= 100, String(reading.percent));
    assert.ok(reading.tokens < 1e8 && reading.tokens > 0);
    assert.equal(reading.window, truth.window);
    assert.equal(reading.malformed, truth.malformed + 1);
    assert.ok(reading.trend.every((point) => point.tokens < 1e8));
  });
});
