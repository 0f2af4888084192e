import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { sessionGauge, sessionOfFile } from '../../src/engine';
import { ContextGauge, estimateSteps } from '../../src/engine/live';
import { tippingText } from '../../src/shared/forecastText';
import { bundleForNode } from '../support/bundle';
import { FIXTURES_DIR, tempWorkspace } from '../support/events';
import {
  compactBoundaryLine,
  promptLine,
  toolTurnLines,
  transcriptLines,
  writeTranscript,
} from '../support/transcripts';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';
import { codexAdapter } from '../../src/engine/agents/codex';
import { gaugeOfItems } from '../../src/engine/live/sessionFileGauge';

let ws: ReturnType<typeof tempWorkspace>;
let file: string;

beforeEach(() => {
  ws = tempWorkspace();
  file = path.join(ws.home, 'session.jsonl');
});
afterEach(() => ws.cleanup());

const T0 = Date.parse('2026-11-01T10:00:00Z');
const MIN = 60_000;
const base = () => ({ sessionId: 'sess-f', cwd: ws.project });

/** One prompt, then a read per step: each step one minute apart, the context at the given sizes. */
function readingSession(sizes: number[], at = T0, name = (i: number) => `src/part${i}.ts`) {
  return [
    promptLine({ ...base(), text: 'Refactor the exporter', at }),
    ...toolTurnLines({
      ...base(),
      turns: sizes.map((tokens, i) => ({
        tool: 'Read',
        input: { file_path: path.join(ws.project, name(i)) },
        resultChars: 4 * 9_000,
        tokens,
        at: at + (i + 1) * MIN,
      })),
    }),
  ];
}

async function forecastOf(lines: object[]) {
  writeTranscript(file, lines as Array<Record<string, unknown>>);
  const gauge = new ContextGauge(file, claudeCodeAdapter);
  await gauge.refresh();
  return gauge.reading().forecast;
}

const noNumbers = (forecast: Awaited<ReturnType<typeof forecastOf>>) => {
  assert.equal(forecast.stepsLeft, null);
  assert.equal(forecast.stepsLow, null);
  assert.equal(forecast.stepsHigh, null);
  assert.equal(forecast.promptsLeft, null);
  assert.equal(forecast.minutesLeft, null);
};

const CODEX_ROLLOUT = path.join(
  FIXTURES_DIR,
  'codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.excerpt.jsonl',
);

describe('compaction forecast', () => {
  test('steady growth: steps, prompts and minutes left to the auto-compact point, within a range', async () => {
    // 100k, then +9k a step up to 163k.
    const sizes = Array.from({ length: 8 }, (_, i) => 100_000 + i * 9_000);
    const forecast = await forecastOf(readingSession(sizes));
    assert.equal(forecast.reason, null);
    assert.equal(forecast.event, 'compact');
    assert.equal(forecast.at, 167_000);
    // 163k now, 4k to go at 9k a step: the next step crosses it.
    assert.equal(forecast.stepsLeft, 1);
    assert.ok(forecast.stepsLow! <= 1 && forecast.stepsHigh! >= 1);
    // 8 steps for one prompt: the next step is an eighth of a prompt.
    assert.equal(forecast.promptsLeft, 0.1);
    assert.equal(forecast.minutesLeft, 1);
  });

  test('the range widens with uneven growth and always holds the estimate', async () => {
    const even = estimateSteps(
      [0, 10, 20, 30, 40, 50].map((k) => ({ at: null, tokens: k * 1000 })),
      150_000,
    )!;
    const uneven = estimateSteps(
      [0, 1, 2, 30, 31, 50].map((k) => ({ at: null, tokens: k * 1000 })),
      150_000,
    )!;
    assert.deepEqual(even, { stepsLeft: 10, stepsLow: 10, stepsHigh: 10 });
    assert.equal(uneven.stepsLeft, 10);
    assert.ok(uneven.stepsLow < 10 && (uneven.stepsHigh === null || uneven.stepsHigh > 10));
  });

  test('what will tip it: the kinds that grew the context in the recent steps and their largest items', async () => {
    const sizes = [40_000, 52_000, 53_000, 90_000, 91_000, 92_000, 100_000];
    const lines = readingSession(sizes);
    const forecast = await forecastOf(lines);
    assert.equal(forecast.reason, null);
    const tipping = forecast.tipping!;
    assert.equal(tipping.steps, 6);
    assert.equal(tipping.grown, 100_000 - 40_000);
    assert.equal(tipping.kinds[0].kind, 'file_read');
    // The read called at 53k, whose result grew the next call's context to 90k, is the largest.
    assert.match(tipping.items[0].label, /part2\.ts$/);
    assert.ok(tipping.items[0].tokens > tipping.items[1].tokens);
  });

  test('it starts again after a compaction: the growth before it does not count', async () => {
    const before = readingSession([100_000, 130_000, 160_000]);
    const boundary = compactBoundaryLine({ ...base(), at: T0 + 10 * MIN, preTokens: 160_000 });
    const after = readingSession([30_000, 31_000], T0 + 11 * MIN);
    const forecast = await forecastOf([...before, boundary, ...after]);
    assert.match(forecast.reason!, /too few steps since the session was compacted/);
    noNumbers(forecast);
    const more = readingSession([32_000, 33_000, 34_000], T0 + 20 * MIN).slice(1);
    fs.appendFileSync(file, more.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const gauge = new ContextGauge(file, claudeCodeAdapter);
    await gauge.refresh();
    const resumed = gauge.reading().forecast;
    assert.equal(resumed.reason, null);
    // 1k a step since the compaction, not the 30k a step before it.
    assert.equal(resumed.stepsLeft, (167_000 - 34_000) / 1000);
  });

  test('a fall to less than half is a compaction too', async () => {
    const forecast = await forecastOf(readingSession([100_000, 130_000, 160_000, 40_000, 41_000]));
    assert.match(forecast.reason!, /too few steps since the session began/);
  });

  test('past the point: no steps left', async () => {
    const forecast = await forecastOf(readingSession([150_000, 160_000, 165_000, 170_000]));
    assert.deepEqual([forecast.stepsLeft, forecast.stepsLow, forecast.stepsHigh], [0, 0, 0]);
    assert.equal(forecast.promptsLeft, 0);
  });

  test('an agent that declares no compact point: the forecast is to the full window, from its session file', async () => {
    // Codex's rollout read as an agent without `contextLimits` would be.
    const { items } = await codexAdapter.sessions!.read(CODEX_ROLLOUT);
    const { forecast, window, tokens } = gaugeOfItems(CODEX_ROLLOUT, items, 0);
    assert.equal(forecast.reason, null);
    assert.equal(forecast.event, 'full');
    assert.equal(forecast.at, window);
    assert.ok(forecast.stepsLeft! > 0 && tokens < window);
    assert.ok(forecast.stepsLow! <= forecast.stepsLeft! && forecast.stepsLeft! <= forecast.stepsHigh!);
  });

  test("Codex: the forecast is to Codex's own compact point, 90% of the whole window", async () => {
    const gauge = sessionGauge(sessionOfFile(CODEX_ROLLOUT)!, {})!;
    await gauge.refresh();
    const { forecast, window, tokens, breakdown } = gauge.reading();
    // The rollout's window, 258,400, is 95% of the model's 272,000; Codex compacts at 90% of that.
    assert.equal(window, 258_400);
    assert.equal(forecast.event, 'compact');
    assert.equal(forecast.at, 244_800);
    assert.equal(breakdown.autocompactAt, 244_800);
    assert.ok(forecast.stepsLeft! > 0 && tokens < 244_800);
  });
});

describe('compaction forecast on bad input: a reason, never a number', () => {
  test('a transcript with no usage', async () => {
    const forecast = await forecastOf([promptLine({ ...base(), text: 'hello', at: T0 })]);
    assert.equal(forecast.reason, 'the session records no token usage yet');
    noNumbers(forecast);
  });

  test('one step only', async () => {
    const forecast = await forecastOf(readingSession([50_000]));
    assert.match(forecast.reason!, /too few steps since the session began to tell its pace \(0 of 3\)/);
    noNumbers(forecast);
  });

  test('usage going down without a compaction', async () => {
    const forecast = await forecastOf(readingSession([100_000, 98_000, 96_000, 93_000, 90_000]));
    assert.equal(forecast.reason, 'the context is not growing over the recent steps');
    noNumbers(forecast);
  });

  test('a window unknown for the model', async () => {
    const lines = transcriptLines({
      ...base(),
      startAt: T0,
      model: 'local-llm-7b',
      turns: [10_000, 20_000, 30_000, 40_000, 50_000].map((input) => ({ input })),
    });
    const forecast = await forecastOf(lines);
    assert.match(forecast.reason!, /context window is unknown/);
    noNumbers(forecast);
    // A window setting makes it known.
    const gauge = new ContextGauge(file, claudeCodeAdapter, { window: 100_000 });
    await gauge.refresh();
    assert.equal(gauge.reading().forecast.reason, null);
  });

  test('the real fixture transcripts give a reason or a forecast, never a crash', async () => {
    const dir = path.join(FIXTURES_DIR, 'transcripts');
    for (const name of fs.readdirSync(dir).filter((entry) => entry.endsWith('.jsonl'))) {
      const gauge = new ContextGauge(path.join(dir, name), claudeCodeAdapter);
      await gauge.refresh();
      const { forecast } = gauge.reading();
      // Each is a few steps long, or falls by half: too little growth to tell.
      assert.notEqual(forecast.reason, null, name);
      noNumbers(forecast);
    }
  });
});

describe('context-deck gauge, as it ships, with the forecast', () => {
  let bin: string;
  before(async () => {
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-forecast-cli-'));
    await bundleForNode(bin, { cli: 'src/cli/main.ts' });
  });
  after(() => fs.rmSync(bin, { recursive: true, force: true }));

  const gauge = (...args: string[]) => {
    const run = spawnSync(
      process.execPath,
      [path.join(bin, 'cli.js'), 'gauge', '--transcript', file, '--project', ws.project, ...args],
      { encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
    return run.stdout;
  };

  test('--json carries the forecast; plain gauge prints it as one line', () => {
    // 100k then +8k a step: 148k after 7 steps, 19k to go: 3 steps.
    writeTranscript(file, readingSession(Array.from({ length: 7 }, (_, i) => 100_000 + i * 8_000)));
    const { forecast } = JSON.parse(gauge('--json')) as { forecast: Record<string, unknown> };
    assert.deepEqual(
      {
        stepsLeft: forecast.stepsLeft,
        promptsLeft: forecast.promptsLeft,
        minutesLeft: forecast.minutesLeft,
        at: forecast.at,
        reason: forecast.reason,
      },
      { stepsLeft: 3, promptsLeft: 0.4, minutesLeft: 3, at: 167_000, reason: null },
    );
    assert.ok((forecast.tipping as { kinds: Array<{ kind: string }> }).kinds[0].kind === 'file_read');
    // The last 6 steps grew it by 6 × 8k: the reads, and the responses' 50 tokens each.
    const lines = gauge().trimEnd().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^ctx 74% \(148,000 \/ 200,000 tokens/);
    assert.equal(
      lines[1].replace(/; largest: .*/, ''),
      'about 3 steps, within this prompt, 3 min to auto-compact at 167,000 tokens; ' +
        'growing it: file reads +48k, responses +250 in the last 6 steps',
    );
  });

  test('no forecast: the reason, in the JSON and on the line', () => {
    writeTranscript(file, readingSession([50_000]));
    const { forecast } = JSON.parse(gauge('--json')) as { forecast: Record<string, unknown> };
    assert.equal(forecast.stepsLeft, null);
    assert.match(String(forecast.reason), /too few steps/);
    assert.match(gauge().split('\n')[1], /^no forecast \(too few steps since the session began/);
  });
});

describe('the forecast line with hostile file names', () => {
  test('a file name with terminal escapes and a bidi override prints as one visible line', async () => {
    const evil = 'src/evil\u001b]0;pwned\u0007\u202egpj.ts\nNEXT';
    const hostile = readingSession([100_000, 110_000, 140_000, 141_000, 142_000], T0, (i) =>
      i === 1 ? evil : `src/part${i}.ts`,
    );
    const forecast = await forecastOf(hostile);
    const text = tippingText(forecast.tipping)!;
    assert.match(text, /largest: src\/evil ]0;pwned gpj\.ts NEXT 30k$/);
    for (const hidden of ['\u001b', '\u0007', '\u202e', '\n']) assert.ok(!text.includes(hidden));
  });
});
