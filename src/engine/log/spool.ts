/**
 * Taking the spool into the event log. Each payload a hook's `sh` command spooled (agents/spoolCommand.ts) is
 * redacted and capped into one event-log line, as the node recorder writes it (log/hookRecord.ts), and its
 * spool file removed: exactly once, whatever stops a pass halfway.
 * - A file is claimed first, by renaming it to `<name>.<pid>.claim`: of two drains at once (two windows, the
 *   CLI) one rename wins and the other passes the file by.
 * - The line names its spool file (`_cd.spool`: name and modification time). A claim left by a drain that
 *   stopped (its process gone, or this process's own from an earlier pass) is taken over by renaming it
 *   again, and its line is appended only if the log has no whole line naming it: a crash between the append
 *   and the removal never doubles the event, a crash before the append never loses it.
 * - An append that fails (a full disk) leaves its claim to the next pass, and ends this one.
 * Files are taken in the order they were written (modification time), so events keep their order. A file
 * still being written (not yet a whole JSON object, and changed within STALE_MS or its hook's shell still
 * running) waits for the next pass.
 * A pass is synchronous, so two passes of one process never run at once; it takes at most `limit` files,
 * so that a large backlog keeps the host responsive between passes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { version } from '../../../package.json';
import { claimEvent } from './duplicateEvents';
import { MAX_INPUT_BYTES, buildRecord } from './hookRecord';
import { eventsDir } from '../kernel/paths';
import { fileKind } from '../kernel/boundedRead';
import { NO_FOLLOW_NO_WAIT } from '../kernel/privateFiles';
import { RECORDER_KEY } from '../events/eventLine';
import { appendEventLine, eventLogFile } from '../events/eventLog';

/** How far ahead of our clock a spool file's time may be before it counts as dated in the future. */
const FUTURE_TOLERANCE_MS = 60_000;
const PENDING = /^\d+-\d+\.spool$/;
/** A spool file is named by the pid of the hook's shell, whose `cat` writes it. */
const WRITER_PID = /^(\d+)-/;
const CLAIMED = /^(\d+-\d+\.spool)\.(\d+)\.claim$/;
/** Longer than any hook's timeout: a file unchanged this long has been written all it ever will be... */
export const STALE_MS = 120_000;
/**
 * ...unless its hook's shell is still running (an agent that stalls while it pipes the payload): then its
 * `cat` may write more into it, and it waits; a pid taken by another process since waits no more than this.
 */
const WRITER_WAIT_MS = 24 * 60 * 60_000;

export interface DrainResult {
  /** Payloads appended to the event log. */
  logged: number;
  /** Copies of an event already logged (VS Code runs the hook of each hook file), and claims found logged. */
  dropped: number;
  /** Files still being written, left for the next pass. */
  waiting: number;
  /** Why the pass stopped early (an append failed), if it did. */
  failed?: string;
  /**
   * Files left for another pass by the limit (never after a failure, which the next ingest retries, nor when
   * the batch took nothing).
   */
  more: boolean;
}

/** Points where a test stops the drain, as a crash would. */
export interface DrainOptions {
  now?: number;
  /** Most files taken in one pass. */
  limit?: number;
  steps?: DrainSteps;
}

export interface DrainSteps {
  claimed?(name: string): void;
  /** The file is to be appended: not logged already, and not a copy. */
  checked?(name: string): void;
  appended?(name: string): void;
}

interface Entry {
  /** The spool file's own name (`<pid>-<n>.spool`). */
  name: string;
  /** Its name now: the spool name, or a claim's. */
  current: string;
  mtimeNs: bigint;
  /** Size and time as listed: what a file still being written changes. */
  stamp: string;
  /** A claim left by a drain that stopped: its line may be in the log already. */
  leftover: boolean;
}

/**
 * Spool files read whole and found not yet one JSON object, by name, with their stamp then: each is read
 * again only once it changed. Otherwise a payload cut after a `}` would be claimed, read (up to 32 MiB) and
 * put back at every pass, and putting it back wakes the watcher that starts the next pass.
 */
const notWhole = new Map<string, string>();
const NOT_WHOLE_KEPT = 1000;

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false; // A claim of this process's is an earlier pass's: drains are synchronous.
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the shell that named a spool file runs still (pid 0 would ask about our own process group). */
function writerRunning(name: string): boolean {
  const pid = Number(WRITER_PID.exec(name)?.[1] ?? 0);
  return pid > 0 && isAlive(pid);
}

/** The suffix a spool name that is no file is renamed with: no pass lists it again. */
const SET_ASIDE = '.not-a-file';

function listSpool(dir: string, odd: Array<{ name: string; kind: string }> = []): Entry[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const entries: Entry[] = [];
  for (const current of names) {
    const claim = CLAIMED.exec(current);
    if (!PENDING.test(current) && !(claim && !isAlive(Number(claim[2])))) continue;
    let stat: fs.BigIntStats;
    try {
      stat = fs.lstatSync(path.join(dir, current), { bigint: true });
    } catch {
      continue; // Taken since the listing.
    }
    if (!stat.isFile()) {
      if (!claim) odd.push({ name: current, kind: fileKind(stat) });
      continue;
    }
    entries.push({
      name: claim ? claim[1] : current,
      current,
      mtimeNs: stat.mtimeNs,
      stamp: `${stat.size}:${stat.mtimeNs}`,
      leftover: Boolean(claim),
    });
  }
  return entries.sort((a, b) =>
    a.mtimeNs === b.mtimeNs ? a.name.localeCompare(b.name) : a.mtimeNs < b.mtimeNs ? -1 : 1,
  );
}

function readStart(file: string): { data: Buffer; size: number } | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | NO_FOLLOW_NO_WAIT);
  } catch {
    return undefined;
  }
  try {
    const { size } = fs.fstatSync(fd);
    const data = Buffer.alloc(Math.min(size, MAX_INPUT_BYTES));
    const read = fs.readSync(fd, data, 0, data.length, 0);
    return { data: data.subarray(0, read), size };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Whether a spool file may hold its whole payload: it ends with `}` (and white space). Looked at before the
 * file is claimed, so that a file still being written is not renamed back and forth (each rename wakes the
 * extension's watcher, which ingests again).
 */
function mayBeWhole(file: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | NO_FOLLOW_NO_WAIT);
  } catch {
    return false;
  }
  try {
    const { size } = fs.fstatSync(fd);
    const tail = Buffer.alloc(Math.min(size, 64));
    const read = fs.readSync(fd, tail, 0, tail.length, size - tail.length);
    return tail.subarray(0, read).toString('latin1').trimEnd().endsWith('}');
  } finally {
    fs.closeSync(fd);
  }
}

function isWholeObject(data: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(data.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Whether `logFile` has a whole line recorded from the spool file `spool`. */
function loggedAlready(logFile: string, spool: string): boolean {
  let text: string;
  try {
    text = fs.readFileSync(logFile, 'utf8');
  } catch {
    return false;
  }
  const needle = JSON.stringify(spool);
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const start = text.lastIndexOf('\n', at) + 1;
    const end = text.indexOf('\n', at);
    if (end < 0) return false; // A line cut short by a full disk: not recorded.
    try {
      if ((JSON.parse(text.slice(start, end)) as { _cd?: { spool?: unknown } })._cd?.spool === spool)
        return true;
    } catch {
      // Not a whole line.
    }
  }
  return false;
}

/**
 * Spool names that are no file (a pipe, a folder, a link put there): never opened, renamed aside, and each
 * said once in the event log as a line no project can be told from, so every project shows it as rejected.
 */
function setAside(
  home: string,
  dir: string,
  odd: ReadonlyArray<{ name: string; kind: string }>,
  now: number,
): void {
  for (const { name, kind } of odd) {
    try {
      fs.renameSync(path.join(dir, name), path.join(dir, `${name}${SET_ASIDE}`));
      const error = `events/${name} is ${kind}, not a file a hook wrote: set aside as ${name}${SET_ASIDE}, not read`;
      appendEventLine(
        home,
        `${JSON.stringify({ [RECORDER_KEY]: { ts: new Date(now).toISOString(), v: version, error } })}\n`,
        new Date(now),
      );
    } catch {
      // Gone or renamed by another drain: it says so itself.
    }
  }
}

/** Redact the spooled payloads of `home` into its event log and remove them; never throws. */
export function drainSpool(home: string, options: DrainOptions = {}): DrainResult {
  const { now = Date.now(), limit = Infinity, steps = {} } = options;
  const dir = eventsDir(home);
  const odd: Array<{ name: string; kind: string }> = [];
  const entries = listSpool(dir, odd);
  setAside(home, dir, odd, now);
  const result: DrainResult = { logged: 0, dropped: 0, waiting: 0, more: entries.length > limit };
  for (const entry of entries.slice(0, limit)) {
    const mtime = Number(entry.mtimeNs / 1_000_000n);
    // Dated in the future (a wrong clock, a touched file): not being written now, and logged as of now.
    const future = mtime > now + FUTURE_TOLERANCE_MS;
    const age = now - mtime;
    const beingWritten = !future && (age < STALE_MS || (age < WRITER_WAIT_MS && writerRunning(entry.name)));
    const unchanged = notWhole.get(entry.name) === entry.stamp;
    if (beingWritten && !entry.leftover && (unchanged || !mayBeWhole(path.join(dir, entry.current)))) {
      result.waiting++;
      continue;
    }
    const claim = path.join(dir, `${entry.name}.${process.pid}.claim`);
    try {
      fs.renameSync(path.join(dir, entry.current), claim);
    } catch {
      continue; // Another drain took it first.
    }
    try {
      steps.claimed?.(entry.name);
      const read = readStart(claim);
      if (!read) continue;
      const receivedAt = new Date(Math.min(mtime, now));
      if (beingWritten && !isWholeObject(read.data)) {
        // The hook is still writing it (cat writes a large payload in pieces): back, and not read again
        // until it changes.
        fs.renameSync(claim, path.join(dir, entry.name));
        if (notWhole.size >= NOT_WHOLE_KEPT) notWhole.clear();
        notWhole.set(entry.name, entry.stamp);
        result.waiting++;
        continue;
      }
      const spool = `${entry.name}@${entry.mtimeNs}`;
      const record = buildRecord({ data: read.data, totalBytes: read.size, receivedAt, version, spool });
      const logged = entry.leftover && loggedAlready(eventLogFile(home, receivedAt), spool);
      const copy =
        !logged &&
        record.duplicateKey !== undefined &&
        !claimEvent(home, record.duplicateKey, receivedAt.getTime(), spool);
      if (logged || copy) result.dropped++;
      else {
        steps.checked?.(entry.name);
        appendEventLine(home, record.line, receivedAt);
        result.logged++;
        steps.appended?.(entry.name);
      }
      fs.unlinkSync(claim);
      notWhole.delete(entry.name);
    } catch (error) {
      // Left claimed: the next pass takes it over. A full disk fails every append: stop here.
      result.failed = error instanceof Error ? error.message : String(error);
      result.more = false;
      break;
    }
  }
  // A batch that took nothing (every file still being written) would be listed again at once: wait instead.
  if (result.logged + result.dropped === 0) result.more = false;
  return result;
}
