/**
 * Agent-facing text for the memory (MCP tools and the CLI's text output): compact, within the token budget,
 * always saying whether something was left out and how to narrow the request.
 */
import { type BudgetedText, type FooterInfo, fitToBudget } from './budget';
import { shortId } from './ids';
import { RECALL_FRAMING, quoteUntrusted, recalled, resolvedNote } from './recall';
import type { SearchResult } from './search';
import { clip, oneLine, shortDate } from './text';
import type { GetResult, TimelineResult } from './timeline';
import type { Observation } from './types';

const TITLE_CHARS = 60;
const SNIPPET_CHARS = 160;

function footerLine(noun: string, info: FooterInfo, extra: string, hint: string): string {
  const state = info.truncated ? `truncated to fit the budget; ${hint}` : 'not truncated';
  return `-- ${info.shown} ${noun}${extra}, ~${info.tokens} tokens, ${state}`;
}

/**
 * What is said after an observation, beside its text: that a file it names was deleted or changed since
 * (context/citations.ts). Nothing by default (the CLI's people read the files themselves).
 */
export type CitationNote = (observation: Observation) => string;
const noCitation: CitationNote = () => '';

/** Seed 003's compact index: `[n] <id8> | <title> | <score> | <snippet> | <date>`. */
export function formatSearch(result: SearchResult, query: string, cited = noCitation): BudgetedText {
  if (result.noWords)
    return fitToBudget(`No searchable words in "${clip(query, 80)}".`, [], (info) =>
      footerLine('results', info, '', ''),
    );
  // BM25's scale depends on the corpus (in a small project a word in most observations scores 0.000001):
  // each hit is shown relative to the best one, so the column says how close a hit comes to it.
  const best = Math.max(0, ...result.hits.map((hit) => hit.score ?? 0));
  const lines = result.hits.map((hit, i) => {
    const text = oneLine(hit.text);
    const title = `${hit.type}: ${recalled(hit.source, text, TITLE_CHARS)}`;
    // The title already is the whole text when it is short; the snippet would only repeat it.
    const snippet = text.length > TITLE_CHARS ? quoteUntrusted(hit.source, hit.snippet, SNIPPET_CHARS) : '';
    const score = hit.score === null || best === 0 ? '-' : (hit.score / best).toFixed(2);
    return `[${i + 1}] ${shortId(hit.id)} | ${title}${resolvedNote(hit.resolvedAt)}${cited(hit)} | ${score} | ${snippet} | ${shortDate(hit.at)}`;
  });
  const header = query.trim()
    ? `Memory search for "${clip(oneLine(query).replace(/"/g, "'"), 80)}"${lines.length ? '' : ': no matches. Try fewer or other words, or a prefix*.'}`
    : `Latest observations${lines.length ? '' : ': none yet.'}`;
  return fitToBudget(
    framed(header, lines),
    lines,
    (info) =>
      footerLine(
        'results',
        info,
        result.more ? ' (more match)' : '',
        'narrow the query: more words, a "phrase", a type, session or time range',
      ) +
      (info.shown > 0
        ? '\nNext: timeline with an id for context, get_observations with ids for full text.'
        : ''),
  );
}

export function formatTimeline(result: TimelineResult, cited = noCitation): BudgetedText {
  const lines = result.entries.map(
    (entry) =>
      `${entry.anchor ? '>>' : '  '} ${shortId(entry.id)} | ${shortDate(entry.at)} | ${entry.type} | ${recalled(entry.source, entry.text)}${resolvedNote(entry.resolvedAt)}${cited(entry)}`,
  );
  const header =
    `Timeline around ${result.anchorId ? `observation ${shortId(result.anchorId)}` : shortDate(result.anchorAt)}: ` +
    `${result.totalBefore} observations before (${result.shownBefore} shown), ${result.totalAfter} after (${result.shownAfter} shown).`;
  return fitToBudget(framed(header, lines), lines, (info) =>
    footerLine('entries', info, '', 'ask for fewer entries (before/after) or filter by session'),
  );
}

/**
 * Each observation as a header of ours and its text as one recalled line, so no text (a saved note's
 * included) can start a header of its own.
 */
export function formatObservations(result: GetResult, cited = noCitation): BudgetedText {
  const shown = result.observations.map((o) => {
    const session = o.sessionId ? oneLine(o.sessionId).slice(0, 8) : '-';
    const agent = o.agentType ? clip(oneLine(o.agentType), 40) : '-';
    return `## ${shortId(o.id)} (${o.id}) | ${o.type} | ${shortDate(o.at)} | session ${session} | agent ${agent}\n${recalled(o.source, o.text)}${resolvedNote(o.resolvedAt)}${cited(o)}`;
  });
  const lines = [...shown, ...result.missing.map((missing) => `## ${oneLine(missing.id)}: ${missing.error}`)];
  return fitToBudget(framed('', shown), lines, (info) =>
    footerLine('observations', info, '', 'ask for fewer ids per call'),
  );
}

/** `header`, then the framing line when there are observations to frame. */
function framed(header: string, lines: readonly string[]): string {
  return lines.length ? [header, RECALL_FRAMING].filter(Boolean).join('\n') : header;
}
