/**
 * Whether to warn that the context is about to compact: a notification reaches a user who is not looking at
 * the sidebar. Pure, so that the host only shows what this decides.
 */
import type { ContextForecast } from '../../shared/context';
import { isSessionActive } from '../../shared/sessionActivity';
import { forecastText, tippingText } from '../../shared/forecastText';
import { SETTINGS } from '../../shared/settings';
import { unlinked } from '../../shared/visibleText';

export interface CompactWarningSettings {
  enabled: boolean;
  /** Warn when this few prompts are left, at this session's pace. */
  promptsLeft: number;
  /** Or when the context is this full (percent of the window), whichever comes first. */
  percent: number;
}

/** The settings' defaults (shared/settings.ts declares them). */
export const DEFAULT_COMPACT_WARNING: CompactWarningSettings = {
  enabled: SETTINGS['compactWarning.enabled'].default,
  promptsLeft: SETTINGS['compactWarning.promptsLeft'].default,
  percent: SETTINGS['compactWarning.percent'].default,
};

/** `near`: the threshold is crossed; `next`: the next step may already tip it. In rising order. */
const LEVELS = ['near', 'next'] as const;
export type CompactWarningLevel = (typeof LEVELS)[number];

/**
 * What was already said: each level once per session (a compaction starts the count again, as it starts
 * the forecast again), a level said covering those below it, and nothing after "Not for this session".
 */
export class CompactWarnings {
  /** The highest level said, by session and compaction. */
  private readonly said = new Map<string, number>();
  private readonly muted = new Set<string>();

  private key(input: Pick<CompactWarningInput, 'session' | 'compactions'>): string {
    return `${input.compactions}\u0000${input.session}`;
  }

  isMuted(session: string): boolean {
    return this.muted.has(session);
  }

  has(input: Pick<CompactWarningInput, 'session' | 'compactions'>, level: CompactWarningLevel): boolean {
    return this.isMuted(input.session) || (this.said.get(this.key(input)) ?? -1) >= LEVELS.indexOf(level);
  }

  record(warning: CompactWarning): void {
    const key = this.key(warning);
    this.said.set(key, Math.max(this.said.get(key) ?? -1, LEVELS.indexOf(warning.level)));
  }

  mute(session: string): void {
    this.muted.add(session);
  }
}

export interface CompactWarningInput {
  /** The session's id, else its file: what "once per session" counts by. */
  session: string;
  /** Compactions so far in the session. */
  compactions: number;
  percent: number;
  updatedAt: number | null;
  forecast: ContextForecast;
}

export interface CompactWarning {
  session: string;
  compactions: number;
  level: CompactWarningLevel;
  message: string;
}

/** How close a live session with a forecast is: undefined while it is not under the threshold. */
export function warningLevel(
  input: CompactWarningInput,
  settings: CompactWarningSettings,
  now: number,
): CompactWarningLevel | undefined {
  const { forecast } = input;
  // No forecast (no usage, too few steps, no growth, unknown window): nothing sure enough to interrupt for.
  if (!isSessionActive(input.updatedAt, now) || forecast.stepsLeft === null || forecast.stepsLow === null)
    return undefined;
  if (forecast.stepsLow <= 1) return 'next';
  const fewPrompts = forecast.promptsLeft !== null && forecast.promptsLeft <= settings.promptsLeft;
  return fewPrompts || input.percent >= settings.percent ? 'near' : undefined;
}

/** The warning to show now, if any; the caller records it once shown. */
export function compactWarning(
  input: CompactWarningInput,
  settings: CompactWarningSettings,
  warnings: CompactWarnings,
  now: number,
): CompactWarning | undefined {
  if (!settings.enabled) return undefined;
  const level = warningLevel(input, settings, now);
  if (!level || warnings.has(input, level)) return undefined;
  const tipping = tippingText(input.forecast.tipping);
  const message =
    `Context ${Math.round(input.percent)}% full: ${forecastText(input.forecast)}.` +
    (tipping ? ` Growing it: ${tipping}.` : '');
  return { session: input.session, compactions: input.compactions, level, message: unlinked(message) };
}
