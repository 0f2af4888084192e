/**
 * `search` for people: a table and what to run next. (Agents get formatSearch, within their token budget
 * and naming MCP tools.)
 */
import { clip, MAX_SEARCH_LIMIT, oneLine, shortDate, shortId, type MemoryTypes } from '../engine';
import { tableRows } from './table';

/** Long enough to tell observations apart; `get` shows the whole text. */
const TITLE_CHARS = 80;

export function searchTable(result: MemoryTypes.SearchResult, query: string): string {
  const quoted = `"${clip(oneLine(query), 80)}"`;
  if (result.noWords) return `No searchable words in ${quoted}.`;
  const listing = !query.trim();
  if (result.hits.length === 0)
    return listing
      ? 'No observations yet.'
      : `No matches for ${quoted}. Try fewer or other words, or a prefix*.`;
  const rows = result.hits.map((hit) => [
    shortId(hit.id),
    hit.type,
    shortDate(hit.at),
    clip(oneLine(hit.text), TITLE_CHARS),
  ]);
  const count = result.hits.length;
  const found = listing
    ? `${count} latest observation${count === 1 ? '' : 's'}`
    : `${count} result${count === 1 ? '' : 's'} for ${quoted}`;
  const more = result.more
    ? `; more match: raise --limit (up to ${MAX_SEARCH_LIMIT}) or narrow with more words, --type or --since`
    : '';
  const first = shortId(result.hits[0].id);
  return [
    ...tableRows([['id', 'type', 'when', 'title'], ...rows]),
    '',
    `${found}${more}`,
    `Next: context-deck get ${first} for the full text, context-deck timeline --id ${first} for what happened around it`,
  ].join('\n');
}
