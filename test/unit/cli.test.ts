import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
import { saveToMemory } from '../../src/engine/memory';
import { bundleForNode } from '../support/bundle';
import { appendEvents, sessionEvents, tempWorkspace } from '../support/events';
import { REPO_ROOT, tsNodeArgs } from '../support/processes';

let ws: ReturnType<typeof tempWorkspace>;

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (text) => out.push(text), stderr: (text) => err.push(text) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => ws.cleanup());

describe('context-deck CLI', () => {
  test('ingest then status --json reports the project counts', async () => {
    appendEvents(
      ws.home,
      sessionEvents({
        sessionId: 'x',
        cwd: ws.project,
        startAt: 1e12,
        prompts: ['one'],
        tools: [{ tool: 'Read' }, { tool: 'Bash', error: 'boom' }],
      }),
    );
    appendEvents(ws.home, [{ hook_event_name: 'Stop', cwd: '/somewhere/else' }], 'other.jsonl');
    const before = await cli('status', '--json', '--home', ws.home, '--project', ws.project);
    assert.equal(before.code, 0, before.stderr);
    assert.equal(JSON.parse(before.stdout).events, 0);
    assert.ok(JSON.parse(before.stdout).pendingBytes > 1024, 'status says what is waiting');
    const waiting = await cli('status', '--home', ws.home, '--project', ws.project);
    assert.match(waiting.stdout, /^database +not saved yet$/m);
    assert.match(waiting.stdout, /^not ingested +\d+\.\d KB \(run: context-deck ingest\)$/m);

    const ingest = await cli('ingest', '--home', ws.home, '--project', ws.project);
    assert.equal(ingest.code, 0, ingest.stderr);
    assert.match(ingest.stdout, /5 new events, 0 rejected lines, 1 lines for other projects/);

    const status = await cli('status', '--json', '--home', ws.home, '--project', ws.project);
    const json = JSON.parse(status.stdout);
    assert.deepEqual(
      {
        events: json.events,
        rejected: json.rejected,
        sessions: json.sessions,
        toolCalls: json.toolCalls,
        toolFailures: json.toolFailures,
      },
      { events: 5, rejected: 0, sessions: 1, toolCalls: 2, toolFailures: 1 },
    );
    assert.ok(json.dbBytes > 0);
    assert.equal(json.pendingBytes, 0);
    const text = await cli('status', '--home', ws.home, '--project', ws.project);
    assert.match(text.stdout, /^database +\d+\.\d KB$/m, 'sizes as the dashboard shows them');
    assert.match(text.stdout, /^tool calls +2 \(1 failed\)$/m);
    assert.doesNotMatch(text.stdout, /not ingested/);
  });

  test('exit codes: 2 with one line on stderr on bad usage, 1 with a one-line error on failure', async () => {
    const home = ['--home', ws.home, '--project', ws.project];
    for (const argv of [
      ['frobnicate'],
      ['status', '--nope'],
      ['ingest', '--home'],
      ['ingest', '--chunk-bytes', 'lots', ...home],
      ['search', 'x', '--since', 'soon', ...home],
    ]) {
      const bad = await cli(...argv);
      assert.equal(bad.code, 2, argv.join(' '));
      assert.equal(bad.stdout, '', argv.join(' '));
      assert.equal(bad.stderr.split('\n').length, 1, `${argv.join(' ')}: ${bad.stderr}`);
    }
    assert.equal(
      (await cli('status', '--nope')).stderr,
      'context-deck status: unknown option --nope (see context-deck status --help)',
    );
    assert.equal((await cli()).code, 2);
    const missing = await cli('status', '--project', path.join(ws.project, 'missing'), '--home', ws.home);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr.split('\n').length, 1);
    assert.match(missing.stderr, /project folder not found/);
    assert.equal((await cli('--help')).code, 0);
  });

  test('--version and -v print the version of package.json', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-v'])
      assert.deepEqual(await cli(flag), { code: 0, stdout: `context-deck ${version}`, stderr: '' });
    // As it ships: esbuild inlines the version into the bundle.
    const bin = path.join(ws.home, 'dist');
    await bundleForNode(bin, { cli: 'src/cli/main.ts' });
    const bundled = spawnSync(process.execPath, [path.join(bin, 'cli.js'), '--version'], {
      encoding: 'utf8',
    });
    assert.equal(bundled.status, 0, bundled.stderr);
    assert.equal(bundled.stdout, `context-deck ${version}\n`);
  });

  test('--help lines up commands and options in one column and their descriptions in another', async () => {
    const help = await cli('--help');
    assert.equal(help.code, 0);
    const lines = help.stdout.split('\n');
    // An entry: two spaces, the command and its arguments (single spaces), two or more spaces, the description.
    const entries = lines
      .map((line) => /^ {2}(\S+(?: \S+)*) {2,}\S/.exec(line))
      .filter((match) => match !== null);
    for (const name of [
      'ingest',
      'search QUERY',
      'get ID...',
      'forget ID',
      'save TEXT',
      '--home DIR',
      '--version, -v',
    ])
      assert.ok(
        entries.some((entry) => entry[1] === name),
        `${name} has its own entry`,
      );
    const longest = Math.max(...entries.map((entry) => entry[1].length));
    const column = 2 + longest + 2;
    for (const entry of entries) assert.equal(entry[0].length - 1, column, entry.input);
    // Long descriptions go on below, in the same column.
    for (const line of lines.filter((text) => /^ {3,}\S/.test(text)))
      assert.equal(line.length - line.trimStart().length, column, line);
    assert.ok(lines.every((line) => line.length <= 100));
  });

  test('a reader that closes the pipe early (| head -1) ends the CLI quietly', async () => {
    // Far more output than a pipe holds, so that most of it meets the closed pipe.
    const target = { home: ws.home, root: ws.project };
    for (let i = 0; i < 100; i++)
      saveToMemory(target, {
        text: `deploy ${i}: ${'the staging deploy retried once more '.repeat(100)}`,
        origin: 'cli',
      });
    assert.equal((await cli('ingest', '--home', ws.home, '--project', ws.project)).code, 0);
    const args = ['search', 'deploy', '--json', '--limit', '100', '--home', ws.home, '--project', ws.project];
    assert.ok((await cli(...args)).stdout.length > 256 * 1024);

    const child = spawn(process.execPath, tsNodeArgs('src/cli/main.ts', ...args), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.once('data', () => child.stdout.destroy());
    const [code] = (await once(child, 'close')) as [number | null];
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });

  test('runs as a real process with the current directory as the default project', () => {
    appendEvents(ws.home, sessionEvents({ sessionId: 'p', cwd: ws.project, startAt: 1e12 }));
    const run = (...args: string[]) =>
      spawnSync(process.execPath, tsNodeArgs('src/cli/main.ts', ...args), {
        cwd: ws.project,
        env: { ...process.env, CONTEXT_DECK_HOME: ws.home },
        encoding: 'utf8',
      });
    assert.equal(run('ingest').status, 0);
    const status = run('status', '--json');
    assert.equal(status.status, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).events, 2);
  });
});
