/**
 * Finding and reading Codex's rollouts: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, and
 * `$CODEX_HOME/archived_sessions/` for sessions the user archived; a rollout untouched for days is
 * compressed to `rollout-*.jsonl.zst` (codex-rs/rollout `compression.rs`, which reads the plain file when
 * both exist). Which project a rollout belongs to is decided from its first lines (the session meta's
 * `cwd`, else the first turn context's), so finding stays cheap however long the sessions are.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SessionFiles } from '../adapter';
import { codexHome, isInside } from './paths';
import { readSessionHead, sessionTailIncludes } from '../sessionBytes';
import { filesBelow } from '../sessionFolders';
import { sessionFileReader } from '../sessionLines';
import { readRollout, recogniseRolloutHead, rolloutCwd } from './rollout';

const ROLLOUT_NAME = /^rollout-.*\.jsonl(\.zst)?$/;
/** The date folders are three deep; a little more covers older flat and nested layouts. */
const MAX_DEPTH = 4;
/** The session meta carries the base instructions (tens of KB); no first line is longer than this. */
const MAX_FIRST_LINE = 4 * 1024 * 1024;

/** Codex reads the plain file when both exist (a compression under way), and so does this. */
function isRollout(entry: fs.Dirent, folder: readonly fs.Dirent[]): boolean {
  if (!ROLLOUT_NAME.test(entry.name)) return false;
  return !entry.name.endsWith('.zst') || !folder.some((other) => `${other.name}.zst` === entry.name);
}

/** The first line of a file, read in chunks; undefined when it cannot be read. */
function readFirstLine(file: string): string | undefined {
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

/** Bytes of a rollout searched for the turn context that names its folder, when its meta names none. */
const CWD_SEARCH_BYTES = 4 * 1024 * 1024;

/** The folder a rollout's session ran in, from its first lines; undefined for a file that is no rollout. */
function rolloutFolder(file: string): string | undefined {
  if (!file.endsWith('.zst')) {
    const first = readFirstLine(file);
    if (first === undefined) return undefined;
    const fromMeta = rolloutCwd([first]);
    if (fromMeta !== undefined || !recogniseRolloutHead(first)) return fromMeta;
  }
  let head: string;
  try {
    head = readSessionHead(file, CWD_SEARCH_BYTES).toString('utf8');
  } catch {
    return undefined;
  }
  return rolloutCwd(head.split('\n'));
}

/** Rollouts whose session ran in `projectRoot` or a folder inside it, oldest first. */
function findRollouts(projectRoot: string, env: NodeJS.ProcessEnv): string[] {
  const home = codexHome(env);
  const found = ['sessions', 'archived_sessions'].flatMap((folder) =>
    filesBelow(path.join(home, folder), isRollout, MAX_DEPTH),
  );
  // Names start with the session's start time (rollout-YYYY-MM-DDTHH-MM-SS-<id>), so they sort by age.
  found.sort((a, b) => path.basename(a).localeCompare(path.basename(b)) || a.localeCompare(b));
  return found.filter((file) => {
    const cwd = rolloutFolder(file);
    return cwd !== undefined && isInside(cwd, projectRoot);
  });
}

const SESSION_ID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.zst)?$/i;

/** A turn's token count follows its model call; no tool output between is this long. */
const USAGE_LOOKBACK_BYTES = 1024 * 1024;

export const codexSessions: SessionFiles = {
  // Codex Desktop and some releases persist no `token_count`: such a rollout gives history, not a gauge.
  measuresContext: (file) => sessionTailIncludes(file, '"token_count"', USAGE_LOOKBACK_BYTES),
  find: findRollouts,
  recognise: recogniseRolloutHead,
  read: sessionFileReader((content, file) =>
    readRollout(content, SESSION_ID_IN_NAME.exec(path.basename(file))?.[1]),
  ),
};
