/**
 * What a session did, as a next session needs it: what the user asked, what the agent reported at the end,
 * what its compaction summary left pending, the files it changed (one entry per file), the last state of
 * its checks and the problems still open. Built the same way from a live session's observations, an
 * imported one's and a folded one's: a fold keeps the story of what it removes in the session's digest
 * (`observations.story`), and the rows left are added to it.
 */
import type { Store } from '../storage/store';
import { clip } from './text';
import type { ObservationSource } from './types';

export interface StoryFile {
  /** As the change named it: within the project where it is. */
  path: string;
  edits: number;
  created: boolean;
  /** The latest change. */
  at: number;
  /** SHA-256 of the content the latest change wrote, when it wrote the whole file. */
  hash?: string;
}

export interface StoryLine {
  text: string;
  at: number;
}

export interface SessionStory {
  asks: StoryLine[];
  report?: StoryLine;
  pending?: StoryLine;
  files: StoryFile[];
  /** The latest run of each check (tests, build, lint), its text saying how it went. */
  checks: StoryLine[];
  /** Failures whose check had not passed again when the story was told. */
  open: StoryLine[];
}

/** One observation as the story reads it. */
export interface StoryRow {
  source: ObservationSource;
  type: string;
  text: string;
  at: number;
  file: string | null;
  /** SHA-256 of what a whole-file write wrote. */
  fileHash?: string | null;
  /** Set while the failure's check has not passed again. */
  openKey: string | null;
}

/** How much of each kind a story keeps: a folded session must fit its digest. */
const KEEP = { asks: 6, files: 30, checks: 4, open: 6 } as const;
const ASK_MAX = 300;

export function emptyStory(): SessionStory {
  return { asks: [], files: [], checks: [], open: [] };
}

/** What a check's line is about: "Tests", "Build", "Lint". */
function checkLabel(text: string): string {
  return /^(\w+)/.exec(text)?.[1] ?? text;
}

/** `story` with `rows` (in order) told on; `story` is not changed. */
export function tellStory(story: SessionStory, rows: readonly StoryRow[]): SessionStory {
  const told: SessionStory = {
    asks: [...story.asks],
    ...(story.report ? { report: story.report } : {}),
    ...(story.pending ? { pending: story.pending } : {}),
    files: story.files.map((file) => ({ ...file })),
    checks: [...story.checks],
    open: [...story.open],
  };
  for (const row of rows) {
    switch (row.source) {
      case 'prompt':
        told.asks.push({ text: clip(row.text.replace(/^Asked:\s*/, ''), ASK_MAX), at: row.at });
        break;
      case 'report':
        if (!told.report || row.at >= told.report.at) told.report = { text: row.text, at: row.at };
        break;
      case 'compact-summary':
        if (!told.pending || row.at >= told.pending.at) told.pending = { text: row.text, at: row.at };
        break;
      case 'change': {
        const path = row.file ?? changedPath(row.text);
        if (!path) break;
        const known = told.files.find((file) => file.path === path);
        const created = row.text.startsWith('Created ');
        const hash = row.fileHash ?? undefined;
        if (known) {
          known.edits++;
          known.created ||= created;
          if (row.at >= known.at) {
            known.at = row.at;
            // An edit after a write leaves no content to compare: the file's time alone tells.
            if (hash) known.hash = hash;
            else delete known.hash;
          }
        } else told.files.push({ path, edits: 1, created, at: row.at, ...(hash ? { hash } : {}) });
        break;
      }
      case 'check': {
        const label = checkLabel(row.text);
        told.checks = told.checks.filter((check) => checkLabel(check.text) !== label);
        told.checks.push({ text: row.text, at: row.at });
        break;
      }
    }
    if (row.openKey !== null) told.open.push({ text: row.text, at: row.at });
  }
  // The first asks say what the session was for, the last where it went: keep both ends.
  if (told.asks.length > KEEP.asks)
    told.asks = [...told.asks.slice(0, KEEP.asks / 2), ...told.asks.slice(-KEEP.asks / 2)];
  told.files = told.files.sort((a, b) => b.at - a.at).slice(0, KEEP.files);
  told.checks = told.checks.slice(-KEEP.checks);
  told.open = told.open.slice(-KEEP.open);
  return told;
}

/** The file of a change written before changes kept their file: "Modified src/a.ts: …", "Created b (3 lines)". */
function changedPath(text: string): string | undefined {
  return /^(?:Created|Rewrote|Modified(?: notebook)?) (.+?)(?:: | \(|$)/.exec(text)?.[1];
}

export function parseStory(json: unknown): SessionStory | undefined {
  if (typeof json !== 'string') return undefined;
  try {
    const story = JSON.parse(json) as SessionStory;
    return Array.isArray(story.asks) && Array.isArray(story.files) ? story : undefined;
  } catch {
    return undefined;
  }
}

/** A session's observations as story rows, oldest first. */
export function storyRows(
  store: Store,
  session: { id: string; from: number; until: number },
): { digestStory: SessionStory | undefined; rows: StoryRow[] } {
  // By time, then session: the memory keeps no index by session (see the schema).
  const found = store.all(
    `SELECT source, type, text, at, file, file_hash, open_key, story FROM observations INDEXED BY observations_by_at
     WHERE at BETWEEN ? AND ? AND session_id = ? AND forgotten_at IS NULL ORDER BY seq`,
    [session.from, session.until, session.id],
  );
  let digestStory: SessionStory | undefined;
  const rows: StoryRow[] = [];
  for (const row of found) {
    if (row.source === 'digest') {
      digestStory = parseStory(row.story) ?? digestStory;
      continue;
    }
    rows.push({
      source: String(row.source) as ObservationSource,
      type: String(row.type),
      text: String(row.text),
      at: Number(row.at),
      file: row.file == null ? null : String(row.file),
      fileHash: row.file_hash == null ? null : String(row.file_hash),
      openKey: row.open_key == null ? null : String(row.open_key),
    });
  }
  return { digestStory, rows };
}

/** Whether the story has anything to tell. */
export function storyIsEmpty(story: SessionStory): boolean {
  return (
    story.asks.length === 0 &&
    !story.report &&
    !story.pending &&
    story.files.length === 0 &&
    story.checks.length === 0 &&
    story.open.length === 0
  );
}

/** A file's entry: "src/a.ts (new, 3 edits)". */
export function fileEntry(file: StoryFile): string {
  const edits = file.created ? file.edits - 1 : file.edits;
  const parts = [
    ...(file.created ? ['new'] : []),
    ...(edits > 0 ? [`${edits} ${edits === 1 ? 'edit' : 'edits'}`] : []),
  ];
  return `${file.path} (${parts.join(', ')})`;
}

/** The story as one searchable text, for a folded session's digest. */
export function storyText(label: string, story: SessionStory, max: number): string {
  const parts = [
    story.asks.length ? `Asked: ${story.asks.map((ask) => ask.text).join(' / ')}` : '',
    story.report ? story.report.text : '',
    story.pending ? story.pending.text : '',
    story.files.length ? `Changed: ${story.files.map(fileEntry).join(', ')}` : '',
    story.checks.length ? `Checks: ${story.checks.map((check) => check.text).join(' / ')}` : '',
    story.open.length ? `Still open: ${story.open.map((line) => line.text).join(' / ')}` : '',
  ].filter(Boolean);
  return clip(`${label}: ${parts.join(' · ')}`, max);
}
