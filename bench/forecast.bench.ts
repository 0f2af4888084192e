/**
 * Backtest of the compaction forecast: sessions replayed step by step, each shifted so that it crosses the
 * limit at a known step (its last), forecast at every earlier step that has enough growth, beside
 * extrapolating the mean growth of the last 4 steps. Sessions: the fixture transcripts (real), sessions
 * built like the transcripts benchmark's (read by the real gauge, split at their compactions), and built
 * sessions whose growth comes in bursts (large reads) with changes of pace.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sessionGauge, sessionOfFile } from '../src/engine';
import {
  MIN_GROWTH_STEPS,
  RANGE_SPREAD,
  currentSegment,
  estimateSteps,
} from '../src/engine/live/contextForecast';
import type { TrendPoint } from '../src/engine/live';
import { type BenchSection, median, round } from './report';
import { random, sessionTranscript } from './transcripts.bench';

const FIXTURES = path.join(__dirname, '..', 'test', 'fixtures');
const BASELINE_STEPS = 4;
const TARGET_COVERAGE = 0.7;
const SPREADS = [0.6, 0.8, 0.9, 1, 1.1, 1.2, 1.4, 1.6, 2];
const BUILT_SESSIONS = 12;
const BURSTY_SESSIONS = 40;

type Series = number[];

interface Forecasts {
  truth: number[];
  ours: Array<{ stepsLeft: number; stepsLow: number; stepsHigh: number | null }>;
  baseline: number[];
}

/** The segments since the last compaction of each session file the gauge reads. */
async function segmentsOf(files: string[]): Promise<Series[]> {
  const out: Series[] = [];
  for (const file of files) {
    const active = sessionOfFile(file);
    const gauge = active && sessionGauge(active, {});
    if (!gauge) continue;
    await gauge.refresh();
    const reading = gauge.reading();
    // Every segment of the trend, cut at its compactions.
    let rest: TrendPoint[] = reading.trend;
    const times = reading.compactions.map((compaction) => compaction.at);
    while (rest.length > 0) {
      // A compaction after the last point (the session ended compacted) starts no segment here.
      const end = rest[rest.length - 1].at ?? Infinity;
      const last = currentSegment(
        rest,
        times.filter((at) => at !== null && at < end),
      );
      out.push(last.map((point) => point.tokens));
      rest = rest.slice(0, rest.length - last.length);
    }
  }
  return out;
}

function fixtureFiles(): string[] {
  const transcripts = path.join(FIXTURES, 'transcripts');
  const codex = path.join(FIXTURES, 'codex');
  const vscode = path.join(FIXTURES, 'vscode', 'transcripts');
  return [
    ...fs.readdirSync(transcripts).map((name) => path.join(transcripts, name)),
    ...fs.readdirSync(codex).map((name) => path.join(codex, name)),
    ...fs.readdirSync(vscode).map((name) => path.join(vscode, name)),
  ].filter((file) => file.endsWith('.jsonl'));
}

/** Sessions as the transcripts benchmark builds them, read through the real gauge. */
async function builtSegments(): Promise<Series[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bench-forecast-'));
  try {
    const files = Array.from({ length: BUILT_SESSIONS }, (_, i) => {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const file = path.join(root, 'projects', '-p', `${id}.jsonl`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(
        file,
        sessionTranscript(random(100 + i), id, '/p', Date.parse('2026-09-01T08:00:00Z'), 900 * 1024),
      );
      return file;
    });
    return await segmentsOf(files);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Growth as agents show it: mostly small steps, a large read now and then, and the pace changing from one
 * task to the next; from 20k to about 167k.
 */
function burstySegments(): Series[] {
  const next = random(4242);
  return Array.from({ length: BURSTY_SESSIONS }, () => {
    const series = [20_000];
    let pace = 800 + next() * 3000;
    while (series[series.length - 1] < 167_000) {
      if (next() < 0.1) pace = 800 + next() * 3000;
      const burst = next() < 0.12 ? 8_000 + next() * 30_000 : 0;
      series.push(series[series.length - 1] + pace * (0.3 + next() * 1.4) + burst);
    }
    return series;
  });
}

/** Forecasts at each step of each series, which reaches its limit at its last step. */
function backtest(segments: Series[], spread: number): Forecasts {
  const out: Forecasts = { truth: [], ours: [], baseline: [] };
  for (const series of segments) {
    // Shifted to cross halfway through its last step: not at a point the series happens to stop on.
    const crossing = series.length - 1;
    const limit = (series[crossing - 1] + series[crossing]) / 2;
    for (let k = MIN_GROWTH_STEPS; k < crossing; k++) {
      const seen = series.slice(0, k + 1).map((tokens) => ({ at: null, tokens }));
      const ours = estimateSteps(seen, limit, spread);
      const recent = series.slice(Math.max(0, k - BASELINE_STEPS), k + 1);
      const mean = (recent[recent.length - 1] - recent[0]) / (recent.length - 1);
      // Neither says anything for a context that is not growing: both are scored where both speak.
      if (!ours || mean <= 0) continue;
      out.truth.push(crossing - k);
      out.ours.push(ours);
      out.baseline.push(Math.ceil((limit - series[k]) / mean));
    }
  }
  return out;
}

function scores(forecasts: Forecasts) {
  const { truth, ours, baseline } = forecasts;
  const inside = ours.filter(
    (range, i) => range.stepsLow <= truth[i] && (range.stepsHigh === null || truth[i] <= range.stepsHigh),
  ).length;
  return {
    forecasts: truth.length,
    medianError: median(ours.map((range, i) => Math.abs(range.stepsLeft - truth[i]))),
    baselineMedianError: median(baseline.map((steps, i) => Math.abs(steps - truth[i]))),
    coverage: truth.length ? inside / truth.length : NaN,
    medianWidth: median(ours.map((range) => (range.stepsHigh ?? Infinity) - range.stepsLow)),
    openRanges: ours.filter((range) => range.stepsHigh === null).length,
  };
}

export async function benchForecast(): Promise<BenchSection> {
  const families: Record<string, Series[]> = {
    'fixture sessions (real)': await segmentsOf(fixtureFiles()),
    'built sessions (transcripts bench)': await builtSegments(),
    'built sessions, bursty growth': burstySegments(),
  };
  const all = Object.values(families).flat();
  const results: Record<string, ReturnType<typeof scores> & { sessions: number }> = {};
  const rows: Array<Array<string | number>> = [];
  for (const [name, segments] of [...Object.entries(families), ['all', all] as const]) {
    const score = scores(backtest(segments, RANGE_SPREAD));
    results[name] = { sessions: segments.length, ...score };
    rows.push([
      name,
      segments.length,
      score.forecasts,
      score.medianError,
      score.baselineMedianError,
      `${round(score.coverage * 100)}%`,
      score.medianWidth,
      score.openRanges,
    ]);
  }
  // The narrowest range that holds the truth often enough: the spread the forecast needs, no more.
  const sweep = SPREADS.map((spread) => {
    const score = scores(backtest(all, spread));
    return { spread, coverage: score.coverage, medianWidth: score.medianWidth };
  });
  const needed = sweep.find((point) => point.coverage >= TARGET_COVERAGE);
  const overall = results.all;
  return {
    title: `Compaction forecast backtest: steps left, beside the mean of the last ${BASELINE_STEPS} steps`,
    columns: [
      'sessions',
      'count',
      'forecasts',
      'median error (steps)',
      `last-${BASELINE_STEPS} mean error`,
      'truth in range',
      'median range width',
      'open ranges',
    ],
    rows,
    results: {
      spread: RANGE_SPREAD,
      families: results,
      spreadSweep: sweep,
      neededSpread: needed?.spread ?? null,
    },
    targets: [
      `median error ${overall.medianError} steps vs ${overall.baselineMedianError} for the last-${BASELINE_STEPS} mean (target: no worse): ${overall.medianError <= overall.baselineMedianError ? 'met' : 'NOT met'}`,
      `truth inside the range ${round(overall.coverage * 100)}% of the time (target >= ${TARGET_COVERAGE * 100}%): ${overall.coverage >= TARGET_COVERAGE ? 'met' : 'NOT met'}`,
      `range no wider than that needs: spread ${RANGE_SPREAD}, median width ${overall.medianWidth}; the narrowest spread reaching ${TARGET_COVERAGE * 100}% is ${needed?.spread ?? 'none'} (width ${needed?.medianWidth ?? '-'}): ${needed && RANGE_SPREAD === needed.spread ? 'met' : 'NOT met'}`,
    ],
  };
}
