/** Words for a recommendation: the facts each tier saw, and how the tiers' points make the score. */
import { formatTokens } from '../../shared/formatTokens';
import { type ScoredItem, bandLabel } from './scoring';

export interface ItemWords {
  now: number;
  /** Accesses count since the last compaction, not since the session began. */
  compacted: boolean;
}

/**
 * How long, in numbers that agree with the recency tiers: minutes are rounded up, so "5 min" is within 5 min
 * and "2 h 1 min" is over 2 h. Null under a minute.
 */
function duration(ms: number): string | null {
  if (ms < 60_000) return null;
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  // Past 3 h every age scores the same: whole hours are enough.
  return hours >= 3 || rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

function ageText(ms: number): string {
  const length = duration(ms);
  return length === null ? 'just now' : `${length} ago`;
}

/**
 * Why in plain words, then what it saves: "unused for 2 h 5 min after one use, unrelated to your latest prompt;
 * saves 26k". The facts are those the tiers scored: the age, the uses (since the last compaction if there was
 * one), the relevance; an estimated saving is marked ≈.
 */
export function reason(item: ScoredItem, words: ItemWords): string {
  const ageMs = words.now - item.lastAccessAt;
  const since = words.compacted ? ' since the last compaction' : '';
  const once = item.accesses === 1;
  let use: string;
  if (item.type === 'tool_result') use = `returned ${ageText(ageMs)}`;
  else if (item.accesses === 0) use = `loaded ${ageText(ageMs)}, not used${since || ' this session'}`;
  // Over 2 h the age alone scores nothing: how long it sat unused is the point.
  else if (item.tiers.recency.points === 0)
    use = `unused for ${duration(ageMs)} after ${once ? 'one use' : `${item.accesses} uses`}${since}`;
  else
    use = `used ${once ? 'once' : `${item.accesses} times`}${since}, ${once ? '' : 'last '}${ageText(ageMs)}`;
  return `${use}, ${item.tiers.relevance.words}; saves ${item.measured ? '' : '≈'}${formatTokens(item.tokens)}`;
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
