import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

interface LockOwner {
  pid: number;
  hostname: string;
  since: number;
  purpose: string;
}

export interface HeldLock {
  readonly path: string;
  release(): void;
}

/** A lock file that nobody could have written within this long is abandoned even if unreadable. */
const UNREADABLE_LOCK_GRACE_MS = 10_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.hostname === 'string') return owner as LockOwner;
  } catch {
    // Unreadable or half-written; the caller decides by the file's age.
  }
  return undefined;
}

function isAbandoned(lockPath: string): boolean {
  const owner = readOwner(lockPath);
  if (!owner) {
    try {
      return Date.now() - fs.statSync(lockPath).mtimeMs > UNREADABLE_LOCK_GRACE_MS;
    } catch {
      return true;
    }
  }
  // A lock from another machine (shared home folder) can't be checked, so it is respected.
  return owner.hostname === os.hostname() && !isAlive(owner.pid);
}

/** Who holds the lock, for messages; undefined when free. */
export function lockHolder(lockPath: string): LockOwner | undefined {
  if (!fs.existsSync(lockPath) || isAbandoned(lockPath)) return undefined;
  return readOwner(lockPath);
}

/**
 * Take the single-writer lock of a project, recovering it from a dead owner.
 * Returns undefined when a live process holds it.
 */
export function tryAcquireLock(lockPath: string, purpose: string): HeldLock | undefined {
  const me: LockOwner = { pid: process.pid, hostname: os.hostname(), since: Date.now(), purpose };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, JSON.stringify(me));
      fs.closeSync(fd);
      return {
        path: lockPath,
        release() {
          const owner = readOwner(lockPath);
          if (owner && owner.pid === me.pid && owner.since === me.since) fs.rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!isAbandoned(lockPath)) return undefined;
      fs.rmSync(lockPath, { force: true });
    }
  }
  return undefined;
}

/**
 * A follower waiting to show a change it appended to the event log (a memory save or forget) asks the writer
 * to save at once rather than after its debounce: a file beside the lock, taken by the writer's next ingest
 * pass that read something, which comes right after the follower's append since the writer watches the log.
 */
const SAVE_REQUEST = 'save-wanted';

export function requestSave(lockPath: string): void {
  fs.writeFileSync(path.join(path.dirname(lockPath), SAVE_REQUEST), '');
}

/** The writer's side: save now if a follower asked (the request is taken). Resolves to whether it did. */
export async function saveIfRequested(writer: { lockPath: string; save(): Promise<void> }): Promise<boolean> {
  try {
    fs.unlinkSync(path.join(path.dirname(writer.lockPath), SAVE_REQUEST));
  } catch {
    return false;
  }
  await writer.save();
  return true;
}
