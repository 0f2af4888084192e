/**
 * Where Claude Code compacts, as its autoCompact.ts computes it: the window less what it keeps for the
 * summary, min(the model's max output, 20,000), less `AUTOCOMPACT_BUFFER_TOKENS`, 13,000
 * (anthropics/claude-code#12004, #31806). `/context` shows the difference as the autocompact buffer: 33k
 * for current models, whatever the window (#23409: 33k of 200k; a 1M window shows the same 33k).
 */
import type { ContextLimits } from '../adapter';
import { claudeModelWindow } from './modelWindows';

const SUMMARY_RESERVE = 20_000;
const AUTOCOMPACT_BUFFER = 13_000;

/** Models whose max output is below the summary's reserve (Anthropic's models overview). */
const SMALL_OUTPUT: ReadonlyArray<[RegExp, number]> = [
  [/claude-3-5-/i, 8_192],
  [/claude-3-(opus|sonnet|haiku)/i, 4_096],
];

function summaryReserve(model: string | undefined): number {
  const small = model ? SMALL_OUTPUT.find(([pattern]) => pattern.test(model)) : undefined;
  return Math.min(small?.[1] ?? SUMMARY_RESERVE, SUMMARY_RESERVE);
}

export const claudeContextLimits: ContextLimits = {
  compactAt: (window, model) => Math.max(0, window - summaryReserve(model) - AUTOCOMPACT_BUFFER),
  windowOf: claudeModelWindow,
};
