import assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import {
  type CompactWarningInput,
  CompactWarnings,
  DEFAULT_COMPACT_WARNING,
  compactWarning,
} from '../../src/engine/context/compactWarning';
import { ContextGauge } from '../../src/engine/live';
import { tempWorkspace } from '../support/events';
import { promptLine, toolTurnLines, writeTranscript } from '../support/transcripts';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';

const NOW = Date.parse('2026-11-01T12:00:00Z');
const MIN = 60_000;

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => ws.cleanup());

/** The reading of a session that read a file per step, a minute apart, up to now, at the given sizes. */
async function session(sizes: number[], prompts = 1): Promise<CompactWarningInput> {
  const file = path.join(ws.home, `${sizes.join('-')}.jsonl`);
  const base = { sessionId: 'warned', cwd: ws.project };
  const start = NOW - sizes.length * MIN;
  writeTranscript(file, [
    ...Array.from({ length: prompts }, (_, i) =>
      promptLine({ ...base, text: `prompt ${i}`, at: start - (prompts - i) * 1000 }),
    ),
    ...toolTurnLines({
      ...base,
      turns: sizes.map((tokens, i) => ({
        tool: 'Read',
        input: { file_path: path.join(ws.project, `f${i}.ts`) },
        resultChars: 4000,
        tokens,
        at: start + (i + 1) * MIN,
      })),
    }),
  ]);
  const gauge = new ContextGauge(file, claudeCodeAdapter);
  await gauge.refresh();
  const reading = gauge.reading();
  return {
    session: reading.sessionId!,
    compactions: reading.compactions.length,
    percent: reading.percent,
    updatedAt: reading.updatedAt,
    forecast: reading.forecast,
  };
}

const steps = (from: number, by: number, count: number) =>
  Array.from({ length: count }, (_, i) => from + i * by);

describe('the compact warning', () => {
  test('under the threshold: nothing', async () => {
    // 60k at +3k a step, 4 prompts for 8 steps: about 18 prompts left, 41% full.
    const input = await session(steps(60_000, 3_000, 8), 4);
    assert.ok(input.forecast.promptsLeft! > 2 && input.percent < 85);
    assert.equal(compactWarning(input, DEFAULT_COMPACT_WARNING, new CompactWarnings(), NOW), undefined);
  });

  test('two prompts left: one warning naming the forecast and what grows it; the same level not again', async () => {
    // 100k at +5k a step, 10 steps for 4 prompts (2.5 a prompt): 145k, 5 steps, 2 prompts left.
    const input = await session(steps(100_000, 5_000, 10), 4);
    assert.equal(input.forecast.promptsLeft, 2);
    const warnings = new CompactWarnings();
    const warning = compactWarning(input, DEFAULT_COMPACT_WARNING, warnings, NOW)!;
    assert.equal(warning.level, 'near');
    assert.match(
      warning.message,
      /^Context 73% full: about 5 steps, 2 prompts, 5 min to auto-compact\. Growing it: file reads \+30k, responses \+250 in the last 6 steps; largest: f\d\.ts 5\.0k\.$/,
    );
    warnings.record(warning);
    assert.equal(compactWarning(input, DEFAULT_COMPACT_WARNING, warnings, NOW), undefined);
    // Closer, at the same level: still nothing.
    const closer = await session(steps(105_000, 5_000, 10), 4);
    assert.equal(compactWarning(closer, DEFAULT_COMPACT_WARNING, warnings, NOW), undefined);
    // The next step may tip it: the next level, once.
    const next = await session(steps(120_000, 5_000, 10), 4);
    const last = compactWarning(next, DEFAULT_COMPACT_WARNING, warnings, NOW)!;
    assert.equal(last.level, 'next');
    warnings.record(last);
    assert.equal(compactWarning(next, DEFAULT_COMPACT_WARNING, warnings, NOW), undefined);
  });

  test('past the compact point: the next level at once; a percent threshold warns however many prompts are left', async () => {
    const full = await session(steps(160_000, 1_000, 10), 1);
    // 169k of 200k is past 167k: no steps left, the next level straight away.
    assert.equal(compactWarning(full, DEFAULT_COMPACT_WARNING, new CompactWarnings(), NOW)?.level, 'next');
    const slow = await session(steps(100_000, 500, 10), 1);
    assert.ok(slow.forecast.promptsLeft! > 2 && slow.percent < 85);
    const lower = { ...DEFAULT_COMPACT_WARNING, percent: 50 };
    assert.equal(compactWarning(slow, lower, new CompactWarnings(), NOW)?.level, 'near');
  });

  test('nothing for a session that is not live, when turned off, or after "Not for this session"', async () => {
    const input = await session(steps(100_000, 5_000, 10), 4);
    assert.equal(
      compactWarning(input, DEFAULT_COMPACT_WARNING, new CompactWarnings(), NOW + 31 * MIN),
      undefined,
    );
    const off = { ...DEFAULT_COMPACT_WARNING, enabled: false };
    assert.equal(compactWarning(input, off, new CompactWarnings(), NOW), undefined);
    const muted = new CompactWarnings();
    muted.mute(input.session);
    assert.ok(muted.isMuted(input.session));
    assert.equal(compactWarning(input, DEFAULT_COMPACT_WARNING, muted, NOW), undefined);
    const next = await session(steps(120_000, 5_000, 10), 4);
    assert.equal(compactWarning(next, DEFAULT_COMPACT_WARNING, muted, NOW), undefined);
  });

  test('after a compaction the session may be warned again', async () => {
    const input = await session(steps(100_000, 5_000, 10), 4);
    const warnings = new CompactWarnings();
    warnings.record(compactWarning(input, DEFAULT_COMPACT_WARNING, warnings, NOW)!);
    const compacted = { ...input, compactions: 1 };
    assert.equal(compactWarning(compacted, DEFAULT_COMPACT_WARNING, warnings, NOW)?.level, 'near');
  });

  test('no forecast, no warning: not even at 90% full', async () => {
    // Falling usage: no growth to forecast from.
    const falling = await session([185_000, 183_000, 181_000, 180_000], 1);
    assert.ok(falling.percent >= 85);
    assert.match(falling.forecast.reason!, /not growing/);
    assert.equal(compactWarning(falling, DEFAULT_COMPACT_WARNING, new CompactWarnings(), NOW), undefined);
    const oneStep = await session([180_000], 1);
    assert.equal(compactWarning(oneStep, DEFAULT_COMPACT_WARNING, new CompactWarnings(), NOW), undefined);
  });
});

describe('the compact warning with hostile file names', () => {
  test('a file name shaped like a link cannot become a command link in the notification', async () => {
    const file = path.join(ws.home, 'hostile.jsonl');
    const base = { sessionId: 'hostile', cwd: ws.project };
    const start = NOW - 10 * MIN;
    const link = '[Open settings](command:workbench.action.openSettings)';
    writeTranscript(file, [
      promptLine({ ...base, text: 'go', at: start }),
      ...toolTurnLines({
        ...base,
        turns: [140_000, 141_000, 142_000, 160_000, 161_000, 162_000].map((tokens, i) => ({
          tool: 'Read',
          input: { file_path: path.join(ws.project, i === 2 ? `${link}.ts` : `f${i}.ts`) },
          resultChars: i === 2 ? 72_000 : 4_000,
          tokens,
          at: start + (i + 1) * MIN,
        })),
      }),
    ]);
    const gauge = new ContextGauge(file, claudeCodeAdapter);
    await gauge.refresh();
    const reading = gauge.reading();
    const warning = compactWarning(
      {
        session: 'hostile',
        compactions: 0,
        percent: reading.percent,
        updatedAt: reading.updatedAt,
        forecast: reading.forecast,
      },
      DEFAULT_COMPACT_WARNING,
      new CompactWarnings(),
      NOW,
    )!;
    // VS Code's notifications turn [text](command:...) into a link that runs the command.
    assert.match(
      warning.message,
      /largest: \[Open settings\] \(command:workbench\.action\.openSettings\)\.ts/,
    );
    assert.doesNotMatch(warning.message, /\]\(/);
  });
});
