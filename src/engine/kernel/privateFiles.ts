/**
 * Everything under the home holds the agent's activity (prompts, commands, file contents) and may hold
 * secrets the redaction missed, so only its owner may read it: folders 0700, files 0600.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
} from 'node:fs';
import { join } from 'node:path';

const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Open flags that never follow a symlink at the last component and never wait on a FIFO (0 where absent). */
export const NO_FOLLOW_NO_WAIT = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The home's folders Context Deck fills: only these are tightened (the home setting may name a busier folder). */
const OWN_FOLDERS = ['events', 'projects', 'bin', 'backups'];

/** Create a folder, and any missing parents, readable by its owner only. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Create the home and its folders private, and take group and other access away from what an earlier version
 * left there. Links are never followed and special files never opened. Returns the paths it changed.
 */
export function makeHomePrivate(home: string): string[] {
  makePrivateDir(join(home, 'events'));
  makePrivateDir(join(home, 'projects'));
  const changed: string[] = [];
  if (process.platform === 'win32') return changed; // Modes mean little there; ACLs decide.
  // The home itself may be a link the user made (to another disk): what it leads to is what is kept.
  const root = realpathSync(home);
  tighten(root, changed);
  const stack = OWN_FOLDERS.map((name) => join(root, name));
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (tighten(entry, changed) !== 'dir') continue;
    for (const name of readdirSync(entry)) stack.push(join(entry, name));
  }
  return changed;
}

/** Make one folder 0700 or file 0600 through a descriptor (so a swapped-in symlink is never followed). */
function tighten(entry: string, changed: string[]): 'dir' | 'file' | undefined {
  try {
    const kind = lstatSync(entry);
    if (!kind.isDirectory() && !kind.isFile()) return undefined;
    const fd = openSync(entry, constants.O_RDONLY | NO_FOLLOW_NO_WAIT);
    try {
      const stat = fstatSync(fd);
      const dir = stat.isDirectory();
      if (!dir && !stat.isFile()) return undefined;
      if ((stat.mode & 0o077) !== 0) {
        fchmodSync(fd, dir ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE);
        changed.push(entry);
      }
      return dir ? 'dir' : 'file';
    } finally {
      closeSync(fd);
    }
  } catch {
    // Gone, or not ours to change: left as it is.
    return undefined;
  }
}
