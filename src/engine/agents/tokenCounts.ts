/**
 * Token counts as session files report them are data: a count that is not a finite, plausible number
 * (1e308, 1e18, negative) is never shown, forecast or warned about; the line that carries it is rejected
 * with this reason instead. The largest context windows hold a few million tokens.
 */
const MAX_PLAUSIBLE_TOKENS = 100_000_000;

export const IMPLAUSIBLE_TOKENS = `a token count that is not a number from 0 to ${MAX_PLAUSIBLE_TOKENS.toLocaleString('en-US')}`;

export function plausibleTokens(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_PLAUSIBLE_TOKENS;
}
