/** Words for a recommendation: the facts each tier saw, and how the tiers' points make the score. */
import { formatTokens } from '../../shared/formatTokens';
import { type ScoredItem, bandLabel } from './scoring';

export interface ItemWords {
  now: number;
  /** Accesses count since the last compaction, not since the session began. */
  compacted: boolean;
}

/**
 * How long ago, in numbers that agree with the recency tiers: minutes are rounded up, so "5 min ago" is
 * within 5 min and "2 h 1 min ago" is over 2 h.
 */
function ageText(ms: number): string {
  if (ms < 60_000) return 'just now';
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  // Past 3 h every age scores the same: whole hours are enough.
  return hours >= 3 || rest === 0 ? `${hours} h ago` : `${hours} h ${rest} min ago`;
}

/** The facts behind the three tiers: "last used 2 h 5 min ago · used once this session · unrelated ...". */
export function reason(item: ScoredItem, words: ItemWords): string {
  const age = ageText(words.now - item.lastAccessAt);
  const scope = words.compacted ? 'since the last compaction' : 'this session';
  let recency: string;
  let frequency: string;
  if (item.type === 'tool_result') {
    recency = `returned ${age}`;
    frequency = 'one output';
  } else if (item.accesses === 0) {
    recency = `loaded ${age}`;
    frequency = `not used ${scope}`;
  } else {
    recency = `last used ${age}`;
    frequency = item.accesses === 1 ? `used once ${scope}` : `used ${item.accesses}× ${scope}`;
  }
  return [recency, frequency, item.tiers.relevance.words].join(' · ');
}

/** The score's make-up: "2 of 30, prune now (0-8): recency 0 (over 2 h) + frequency 2 (1 use) + ...". */
export function explanation(item: ScoredItem): string {
  const { recency, frequency, relevance } = item.tiers;
  return (
    `${item.score} of 30, ${bandLabel(item.score)}: recency ${recency.points} (${recency.label}) + ` +
    `frequency ${frequency.points} (${frequency.label}) + relevance ${relevance.points} (${relevance.label})`
  );
}

/** What a person recognises; a tool's output is described, since its command alone says little. */
export function displayName(item: ScoredItem, now: number): string {
  if (item.type !== 'tool_result') return item.name;
  // An MCP tool's label already names its server and tool.
  const tool = item.tool?.startsWith('mcp__') ? 'MCP' : (item.tool ?? 'tool');
  return `the ${formatTokens(item.tokens)}-token ${tool} output \`${item.name}\` from ${ageText(now - item.lastAccessAt)}`;
}
