/**
 * Finding and reading Codex's rollouts: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, and
 * `$CODEX_HOME/archived_sessions/` for sessions the user archived. Which project a rollout belongs to is
 * decided from its first line alone (the session meta's `cwd`), so finding stays cheap however long the
 * sessions are.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SessionFiles, SessionItem } from '../adapter';
import { codexHome, isInside } from './paths';
import { readRollout, recogniseRolloutHead, rolloutMeta } from './rollout';

const ROLLOUT_NAME = /^rollout-.*\.jsonl$/;
/** The date folders are three deep; a little more covers older flat and nested layouts. */
const MAX_DEPTH = 4;
/** The session meta carries the base instructions (tens of KB); no first line is longer than this. */
const MAX_FIRST_LINE = 4 * 1024 * 1024;

function rolloutFilesUnder(dir: string, depth: number, found: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && depth < MAX_DEPTH) rolloutFilesUnder(full, depth + 1, found);
    else if (entry.isFile() && ROLLOUT_NAME.test(entry.name)) found.push(full);
  }
}

/** The first line of a file, read in chunks; undefined when it cannot be read. */
export function readFirstLine(file: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const buffer = Buffer.alloc(64 * 1024);
    while (total < MAX_FIRST_LINE) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, total);
      if (read === 0) break;
      const newline = buffer.subarray(0, read).indexOf(0x0a);
      chunks.push(Buffer.from(buffer.subarray(0, newline >= 0 ? newline : read)));
      total += read;
      if (newline >= 0) break;
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Rollouts whose session ran in `projectRoot` or a folder inside it, oldest first. */
export function findRollouts(projectRoot: string, env: NodeJS.ProcessEnv): string[] {
  const home = codexHome(env);
  const found: string[] = [];
  rolloutFilesUnder(path.join(home, 'sessions'), 0, found);
  rolloutFilesUnder(path.join(home, 'archived_sessions'), 0, found);
  // Names start with the session's start time (rollout-YYYY-MM-DDTHH-MM-SS-<id>), so they sort by age.
  found.sort((a, b) => path.basename(a).localeCompare(path.basename(b)) || a.localeCompare(b));
  return found.filter((file) => {
    const first = readFirstLine(file);
    const cwd = first === undefined ? undefined : rolloutMeta(first)?.cwd;
    return cwd !== undefined && isInside(cwd, projectRoot);
  });
}

const SESSION_ID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export function readRolloutFile(file: string): { items: SessionItem[]; skipped: number } {
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { items: [], skipped: 0 };
    throw error;
  }
  return readRollout(content, SESSION_ID_IN_NAME.exec(path.basename(file))?.[1]);
}

export const codexSessions: SessionFiles = {
  measuresContext: true,
  find: findRollouts,
  recognise: recogniseRolloutHead,
  read: (file) => Promise.resolve(readRolloutFile(file)),
};
