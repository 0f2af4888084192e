import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
import { appendEvents, sessionEvents, tempWorkspace } from '../support/events';
import { tsNodeArgs } from '../support/processes';

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
    assert.ok(JSON.parse(before.stdout).pendingBytes > 0, 'status says what is waiting');

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
  });

  test('exit codes: 2 on bad usage, 1 with a one-line error on failure', async () => {
    assert.equal((await cli()).code, 2);
    assert.equal((await cli('frobnicate')).code, 2);
    const badFlag = await cli('status', '--nope');
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /unknown option --nope/);
    assert.equal((await cli('ingest', '--home')).code, 2);
    assert.equal(
      (await cli('ingest', '--chunk-bytes', 'lots', '--home', ws.home, '--project', ws.project)).code,
      2,
    );
    const missing = await cli('status', '--project', path.join(ws.project, 'missing'), '--home', ws.home);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr.split('\n').length, 1);
    assert.match(missing.stderr, /project folder not found/);
    assert.equal((await cli('--help')).code, 0);
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
