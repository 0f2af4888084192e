/**
 * A session's story (memory/sessionStory.ts) as lines of the session-start context: each item marked and
 * quoted as the sections' lines are; the labels are ours. Files are checked against the project first.
 */
import { quoteUntrusted, recalled } from '../memory/recall';
import { type SessionStory, fileEntry } from '../memory/sessionStory';
import type { ObservationSource } from '../memory/types';
import type { Citations } from './citations';

/** One item of the story, cut like a section's line, quotes closed. */
const ITEM_MAX = 160;
/** A changed file's entry. */
const FILE_MAX = 120;
/** The agent's report, and its pending work. */
const REPORT_MAX = 700;

/** `HH:MM` of `at`, UTC. */
export const clock = (at: number) => new Date(at).toISOString().slice(11, 16);

function quoted(source: ObservationSource, items: readonly string[], max: number): string {
  if (items.length === 0) return '';
  const rest = items.slice(1).map((item) => `; ${quoteUntrusted(source, item, max)}`);
  return `${recalled(source, items[0], max)}${rest.join('')}`;
}

export interface StoryLineOptions {
  /**
   * Leave out the agent's report and pending work: told to the session that continues after a compaction,
   * whose own summary says them in newer words.
   */
  recordOnly?: boolean;
}

export function storyLines(
  story: SessionStory,
  citations: Citations,
  options: StoryLineOptions = {},
): string[] {
  const files = story.files.map((file) => {
    const cited = citations.check(file.path, file.at, file.hash);
    if (cited.state === 'deleted') return `${fileEntry(file)}, deleted since`;
    if (cited.state === 'changed') return `${fileEntry(file)}, changed since ${clock(cited.at)} UTC`;
    return fileEntry(file);
  });
  const { report, pending } = options.recordOnly ? {} : story;
  const afterReport = report && pending && report.at > pending.at ? ', before the final report' : '';
  const lines: Array<[string, string]> = [
    [
      'Asked',
      quoted(
        'prompt',
        story.asks.map((ask) => ask.text),
        ITEM_MAX,
      ),
    ],
    ['Reported', report ? recalled('report', report.text.replace(/^Reported:\s*/, ''), REPORT_MAX) : ''],
    [
      pending ? `Pending as of ${clock(pending.at)} UTC${afterReport}` : '',
      pending
        ? recalled('compact-summary', pending.text.replace(/^Compaction summary[.:]\s*/, ''), REPORT_MAX)
        : '',
    ],
    ['Changed', quoted('change', files, FILE_MAX)],
    [
      'Checks',
      quoted(
        'check',
        story.checks.map((check) => check.text),
        ITEM_MAX,
      ),
    ],
    [
      'Still open',
      quoted(
        'error',
        story.open.map((line) => line.text),
        ITEM_MAX,
      ),
    ],
  ];
  return lines.filter(([, items]) => items).map(([label, items]) => `${label}: ${items}`);
}
