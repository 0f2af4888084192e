/**
 * One writer per project: a lock file naming the writing process, created exclusively.
 *
 * Taking over a lock left by a dead process must not let two takers in: "remove it, then create ours" lets a
 * slow taker remove the lock a faster one just created. So a taker first takes a numbered claim beside the
 * lock (`writer.lock.claim-<n>`, created exclusively, naming the lock it replaces). Only the taker whose
 * claim is the highest, and whose replaced lock is still in place, removes that lock and links its claim as
 * the new lock; anyone who finds the highest claim held by a live taker of the same lock backs off. Claims
 * are removed only by the lock's holder, once every takeover still in progress is for a lock that is gone
 * (and so fails): those below its own when it takes over, those of dead takers, and its own at release.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PRIVATE_FILE_MODE } from '../kernel/privateFiles';

export interface LockOwner {
  pid: number;
  hostname: string;
  since: number;
  purpose: string;
  /** On a claim: the lock it replaces (see `LockFile.key`). */
  replaces?: string;
}

export interface HeldLock {
  readonly path: string;
  release(): void;
}

/** A lock file that nobody could have written within this long is abandoned even if unreadable. */
const UNREADABLE_LOCK_GRACE_MS = 10_000;
const CLAIM = '.claim-';

interface LockFile {
  /** Which file with which content: a replaced lock never comes back with the same key. */
  key: string;
  owner: LockOwner | undefined;
  mtimeMs: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLockFile(file: string): LockFile | undefined {
  let text: string;
  let stat: fs.Stats;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      stat = fs.fstatSync(fd);
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  let owner: LockOwner | undefined;
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid === 'number' && typeof parsed.hostname === 'string') owner = parsed as LockOwner;
  } catch {
    // Half-written, or written by something else: judged by its age.
  }
  const key = `${stat.ino}:${createHash('sha1').update(text).digest('hex')}`;
  return { key, owner, mtimeMs: stat.mtimeMs };
}

function isAbandoned(lock: LockFile): boolean {
  if (!lock.owner) return Date.now() - lock.mtimeMs > UNREADABLE_LOCK_GRACE_MS;
  // A lock from another machine (shared home folder) can't be checked, so it is respected.
  return lock.owner.hostname === os.hostname() && !isAlive(lock.owner.pid);
}

/** Beside the lock while its text is written: `writer.lock.pending-<pid>-<n>`. */
const PENDING = '.pending-';
let pendingCount = 0;

/**
 * Create `file` with `text` if it does not exist, whole or not at all: the text is written to a file of its
 * own, then linked into place (a link fails when the name exists). A process killed in between never
 * leaves an empty lock, which would keep every writer out until it aged (UNREADABLE_LOCK_GRACE_MS); a write
 * that fails (a full disk) leaves nothing behind.
 */
function createExclusive(file: string, text: string): boolean {
  const pending = `${file}${PENDING}${process.pid}-${++pendingCount}`;
  try {
    fs.writeFileSync(pending, text, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  } catch (error) {
    fs.rmSync(pending, { force: true });
    throw new Error(`could not write ${file}: ${(error as Error).message}`);
  }
  try {
    fs.linkSync(pending, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(pending, { force: true });
  }
}

/** Pending lock texts of processes killed while writing them. */
function removeDeadPending(lockPath: string): void {
  const prefix = `${path.basename(lockPath)}${PENDING}`;
  for (const name of fs.readdirSync(path.dirname(lockPath))) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isSafeInteger(pid) && pid !== process.pid && !isAlive(pid))
      fs.rmSync(path.join(path.dirname(lockPath), name), { force: true });
  }
}

/** Claims of takers killed halfway (or of holders killed since): taken by the lock's holder. */
function removeDeadClaims(lockPath: string): void {
  for (const n of claimNumbers(lockPath)) {
    const claim = readLockFile(claimPath(lockPath, n));
    if (claim && isAbandoned(claim)) fs.rmSync(claimPath(lockPath, n), { force: true });
  }
}

/** Who holds the lock, for messages; undefined when free. */
export function lockHolder(lockPath: string): LockOwner | undefined {
  const lock = readLockFile(lockPath);
  return lock && !isAbandoned(lock) ? lock.owner : undefined;
}

function claimNumbers(lockPath: string): number[] {
  const prefix = `${path.basename(lockPath)}${CLAIM}`;
  return fs
    .readdirSync(path.dirname(lockPath))
    .filter((name) => name.startsWith(prefix))
    .map((name) => Number(name.slice(prefix.length)))
    .filter((n) => Number.isSafeInteger(n) && n > 0)
    .sort((a, b) => a - b);
}

const claimPath = (lockPath: string, n: number) => `${lockPath}${CLAIM}${n}`;

/**
 * Replace the abandoned lock `stale` by ours, unless another taker is at it or got there first. Returns our
 * claim, which is the new lock's other name.
 */
function takeOver(lockPath: string, stale: LockFile, me: LockOwner): string | undefined {
  const highest = claimNumbers(lockPath).at(-1) ?? 0;
  if (highest > 0) {
    // A live taker of the same lock (or one still writing its claim) is ahead.
    const claim = readLockFile(claimPath(lockPath, highest));
    if (!claim) return undefined;
    if (!isAbandoned(claim) && (!claim.owner || claim.owner.replaces === stale.key)) return undefined;
  }
  const mine = claimPath(lockPath, highest + 1);
  if (!createExclusive(mine, JSON.stringify({ ...me, replaces: stale.key }))) return undefined;
  // A higher claim, or a lock other than the one judged abandoned: someone else is ahead. Our claim stays;
  // it is below theirs, or names a lock that is gone, so it stops nobody.
  if ((claimNumbers(lockPath).at(-1) ?? 0) > highest + 1) return undefined;
  if (readLockFile(lockPath)?.key !== stale.key) return undefined;
  fs.rmSync(lockPath, { force: true });
  try {
    fs.linkSync(mine, lockPath);
  } catch (error) {
    // A newcomer created a lock the usual way in the moment it was gone: it is theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  for (const n of claimNumbers(lockPath)) {
    if (n < highest + 1) fs.rmSync(claimPath(lockPath, n), { force: true });
  }
  return mine;
}

/**
 * Take the single-writer lock of a project, recovering it from a dead owner.
 * Returns undefined when a live process holds it (or is taking it over right now).
 */
export function tryAcquireLock(lockPath: string, purpose: string): HeldLock | undefined {
  const me: LockOwner = { pid: process.pid, hostname: os.hostname(), since: Date.now(), purpose };
  const taken = (claim?: string): HeldLock => {
    removeDeadPending(lockPath);
    removeDeadClaims(lockPath);
    return {
      path: lockPath,
      release() {
        const owner = readLockFile(lockPath)?.owner;
        if (!owner || owner.pid !== me.pid || owner.since !== me.since) return;
        fs.rmSync(lockPath, { force: true });
        if (claim) fs.rmSync(claim, { force: true });
      },
    };
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createExclusive(lockPath, JSON.stringify(me))) return taken();
    const current = readLockFile(lockPath);
    if (!current) continue; // Released in the meantime: try again.
    const claim = isAbandoned(current) ? takeOver(lockPath, current, me) : undefined;
    return claim ? taken(claim) : undefined;
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
  fs.writeFileSync(path.join(path.dirname(lockPath), SAVE_REQUEST), '', { mode: PRIVATE_FILE_MODE });
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
