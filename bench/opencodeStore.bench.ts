/**
 * opencode keeps every project's sessions in one SQLite database that grows past a gigabyte. Measured: a
 * store of about 1.2 GB (700 other sessions, and this project's one, the fixture's real session) read as the
 * live gauge reads the followed session and the import reads the project's sessions, by Context Deck's page
 * reader (kernel/sqliteFile.ts), beside native SQLite (better-sqlite3) reading the same rows through the same
 * indexes. Each read runs in a process of its own, for its peak memory.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { largeOpencodeStore } from '../test/support/walDatabase';
import { type BenchSection, median, round } from './report';

const SESSION = 'ses_f0de500f8ffeXvsiYJDOg5JtrU';
const OTHER_SESSIONS = 700;
const RUNS = 3;
const MIB = 1024 * 1024;

function read(mode: 'ours' | 'native', file: string, project: string): { ms: number; peakRssBytes: number } {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'opencodeRead.ts'), mode, file, project, SESSION],
    { encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!) as { ms: number; peakRssBytes: number };
}

export async function benchOpencodeStore(): Promise<BenchSection> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bench-opencode-'));
  try {
    const project = path.join(dir, 'project');
    fs.mkdirSync(project);
    const file = largeOpencodeStore(dir, project, OTHER_SESSIONS);
    const storeMiB = Math.round(fs.statSync(file).size / MIB);
    const runs: Record<'ours' | 'native', Array<{ ms: number; peakRssBytes: number }>> = {
      ours: [],
      native: [],
    };
    for (let i = 0; i < RUNS; i++)
      for (const mode of ['native', 'ours'] as const) runs[mode].push(read(mode, file, project));
    const ms = (mode: 'ours' | 'native') => median(runs[mode].map((run) => run.ms));
    const peak = (mode: 'ours' | 'native') => median(runs[mode].map((run) => run.peakRssBytes)) / MIB;
    const results = {
      storeMiB,
      oursMs: round(ms('ours')),
      nativeMs: round(ms('native')),
      oursPeakMiB: round(peak('ours')),
      nativePeakMiB: round(peak('native')),
    };
    return {
      title: `opencode's store (${storeMiB} MiB): the followed session, then the project's sessions, median of ${RUNS}`,
      columns: ['reader', 'ms', 'peak RSS MiB', 'ratio to native (time)'],
      rows: [
        ['native SQLite (better-sqlite3)', results.nativeMs, results.nativePeakMiB, 1],
        [
          'Context Deck (page reader)',
          results.oursMs,
          results.oursPeakMiB,
          round(results.oursMs / results.nativeMs, 2),
        ],
      ],
      results,
      targets: [
        `bounded memory: peak ${results.oursPeakMiB} MiB for a ${storeMiB} MiB store (the reader before it loaded the store whole into sql.js)`,
      ],
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
