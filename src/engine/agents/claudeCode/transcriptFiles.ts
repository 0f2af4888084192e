/** Where Claude Code keeps its transcripts, and which of them belong to a project folder. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { filesBelow } from '../sessionFolders';

/**
 * Claude Code's configuration folders: `CLAUDE_CONFIG_DIR` when set (a comma-separated list is accepted,
 * as ccusage does), otherwise `~/.claude` and `~/.config/claude` (used by some 1.0.x versions).
 */
export function claudeConfigDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const configured = env.CLAUDE_CONFIG_DIR?.split(',')
    .map((dir) => dir.trim())
    .filter(Boolean);
  if (configured?.length) return configured.map((dir) => path.resolve(dir));
  return [path.join(os.homedir(), '.claude'), path.join(os.homedir(), '.config', 'claude')];
}

/** Claude Code names longer folder names by their first 200 characters and a hash of the path. */
const MAX_DIR_NAME = 200;

/** The folder name Claude Code gives a working directory: every character but [A-Za-z0-9-] becomes '-'. */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9-]/g, '-');
}

function realpathOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The encodings of a folder as given and as its real path (the agent may record either). */
function encodingsOf(root: string): string[] {
  return [...new Set([path.resolve(root), realpathOrSelf(root)].map(encodeProjectDir))];
}

function projectFolderNames(claudeDir: string): string[] {
  try {
    return fs
      .readdirSync(path.join(claudeDir, 'projects'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** Whether a folder named `name` may hold sessions started in `root` itself. */
function isFolderOf(name: string, encoded: string): boolean {
  return encoded.length > MAX_DIR_NAME
    ? name.startsWith(`${encoded.slice(0, MAX_DIR_NAME)}-`)
    : name === encoded;
}

/**
 * Whether a folder named `name` may hold sessions started in `root` or below it. The encoding is lossy
 * (`a/b` and `a-b` look alike), so this only narrows the search: the transcript's recorded cwd decides.
 */
function mayBeUnder(name: string, encoded: string): boolean {
  if (name === encoded) return true;
  return name.startsWith(encoded.length >= MAX_DIR_NAME ? encoded.slice(0, MAX_DIR_NAME) : `${encoded}-`);
}

/**
 * The transcripts below `dir`, sorted: sessions' `<session>.jsonl`, and their subagents' `agent-<id>.jsonl`
 * in `<session>/subagents/` (the Workflow tool's in `subagents/workflows/<run>/`, beside a `journal.jsonl`
 * of the run's agents, which is no transcript).
 */
export function listTranscripts(dir: string): string[] {
  return filesBelow(dir, (entry) => entry.name.endsWith('.jsonl'))
    .filter((file) => subagentsFolderOf(file) === undefined || isSubagentFile(file))
    .sort();
}

/** Transcript files that may belong to sessions run in any of `roots` or their subfolders. */
export function candidateTranscripts(claudeDir: string, roots: readonly string[]): string[] {
  const encodings = roots.flatMap(encodingsOf);
  return projectFolderNames(claudeDir)
    .filter((name) => encodings.some((encoded) => mayBeUnder(name, encoded)))
    .flatMap((name) => listTranscripts(path.join(claudeDir, 'projects', name)));
}

/** How many folders below `<session>/subagents/` a subagent's transcript may be (`workflows/<run>/`). */
const SUBAGENT_FOLDER_DEPTH = 3;

/** The `<session>/subagents` folder a file is in, at most SUBAGENT_FOLDER_DEPTH folders down. */
function subagentsFolderOf(file: string): string | undefined {
  let folder = path.dirname(file);
  for (let depth = 0; depth < SUBAGENT_FOLDER_DEPTH; depth++, folder = path.dirname(folder))
    if (path.basename(folder) === 'subagents') return folder;
  return undefined;
}

/** Claude Code names a subagent's transcript `agent-<id>.jsonl`; a session's is `<session id>.jsonl`. */
const isSubagentFile = (file: string): boolean => path.basename(file).startsWith('agent-');

/**
 * The session a transcript file belongs to, by its path, for lines that record none: `<session>.jsonl` is
 * that session's own; a subagent's `agent-<id>.jsonl` in `<session>/subagents/` (or a folder below it) is
 * that session's too, and one directly in the project's folder (as older versions kept them) says only
 * in its lines whose it is.
 */
export function sessionOfPath(file: string): { sessionId: string; subagent: boolean } {
  const subagent = isSubagentFile(file);
  const subagents = subagent ? subagentsFolderOf(file) : undefined;
  return {
    sessionId: subagents ? path.basename(path.dirname(subagents)) : path.basename(file, '.jsonl'),
    subagent,
  };
}

/**
 * The transcript of the project's active session: the most recently modified `*.jsonl` directly in the
 * folder Claude Code uses for `projectRoot`. After `/clear` the new session's file is the newest.
 */
export function findActiveTranscript(projectRoot: string, claudeDir?: string): string | undefined {
  const encodings = encodingsOf(projectRoot);
  let newest: { file: string; mtimeMs: number } | undefined;
  for (const dir of claudeDir ? [claudeDir] : claudeConfigDirs()) {
    for (const name of projectFolderNames(dir)) {
      if (!encodings.some((encoded) => isFolderOf(name, encoded))) continue;
      const folder = path.join(dir, 'projects', name);
      let names: string[];
      try {
        names = fs.readdirSync(folder);
      } catch {
        continue;
      }
      for (const file of names) {
        // A subagent's file there (as older versions kept them) is not the session's own.
        if (!file.endsWith('.jsonl') || isSubagentFile(file)) continue;
        const full = path.join(folder, file);
        try {
          const stat = fs.statSync(full);
          if (stat.isFile() && (!newest || stat.mtimeMs > newest.mtimeMs))
            newest = { file: full, mtimeMs: stat.mtimeMs };
        } catch {
          // Removed between listing and stat.
        }
      }
    }
  }
  return newest?.file;
}
