/**
 * Every numeric option of every command: a whole number within its range, or bad usage (exit 2, one line on
 * stderr, nothing on stdout) before any work; and `ingest --save-interval`, which must save during a pass.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../../src/cli/main';
import { MAX_SEARCH_LIMIT } from '../../src/engine/memory';
import { projectStateDir } from '../../src/engine/kernel/paths';
import { SNAPSHOT_FILE } from '../../src/engine/project/projectEngine';
import { identifyProject } from '../../src/engine/kernel/projectIdentity';
import { loadSqlJs } from '../../src/engine/kernel/sqlJs';
import { FIXTURES_DIR, appendEvents, sessionEvents, tempWorkspace } from '../support/events';
import { tsNodeArgs } from '../support/processes';

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace('cd-cli-options-');
});
afterEach(() => ws.cleanup());

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const where = ['--home', ws.home, '--project', ws.project];
  const code = await runCli([...argv, ...where], {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

const transcript = ['--transcript', path.join(FIXTURES_DIR, 'transcripts/ccusage-test-transcript.jsonl')];

/** Each numeric option: the command line it is given on, and the range it accepts. */
const OPTIONS = [
  { argv: ['ingest'], option: 'chunk-bytes', min: 1024, max: 64 * 1024 * 1024 },
  { argv: ['ingest'], option: 'save-interval', min: 0, max: 86_400_000 },
  { argv: ['gauge', ...transcript], option: 'window', min: 1, max: 100_000_000 },
  { argv: ['prune', ...transcript], option: 'window', min: 1, max: 100_000_000 },
  { argv: ['breakdown', ...transcript], option: 'window', min: 1, max: 100_000_000 },
  { argv: ['breakdown', ...transcript], option: 'items', min: 1, max: 1_000_000 },
  { argv: ['search', 'login'], option: 'limit', min: 1, max: MAX_SEARCH_LIMIT },
  { argv: ['timeline'], option: 'before', min: 1, max: 20 },
  { argv: ['timeline'], option: 'after', min: 0, max: 20 },
];

describe('numeric options', () => {
  for (const { argv, option, min, max } of OPTIONS) {
    const command = argv[0];
    test(`${command} --${option}: ${min} to ${max}, anything else is bad usage`, async () => {
      const bad = ['0.5', '1.0', '1e20', '1e3', 'Infinity', 'NaN', '-1', '0x10', 'lots', String(max + 1)];
      if (min > 0) bad.push(String(min - 1));
      for (const value of bad) {
        const result = await cli(...argv, `--${option}`, value);
        assert.deepEqual(
          result,
          {
            code: 2,
            stdout: '',
            stderr:
              `context-deck ${command}: --${option} needs a whole number from ${min} to ${max}, ` +
              `not "${value}" (see context-deck ${command} --help)`,
          },
          `${command} --${option} ${value}`,
        );
      }
      for (const value of [min, max]) {
        const result = await cli(...argv, `--${option}`, String(value), '--json');
        assert.equal(result.code, 0, `${command} --${option} ${value}: ${result.stderr}`);
      }
    });
  }

  test('a real process exits 2 with one line and no output, where 1e20 bytes per chunk used to fail', () => {
    appendEvents(ws.home, sessionEvents({ sessionId: 's', cwd: ws.project, startAt: 1e12 }));
    for (const value of ['1e20', '0.5']) {
      const run = spawnSync(
        process.execPath,
        tsNodeArgs(
          'src/cli/main.ts',
          'ingest',
          '--chunk-bytes',
          value,
          '--home',
          ws.home,
          '--project',
          ws.project,
        ),
        { encoding: 'utf8' },
      );
      assert.equal(run.status, 2, run.stderr);
      assert.equal(run.stdout, '');
      assert.match(
        run.stderr,
        /^context-deck ingest: --chunk-bytes needs a whole number from 1024 to \d+, not "[^"]+" \(see context-deck ingest --help\)\n$/,
      );
    }
  });
});

describe('ingest --save-interval', () => {
  test('0 saves after each chunk of a first pass, so an interruption keeps what was read', async () => {
    const tools = Array.from({ length: 300 }, (_, i) => ({
      tool: 'Bash',
      input: { command: `echo ${i} ${'x'.repeat(400)}` },
    }));
    const backlog = sessionEvents({ sessionId: 'backlog', cwd: ws.project, startAt: 1e12, tools });
    appendEvents(ws.home, backlog);
    const snapshot = path.join(projectStateDir(ws.home, identifyProject(ws.project).id), SNAPSHOT_FILE);
    const where = ['--home', ws.home, '--project', ws.project];
    const child = spawn(
      process.execPath,
      tsNodeArgs(
        'src/cli/main.ts',
        'ingest',
        '--json',
        '--chunk-bytes',
        '4096',
        '--save-interval',
        '0',
        ...where,
      ),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // The first snapshot written, caught while the pass goes on (it is replaced whole, never torn).
    let first: Buffer | undefined;
    while (first === undefined && child.exitCode === null) {
      if (fs.existsSync(snapshot)) first = fs.readFileSync(snapshot);
      else await sleep(1);
    }
    assert.equal(await exited, 0);
    const total = (JSON.parse(stdout) as { events: number }).events;
    assert.equal(total, backlog.length);
    const SQL = await loadSqlJs();
    const db = new SQL.Database(first ?? fs.readFileSync(snapshot));
    const saved = Number(
      db.exec("SELECT coalesce((SELECT value FROM counters WHERE name = 'events.count'), 0)")[0].values[0][0],
    );
    db.close();
    assert.ok(
      saved < total,
      `the first snapshot was written at the end of the pass (${saved} of ${total} events)`,
    );
  });
});
