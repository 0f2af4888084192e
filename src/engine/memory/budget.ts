/**
 * Seed 003's budget for agent-facing responses: at most 2000 tokens each, estimated as ceil(chars / 4), with
 * about 100 reserved for the protocol envelope. Every formatter fills its lines through fitToBudget.
 */

export const TOKEN_BUDGET = 2000;
const ENVELOPE_TOKENS = 100;
/** Characters per estimated token. */
const CHARS_PER_TOKEN = 4;
/** A line cut to fit keeps at least this much, or is left out. */
const MIN_CUT_CHARS = 120;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export interface FooterInfo {
  shown: number;
  /** Lines left out or cut to stay within the budget. */
  truncated: boolean;
  /** Estimated tokens of the whole text, footer included. */
  tokens: number;
}

export interface BudgetedText extends FooterInfo {
  text: string;
}

/**
 * `header`, then as many `lines` as fit, then the footer, within `budget - ENVELOPE_TOKENS` tokens. A line
 * that does not fit whole is cut when enough room is left, so one long observation still shows its start.
 */
export function fitToBudget(
  header: string,
  lines: readonly string[],
  footer: (info: FooterInfo) => string,
  budget = TOKEN_BUDGET,
): BudgetedText {
  const maxChars = (budget - ENVELOPE_TOKENS) * CHARS_PER_TOKEN;
  // The footer at its longest (every number at its widest) is reserved up front.
  const footerRoom = footer({ shown: lines.length, truncated: true, tokens: budget }).length + 1;
  let room = maxChars - footerRoom - header.length - 1;
  const kept: string[] = [];
  let truncated = false;
  for (const line of lines) {
    if (line.length + 1 <= room) {
      kept.push(line);
      room -= line.length + 1;
      continue;
    }
    truncated = true;
    if (room >= MIN_CUT_CHARS) kept.push(`${line.slice(0, room - 2)}…`);
    break;
  }
  const body = [header, ...kept].filter(Boolean).join('\n');
  const info = { shown: kept.length, truncated, tokens: 0 };
  // Two passes: the token count is part of the footer it counts.
  info.tokens = estimateTokens(`${body}\n${footer({ ...info, tokens: budget })}`);
  const text = `${body}\n${footer(info)}`;
  return { ...info, tokens: estimateTokens(text), text };
}
