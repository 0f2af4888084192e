/**
 * The rows of Search Memory and Show Timeline, built from the engine's results: pure functions, tested without
 * VS Code. The pickers add the buttons.
 */
import { type Observation, shortId, type MemoryTypes } from '../../engine';
import { memoryTypeIcon, oneLineClip } from '../../shared/memory';
import { clockTime, relativeTime } from '../../shared/relativeTime';

const LABEL_CHARS = 100;
/** Observations per timeline page. */
const TIMELINE_PAGE = 10;

/** A QuickPick row: an observation, or (in the timeline) a step to an earlier or later page. */
export interface ObservationRow {
  label: string;
  description?: string;
  detail?: string;
  alwaysShow: true;
  observation?: Observation;
  page?: MemoryTypes.TimelineOptions;
}

/** A search hit or timeline entry as a row: icon and text, then time of day, age, type and id. */
export function observationRow(
  observation: Observation,
  now: number,
  options: { detail?: string; anchor?: boolean } = {},
): ObservationRow {
  return {
    label: `$(${memoryTypeIcon(observation.type)}) ${oneLineClip(observation.text, LABEL_CHARS)}`,
    description: `${options.anchor ? '$(target) ' : ''}${clockTime(observation.at, now)} · ${relativeTime(observation.at, now)} · ${observation.type} · ${shortId(observation.id)}`,
    detail: options.detail,
    alwaysShow: true,
    observation,
  };
}

/** The snippet is worth a second line when it shows more than the label already does. */
function snippetDetail(hit: MemoryTypes.SearchHit): string | undefined {
  const label = oneLineClip(hit.text, LABEL_CHARS);
  const snippet = oneLineClip(hit.snippet, 200);
  return snippet && snippet !== label && !label.includes(snippet.replace(/^…|…$/g, '')) ? snippet : undefined;
}

/** Search Memory's rows and title for the words and type filters typed. */
export function searchRows(
  projectName: string,
  search: { query: string; types: readonly string[]; result: MemoryTypes.SearchResult; total: number },
  now: number,
): { rows: ObservationRow[]; title: string } {
  const { query, types, result, total } = search;
  return {
    rows: result.hits.map((hit) =>
      observationRow(hit, now, { detail: query ? snippetDetail(hit) : undefined }),
    ),
    title:
      `Search Memory: ${projectName} · ` +
      (result.noWords
        ? 'type words to search'
        : query || types.length > 0
          ? `${result.hits.length}${result.more ? '+' : ''} matching of ${total}`
          : `latest of ${total}`),
  };
}

/** Where the timeline starts: around an observation (5 before, 5 after), or the latest page before now. */
export function firstTimelinePage(anchorId: string | undefined, now: number): MemoryTypes.TimelineOptions {
  return anchorId ? { anchorId, before: 5, after: 5 } : { anchorAt: now, before: TIMELINE_PAGE, after: 0 };
}

/**
 * A timeline page as rows: Earlier… and Later… steps around the entries, the title, and the row to make
 * active (the anchor; else the end the page grew from).
 */
export function timelineRows(
  projectName: string,
  result: MemoryTypes.TimelineResult,
  page: MemoryTypes.TimelineOptions,
  now: number,
): { rows: ObservationRow[]; title: string; active: ObservationRow | undefined } {
  const rows: ObservationRow[] = [];
  const hiddenBefore = result.totalBefore - result.shownBefore;
  const hiddenAfter = result.totalAfter - result.shownAfter;
  const first = result.entries[0];
  const last = result.entries[result.entries.length - 1];
  if (hiddenBefore > 0 && first) {
    rows.push({
      label: `$(arrow-up) Earlier…`,
      description: `${hiddenBefore.toLocaleString('en-US')} more`,
      alwaysShow: true,
      page: { anchorId: first.id, before: TIMELINE_PAGE, after: 0 },
    });
  }
  const entryRows = result.entries.map((entry) => observationRow(entry, now, { anchor: entry.anchor }));
  rows.push(...entryRows);
  if (hiddenAfter > 0 && last) {
    rows.push({
      label: `$(arrow-down) Later…`,
      description: `${hiddenAfter.toLocaleString('en-US')} more`,
      alwaysShow: true,
      page: { anchorId: last.id, before: 1, after: TIMELINE_PAGE },
    });
  }
  const anchorRow = entryRows.find((_row, index) => result.entries[index]?.anchor);
  const around = result.anchorId
    ? `${shortId(result.anchorId)} (${clockTime(result.anchorAt, now)})`
    : relativeTime(result.anchorAt, now) === 'just now'
      ? 'now'
      : clockTime(result.anchorAt, now);
  return {
    rows,
    title:
      result.entries.length === 0
        ? `Timeline: ${projectName} · nothing in memory yet`
        : `Timeline: ${projectName} · around ${around} · ${result.totalBefore} earlier, ${result.totalAfter} later`,
    active: anchorRow ?? (page.after === 0 ? entryRows[entryRows.length - 1] : entryRows[0]),
  };
}
