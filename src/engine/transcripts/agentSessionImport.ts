/**
 * History from the session files of agents other than Claude Code (Codex rollouts, opencode's store): each
 * adapter finds and reads its files into neutral session items, written as rows. A file is read again whole
 * when its size or time changed; the rows are keyed, so nothing is counted twice.
 */
import * as fs from 'node:fs';
import { AGENT_ADAPTERS } from '../agents';
import { sessionFileStamp } from './sessionFileGauge';
import type { AgentAdapter, SessionFiles } from '../agents/adapter';
import type { ProjectEngine } from '../project/projectEngine';
import { writeSessionItems } from './sessionItemRows';
import type { RowCounts } from './transcriptRows';

export interface AgentSessionFile {
  file: string;
  adapter: AgentAdapter & { sessions: SessionFiles };
}

function withSessions(): Array<AgentAdapter & { sessions: SessionFiles }> {
  return AGENT_ADAPTERS.filter(
    (adapter): adapter is AgentAdapter & { sessions: SessionFiles } => adapter.sessions !== undefined,
  );
}

/** The session files every agent keeps for the project's roots. */
export function findAgentSessionFiles(
  roots: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): AgentSessionFile[] {
  const found = new Map<string, AgentSessionFile>();
  for (const adapter of withSessions())
    for (const root of roots)
      for (const file of adapter.sessions.find(root, env)) found.set(file, { file, adapter });
  return [...found.values()];
}

/** The agent whose session format a file's first bytes are, if any but Claude Code's. */
export function recogniseSessionFile(file: string): AgentSessionFile | undefined {
  let head: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(64 * 1024);
      head = buffer.toString('utf8', 0, fs.readSync(fd, buffer, 0, buffer.length, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const adapter = withSessions().find((candidate) => candidate.sessions.recognise(head));
  return adapter && { file, adapter };
}

export interface AgentImportResult extends RowCounts {
  files: number;
  skippedFiles: number;
  malformed: number;
  bytes: number;
}

/** Import the files that changed since they were last read, each in one transaction. */
export async function importAgentSessions(
  engine: ProjectEngine,
  files: readonly AgentSessionFile[],
  options: { force?: boolean; signal?: AbortSignal } = {},
): Promise<AgentImportResult> {
  const result: AgentImportResult = {
    files: 0,
    skippedFiles: 0,
    malformed: 0,
    bytes: 0,
    toolCalls: 0,
    failures: 0,
    prompts: 0,
    sessions: 0,
  };
  const db = engine.db;
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
    const { items, skipped } = await adapter.sessions.read(file, { projectRoot: engine.identity.mainRoot });
    db.transaction(() => {
      const counts = writeSessionItems(db, adapter.id, file, items);
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
    result.malformed += skipped;
    result.bytes += stat.size;
  }
  if (result.files > 0) engine.noteExternalChange();
  return result;
}
