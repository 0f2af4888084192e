/**
 * When the context will compact (or fill, for an agent that does not compact), from the session's own growth
 * since it began or was last compacted, and what is growing it. Where the growth cannot tell, there is no
 * forecast but a reason: never a made-up number.
 */
import type { BreakdownItemKind, ContextForecast, Tipping } from '../../shared/context';
import type { BreakdownItem } from './breakdownTypes';

/**
 * Steps whose growth sets the rate: enough to smooth out large reads, few enough to follow a change of pace
 * (in the benchmark's backtest, 20 erred less than 10 and as little as 30).
 */
const RATE_STEPS = 20;
/** Growth steps needed before there is a forecast: with fewer, one read decides the rate. */
export const MIN_GROWTH_STEPS = 3;
/**
 * How wide the range is, in standard deviations of the growth still to come: the narrowest that holds the
 * truth at least 70% of the time in the benchmark's backtest (bench/forecast.bench.ts).
 */
export const RANGE_SPREAD = 1.1;
/** The recent steps whose items are named as what will tip it. */
const TIPPING_STEPS = 6;
/** A range's high end is open past this many times the estimate (a pace too uneven to bound). */
const MAX_HIGH_FACTOR = 10;
const MAX_TIPPING = 3;

export interface ForecastPoint {
  at: number | null;
  tokens: number;
}

export interface ForecastInput {
  trend: readonly ForecastPoint[];
  /** When each compaction happened (boundary lines), oldest first. */
  compactionTimes: ReadonlyArray<number | null>;
  /** A compaction after the last response: the next response shows the new size. */
  compactedSinceUsage: boolean;
  /** Where the agent compacts, or the window where it does not. */
  at: number;
  window: number;
  /** Whether the window is known (a setting, the session file, or a known model), not a guess. */
  windowKnown: boolean;
  /** Prompts since the session began or was last compacted. */
  prompts: number;
  /** The breakdown's items, where the agent has one. */
  items: readonly BreakdownItem[];
}

/** The estimate for the next steps from a series of context sizes, all since the last compaction. */
export interface StepEstimate {
  stepsLeft: number;
  stepsLow: number;
  stepsHigh: number | null;
}

/**
 * The points since the session began or was last compacted: after the last boundary line, and after the
 * last fall to less than half (a compaction whose line the agent did not write).
 */
export function currentSegment(
  trend: readonly ForecastPoint[],
  compactionTimes: ReadonlyArray<number | null>,
): ForecastPoint[] {
  let start = 0;
  const lastCompaction = Math.max(-Infinity, ...compactionTimes.filter((at): at is number => at !== null));
  for (let i = 0; i < trend.length; i++) {
    const at = trend[i].at;
    if (at !== null && at <= lastCompaction) start = i + 1;
    if (i > 0 && trend[i].tokens < trend[i - 1].tokens / 2) start = i;
  }
  return trend.slice(start);
}

function growthOf(series: readonly ForecastPoint[]): number[] {
  return series.slice(1).map((point, i) => point.tokens - series[i].tokens);
}

/**
 * Steps until the series reaches `limit`: the recent steps' mean growth sets the estimate; the range is
 * where the growth still to come falls within RANGE_SPREAD standard deviations, counting both the steps'
 * unevenness and how little a few steps tell about the mean. Undefined when the context is not growing.
 */
export function estimateSteps(
  series: readonly ForecastPoint[],
  limit: number,
  spread = RANGE_SPREAD,
): StepEstimate | undefined {
  const recent = growthOf(series).slice(-RATE_STEPS);
  const n = recent.length;
  if (n === 0) return undefined;
  const mean = recent.reduce((sum, step) => sum + step, 0) / n;
  if (mean <= 0) return undefined;
  const remaining = limit - series[series.length - 1].tokens;
  if (remaining <= 0) return { stepsLeft: 0, stepsLow: 0, stepsHigh: 0 };
  const variance = n > 1 ? recent.reduce((sum, step) => sum + (step - mean) ** 2, 0) / (n - 1) : mean ** 2;
  const sd = Math.sqrt(variance);
  // The growth over m steps: mean m·μ, spread σ·√(m + m²/n).
  const reach = (m: number, sign: number) => m * mean + sign * spread * sd * Math.sqrt(m + (m * m) / n);
  const stepsLeft = Math.ceil(remaining / mean);
  const firstReaching = (sign: number, cap: number): number | null => {
    for (let m = 1; m <= cap; m++) if (reach(m, sign) >= remaining) return m;
    return null;
  };
  return {
    stepsLeft,
    stepsLow: Math.min(stepsLeft, firstReaching(1, stepsLeft) ?? stepsLeft),
    stepsHigh: firstReaching(-1, stepsLeft * MAX_HIGH_FACTOR),
  };
}

/** The kinds and the largest items that entered the context in the last TIPPING_STEPS steps. */
function tippingOf(series: readonly ForecastPoint[], items: readonly BreakdownItem[]): Tipping | null {
  const steps = Math.min(TIPPING_STEPS, series.length - 1);
  if (steps < 1) return null;
  const from = series[series.length - 1 - steps];
  const grown = series[series.length - 1].tokens - from.tokens;
  const recent =
    from.at === null ? [] : items.filter((item) => item.at !== null && item.at > from.at! && item.tokens > 0);
  const byKind = new Map<BreakdownItemKind, number>();
  for (const item of recent) byKind.set(item.kind, (byKind.get(item.kind) ?? 0) + item.tokens);
  return {
    steps,
    grown,
    kinds: [...byKind]
      .map(([kind, tokens]) => ({ kind, tokens }))
      .sort((a, b) => b.tokens - a.tokens)
      .slice(0, MAX_TIPPING),
    items: [...recent]
      .sort((a, b) => b.tokens - a.tokens)
      .slice(0, MAX_TIPPING)
      .map((item) => ({ kind: item.kind, label: item.label, tokens: item.tokens })),
  };
}

/** Minutes per step over the recent steps, where their times are known. */
function minutesPerStep(series: readonly ForecastPoint[]): number | null {
  const recent = series.slice(-(RATE_STEPS + 1));
  const first = recent[0].at;
  const last = recent[recent.length - 1].at;
  if (first === null || last === null || last <= first) return null;
  return (last - first) / 60_000 / (recent.length - 1);
}

const round1 = (value: number) => Math.round(value * 10) / 10;

export function forecastContext(input: ForecastInput): ContextForecast {
  const event = input.at < input.window ? 'compact' : 'full';
  const none = (reason: string, tipping: Tipping | null = null): ContextForecast => ({
    stepsLeft: null,
    stepsLow: null,
    stepsHigh: null,
    promptsLeft: null,
    minutesLeft: null,
    at: input.at,
    event,
    reason,
    tipping,
  });
  if (input.trend.length === 0) return none('the session records no token usage yet');
  if (!input.windowKnown)
    return none("the model's context window is unknown: set contextDeck.contextWindow to forecast");
  if (input.compactedSinceUsage) return none('just compacted: the next response shows the new size');
  const series = currentSegment(input.trend, input.compactionTimes);
  const tipping = tippingOf(series, input.items);
  const growthSteps = series.length - 1;
  if (growthSteps < MIN_GROWTH_STEPS)
    return none(
      `too few steps since the session ${input.compactionTimes.length > 0 ? 'was compacted' : 'began'} to tell its pace ` +
        `(${growthSteps} of ${MIN_GROWTH_STEPS})`,
      tipping,
    );
  const estimate = estimateSteps(series, input.at);
  if (!estimate) return none('the context is not growing over the recent steps', tipping);
  const stepsPerPrompt = input.prompts > 0 ? series.length / input.prompts : null;
  const perStep = minutesPerStep(series);
  return {
    ...estimate,
    promptsLeft: stepsPerPrompt === null ? null : round1(estimate.stepsLeft / stepsPerPrompt),
    minutesLeft: perStep === null ? null : Math.round(estimate.stepsLeft * perStep),
    at: input.at,
    event,
    reason: null,
    tipping,
  };
}
