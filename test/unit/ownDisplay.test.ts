/**
 * Where an agent's own display counts otherwise than the gauge (Codex's footer leaves 12,000 tokens out of
 * the window and the count), the status bar's tooltip says what the agent shows, so the two are not mistaken
 * for one another.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { sessionGauge, sessionOfFile } from '../../src/engine/live/activeSession';
import { gaugeView, ownDisplayText } from '../../src/host/views/gaugeView';
import { FIXTURES_DIR } from '../support/events';

const ROLLOUT = path.join(
  FIXTURES_DIR,
  'codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.excerpt.jsonl',
);

describe("the agent's own display", () => {
  test("Codex: 51% used of 258,400 is what Codex's footer shows as 51% left, and the tooltip says so", async () => {
    const active = sessionOfFile(ROLLOUT);
    const gauge = sessionGauge(active)!;
    await gauge.refresh();
    const view = gaugeView(active.agent, gauge.reading());
    assert.equal(Math.round(view.percent), 51);
    // (258,400 − 12,000 − (132,006 − 12,000)) / (258,400 − 12,000) = 51.3%, as Codex's footer rounds it.
    assert.deepEqual(view.ownDisplay, { percentLeft: 51, baseline: 12_000 });
    assert.equal(
      ownDisplayText(view.agent, view.ownDisplay),
      'Codex CLI itself shows 51% context left: it leaves out 12,000 tokens it keeps for its prompt and tools.',
    );
  });

  test('an agent whose display counts as the gauge does gets no such line', async () => {
    const transcript = path.join(FIXTURES_DIR, 'vscode/transcripts/usage-session.jsonl');
    const gauge = sessionGauge({ agent: 'vscode', file: transcript })!;
    await gauge.refresh();
    const view = gaugeView('vscode', gauge.reading());
    assert.equal(view.ownDisplay, undefined);
    assert.equal(ownDisplayText(view.agent, view.ownDisplay), undefined);
  });
});
