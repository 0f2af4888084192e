/**
 * The extension host of one code-server, read from /proc (Linux): which process it is, its resident memory and
 * the CPU time it has used. Several code-servers may run on the machine (the e2e tests), so the host is looked
 * up inside the process group of the server that was started with our user-data-dir.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

/** Kernel clock ticks per second, the unit of utime/stime in /proc/<pid>/stat. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

function cmdline(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** Fields of /proc/<pid>/stat after the command name, which may itself contain spaces and parentheses. */
function statFields(pid: number): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function pids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** The extension host of the code-server whose `--user-data-dir` is `userDataDir`, or undefined (not up yet). */
export function findExtensionHost(userDataDir: string): number | undefined {
  const all = pids();
  const server = all.find((pid) => {
    const args = cmdline(pid);
    const at = args.indexOf('--user-data-dir');
    return at >= 0 && args[at + 1] === userDataDir && !args.some((arg) => arg.startsWith('--type='));
  });
  if (server === undefined) return undefined;
  let group: string;
  try {
    group = statFields(server)[2];
  } catch {
    return undefined;
  }
  // A window reload starts a new host; the newest one is the live one.
  const hosts = all.filter((pid) => {
    try {
      return statFields(pid)[2] === group && cmdline(pid).includes('--type=extensionHost');
    } catch {
      return false;
    }
  });
  return hosts.length > 0 ? Math.max(...hosts) : undefined;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
    fs.readFileSync(`/proc/${pid}/status`, 'utf8'),
  );
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

export const rssBytes = (pid: number): number => statusKb(pid, 'VmRSS') * 1024;
/** The highest RSS since the process started. */
export const peakRssBytes = (pid: number): number => statusKb(pid, 'VmHWM') * 1024;

/** User plus system CPU time used so far, in seconds. */
export function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU used over `ms` as a percentage of one core, with the same figure per slice to show bursts. */
export async function cpuPercent(
  pid: number,
  ms: number,
  slices = 6,
): Promise<{ percent: number; slicePercents: number[] }> {
  const slicePercents: number[] = [];
  const start = cpuSeconds(pid);
  const started = performance.now();
  let previous = start;
  let previousAt = started;
  for (let i = 0; i < slices; i++) {
    await sleep(ms / slices);
    const now = cpuSeconds(pid);
    const at = performance.now();
    slicePercents.push((100 * (now - previous)) / ((at - previousAt) / 1000));
    previous = now;
    previousAt = at;
  }
  return { percent: (100 * (previous - start)) / ((previousAt - started) / 1000), slicePercents };
}

/**
 * Waits until the process has used under `maxPercent` of a core over `windowMs`, e.g. for start-up or a
 * background catch-up to finish; returns how long that took.
 */
export async function waitUntilQuiet(
  pid: number,
  { windowMs = 3000, maxPercent = 5, timeoutMs = 600_000 } = {},
): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = cpuSeconds(pid);
    await sleep(windowMs);
    if ((100 * (cpuSeconds(pid) - before)) / (windowMs / 1000) < maxPercent) break;
    if (performance.now() - started > timeoutMs)
      throw new Error(`extension host ${pid} stayed busy for ${timeoutMs} ms`);
  }
  return performance.now() - started;
}
