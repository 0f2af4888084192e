/**
 * The compaction forecast in words, the same in the status bar, the dashboard, the notification and the CLI:
 * "about 4 steps (3-7), 1 prompt, 6 min to auto-compact".
 */
import type { BreakdownItemKind, ContextForecast, Tipping } from './context';
import { formatTokens } from './formatTokens';
import { visibleLine } from './visibleText';

const KIND_WORDS: Record<BreakdownItemKind, string> = {
  file_read: 'file reads',
  tool_result: 'tool results',
  prompt: 'prompts',
  assistant: 'responses',
  hook_context: 'hook context',
  subagent_result: 'subagent results',
  compaction_summary: 'the compaction summary',
  mcp_server: 'MCP tools',
  memory_file: 'memory files',
  skill: 'skills',
  agent: 'agents',
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** What it reaches: "auto-compact", or "a full window" for an agent that does not compact. */
export function forecastTarget(forecast: Pick<ContextForecast, 'event'>): string {
  return forecast.event === 'compact' ? 'auto-compact' : 'a full window';
}

function promptsText(prompts: number): string {
  if (prompts < 1) return 'within this prompt';
  return `${plural(Math.round(prompts), 'prompt')}`;
}

/** "about 4 steps (3-7), 1 prompt, 6 min to auto-compact"; the reason when there is no forecast. */
export function forecastText(forecast: ContextForecast): string {
  if (forecast.stepsLeft === null) return `no forecast (${forecast.reason ?? 'no reason given'})`;
  const target = forecastTarget(forecast);
  if (forecast.stepsLeft === 0) return `at the ${target} point now`;
  const { stepsLow, stepsHigh } = forecast;
  const range =
    stepsHigh === null
      ? ` (${stepsLow} or more)`
      : stepsLow !== stepsHigh
        ? ` (${stepsLow}-${stepsHigh})`
        : '';
  const parts = [`about ${plural(forecast.stepsLeft, 'step')}${range}`];
  if (forecast.promptsLeft !== null) parts.push(promptsText(forecast.promptsLeft));
  if (forecast.minutesLeft !== null && forecast.minutesLeft > 0) parts.push(`${forecast.minutesLeft} min`);
  return `${parts.join(', ')} to ${target}`;
}

/** "file reads +38k, tool results +4.1k in the last 6 steps; largest: src/big.ts 30k". */
export function tippingText(tipping: Tipping | null): string | null {
  if (!tipping || tipping.grown <= 0) return null;
  const steps = plural(tipping.steps, 'step');
  if (tipping.kinds.length === 0) return `+${formatTokens(tipping.grown)} in the last ${steps}`;
  const kinds = tipping.kinds.map((kind) => `${KIND_WORDS[kind.kind]} +${formatTokens(kind.tokens)}`);
  const largest = tipping.items[0];
  return (
    `${kinds.join(', ')} in the last ${steps}` +
    (largest ? `; largest: ${visibleLine(largest.label)} ${formatTokens(largest.tokens)}` : '')
  );
}
