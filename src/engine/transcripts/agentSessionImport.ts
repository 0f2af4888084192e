/**
 * History from the session files that adapters read into neutral session items (Codex rollouts, opencode's
 * store): each adapter finds and reads its files, written as rows. A file is read again whole when its size
 * or time changed; the rows are keyed, so nothing is counted twice. Message transcripts are read a chunk at a
 * time instead (importTranscripts.ts).
 */
import { AGENT_ADAPTERS, TRANSCRIPT_ADAPTERS } from '../agents';
import { readSessionHead } from '../agents/sessionBytes';
import { visibleLine } from '../../shared/visibleText';
import { sessionFileStamp } from '../agents/sessionBytes';
import type { SessionAdapter, SessionFiles, TranscriptAdapter } from '../agents/adapter';
import type { ProjectStore } from '../storage/projectStore';
import { writeSessionItems } from './sessionItemRows';
import { noRows, type RowCounts } from './importedActivity';

export interface AgentSessionFile {
  file: string;
  adapter: SessionAdapter;
}

function withSessions(): SessionAdapter[] {
  return AGENT_ADAPTERS.filter((adapter): adapter is SessionAdapter => adapter.sessions !== undefined);
}

/** The session files every agent keeps for the project's roots; an agent whose files cannot be listed has none. */
export function findAgentSessionFiles(
  roots: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): AgentSessionFile[] {
  const found = new Map<string, AgentSessionFile>();
  for (const adapter of withSessions())
    for (const root of roots) {
      let files: string[];
      try {
        files = adapter.sessions.find(root, env);
      } catch {
        continue;
      }
      for (const file of files) found.set(file, { file, adapter });
    }
  return [...found.values()];
}

/** Why a file could not be read, in one line a person can act on. */
export function unreadable(file: string, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return `${visibleLine(file)}: cannot be read (${visibleLine(why)})`;
}

/** What is read of a file to tell whose it is: 64 KiB, or its whole first line up to 4 MiB. */
const HEAD_BYTES = 64 * 1024;
const MAX_FIRST_LINE = 4 * 1024 * 1024;

/** The start of a session file as text, decompressed where the agent compressed it. */
function sessionHead(file: string): string {
  const bytes = readSessionHead(file, MAX_FIRST_LINE);
  const newline = bytes.indexOf(0x0a, 0);
  const end = newline < 0 ? bytes.length : Math.max(newline, Math.min(bytes.length, HEAD_BYTES));
  return bytes.toString('utf8', 0, end);
}

/** Whose session file a file is, by its content: an agent's, read as session items or as a transcript. */
export type SessionFileOwner =
  | { adapter: SessionAdapter; as: 'items' }
  | { adapter: TranscriptAdapter; as: 'transcript' }
  | { adapter?: undefined; problem: string };

export function sessionFileOwner(file: string): SessionFileOwner {
  const name = visibleLine(file);
  let head: string;
  try {
    head = sessionHead(file);
  } catch {
    return { problem: `${name}: cannot be read` };
  }
  // Session item formats first: they are told apart by a first line, transcripts by any of their lines.
  const adapter = withSessions().find((candidate) => candidate.sessions.recognise(head));
  if (adapter) return { adapter, as: 'items' };
  const transcript = TRANSCRIPT_ADAPTERS.find((candidate) => candidate.transcripts.recognise(head));
  if (transcript) return { adapter: transcript, as: 'transcript' };
  return { problem: `${name}: not a session file of any agent Context Deck reads` };
}

export interface AgentImportResult extends RowCounts {
  files: number;
  skippedFiles: number;
  /** Entries read from the files (a rollout's lines, a store's rows, a task's messages), as session items. */
  entries: number;
  malformed: number;
  bytes: number;
  /** Files that could not be read, each with why: the others are imported all the same. */
  problems: string[];
}

/** Import the files that changed since they were last read, each in one transaction. */
export async function importAgentSessions(
  engine: ProjectStore,
  files: readonly AgentSessionFile[],
  options: { force?: boolean; signal?: AbortSignal } = {},
): Promise<AgentImportResult> {
  const result: AgentImportResult = {
    files: 0,
    skippedFiles: 0,
    entries: 0,
    malformed: 0,
    bytes: 0,
    problems: [],
    ...noRows(),
  };
  const db = engine.store;
  for (const { file, adapter } of files) {
    if (options.signal?.aborted) break;
    const stat = sessionFileStamp(file);
    if (!stat) continue;
    const row = db.get('SELECT size, mtime_ms FROM transcript_files WHERE path = ?', [file]);
    if (!options.force && row && Number(row.size) === stat.size && Number(row.mtime_ms) === stat.mtimeMs) {
      result.skippedFiles++;
      continue;
    }
    // A store of every project's sessions (opencode's database) gives this project's, even when named.
    let read: Awaited<ReturnType<SessionFiles['read']>>;
    try {
      read = await adapter.sessions.read(file, { projectRoot: engine.identity.mainRoot });
    } catch (error) {
      // Not recorded as read: the next import tries it again, and says so again.
      result.problems.push(unreadable(file, error));
      continue;
    }
    const { items, skipped } = read;
    db.transaction(() => {
      const counts = writeSessionItems(db, adapter, file, items);
      result.toolCalls += counts.toolCalls;
      result.failures += counts.failures;
      result.prompts += counts.prompts;
      result.sessions += counts.sessions;
      db.run(
        `INSERT INTO transcript_files (path, size, mtime_ms, offset) VALUES (?, ?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, offset = excluded.offset`,
        [file, stat.size, stat.mtimeMs, stat.size],
      );
    });
    result.files++;
    result.entries += items.length;
    result.malformed += skipped;
    result.bytes += stat.size;
  }
  if (result.files > 0) engine.noteExternalChange();
  return result;
}
