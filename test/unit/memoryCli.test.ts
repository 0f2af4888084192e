import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
import { projectStateDir } from '../../src/engine/kernel/paths';
import { LOCK_FILE, ProjectEngine } from '../../src/engine/project/projectEngine';
import { identifyProject } from '../../src/engine/kernel/projectIdentity';
import { appendEvents, hookEvent, tempWorkspace } from '../support/events';

let ws: ReturnType<typeof tempWorkspace>;

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...argv, '--home', ws.home, '--project', ws.project], {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

async function hitIds(query: string): Promise<string[]> {
  const search = await cli('search', query, '--json');
  assert.equal(search.code, 0, search.stderr);
  return (JSON.parse(search.stdout).hits as Array<{ id: string }>).map((hit) => hit.id);
}

/** Every line of the project's event log, parsed. */
function loggedEvents(): Array<Record<string, unknown>> {
  const dir = path.join(ws.home, 'events');
  return fs
    .readdirSync(dir)
    .flatMap((name) => fs.readFileSync(path.join(dir, name), 'utf8').split('\n'))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => ws.cleanup());

describe('memory CLI', () => {
  test('save, forget and undo show at once in search, get and timeline when nobody else writes the project', async () => {
    appendEvents(ws.home, [
      hookEvent('PostToolUseFailure', {
        session_id: 's1',
        cwd: ws.project,
        at: Date.parse('2026-03-01T10:00:00Z'),
      }),
    ]);
    const text = ['Always', 'run', 'migrations', 'in', 'one', 'transaction'];
    const saved = await cli('save', ...text, '--type', 'pattern', '--json');
    assert.equal(saved.code, 0, saved.stderr);
    const { id, applied } = JSON.parse(saved.stdout) as { id: string; applied: boolean };
    assert.ok(
      loggedEvents().some((event) => event.id === id && event.hook_event_name === 'ContextDeck.MemorySave'),
      'the save is in the event log, the truth',
    );
    const lock = path.join(projectStateDir(ws.home, identifyProject(ws.project).id), LOCK_FILE);
    assert.equal(fs.existsSync(lock), false, 'the CLI let go of the writer role');
    assert.match((await cli('save', 'x', '--type', 'nonsense')).stderr, /unknown type "nonsense"/);

    // No `ingest` in between: the save applied the log, the hook event before it included.
    const search = await cli('search', 'migrations', '--json');
    assert.equal(search.code, 0, search.stderr);
    const hits = JSON.parse(search.stdout).hits as Array<{ id: string; type: string }>;
    assert.deepEqual(
      hits.map((hit) => [hit.id, hit.type]),
      [[id, 'pattern']],
    );
    assert.equal(applied, true);
    assert.match(
      (await cli('search', 'express', '--type', 'problem')).stdout,
      /problem\s+2026-03-01 10:00Z\s+Tests failed: npm test/,
    );
    assert.equal(
      JSON.parse((await cli('search', 'express', '--until', '2026-03-01', '--json')).stdout).hits.length,
      0,
    );
    assert.equal((await cli('search', 'x', '--since', 'soon')).code, 2);

    const got = await cli('get', id.slice(0, 8), '--json');
    assert.equal(JSON.parse(got.stdout).observations[0].text, 'Always run migrations in one transaction');

    const line = await cli('timeline', '--id', id.slice(0, 6), '--before', '1', '--after', '0', '--json');
    const result = JSON.parse(line.stdout);
    assert.deepEqual([result.entries.length, result.totalBefore, result.totalAfter], [2, 1, 0]);
    assert.equal((await cli('timeline', '--id', 'a', '--anchor', '2026-01-01')).code, 2);

    const forget = await cli('forget', id.slice(0, 8));
    assert.equal(forget.code, 0, forget.stderr);
    assert.equal(
      forget.stdout,
      `Forgot ${id.slice(0, 8)}: Always run migrations in one transaction\n` +
        `Undo with: context-deck forget ${id.slice(0, 8)} --undo`,
    );
    assert.deepEqual(await hitIds('migrations'), []);
    assert.equal(
      (await cli('forget', id.slice(0, 8))).code,
      1,
      'a forgotten observation is gone for forget too',
    );
    const undo = await cli('forget', id.slice(0, 8), '--undo');
    assert.equal(undo.stdout, `Restored ${id.slice(0, 8)}: Always run migrations in one transaction`);
    assert.deepEqual(await hitIds('migrations'), [id]);
    assert.equal(fs.existsSync(lock), false);
  });

  test('while another process writes the project, save and forget leave it to that writer and say so', async () => {
    const vscode = await ProjectEngine.open({
      home: ws.home,
      folder: ws.project,
      role: 'writer',
      purpose: `VS Code window (extension host pid ${process.pid})`,
    });
    try {
      const saved = await cli('save', 'Deploys', 'go', 'through', 'staging', '--type', 'decision');
      assert.equal(saved.code, 0, saved.stderr);
      const said =
        /^Saved as ([0-9a-z]{8}) to the event log; the open VS Code window will pick it up\.$/.exec(
          saved.stdout,
        );
      assert.ok(said, saved.stdout);
      const id = said[1];
      assert.deepEqual(await hitIds('staging'), [], 'not in the database before the writer ingests');

      await vscode.ingest();
      await vscode.save();
      assert.equal((await hitIds('staging')).length, 1);

      const forget = await cli('forget', id);
      assert.equal(forget.code, 0, forget.stderr);
      assert.match(
        forget.stdout,
        /^Forgetting [0-9a-z]{8}: Deploys go through staging\nSaved to the event log; the open VS Code window will pick it up\.\n/,
      );
      assert.equal(vscode.role, 'writer', 'the window kept its role');
      await vscode.ingest();
      await vscode.save();
      assert.deepEqual(await hitIds('staging'), []);
    } finally {
      await vscode.close();
    }
    const follower = await ProjectEngine.open({
      home: ws.home,
      folder: ws.project,
      role: 'writer',
      purpose: 'context-deck ingest (CLI)',
    });
    try {
      const saved = await cli('save', 'Another', 'note');
      const writer = `the project's writer (pid ${process.pid}, context-deck ingest (CLI))`;
      assert.ok(saved.stdout.endsWith(`to the event log; ${writer} will pick it up.`), saved.stdout);
    } finally {
      await follower.close();
    }
  });

  test('search prints aligned, labelled columns, the count and a next step that is a real command', async () => {
    for (const note of ['Cache the schema per tenant', 'The tenant cache expires hourly', 'Unrelated'])
      assert.equal((await cli('save', note, '--type', 'decision')).code, 0);

    const search = await cli('search', 'tenant');
    assert.equal(search.code, 0, search.stderr);
    const lines = search.stdout.split('\n');
    assert.match(lines[0], /^id +type +when +title$/);
    // Each column starts where its label does (cells are two spaces or more apart).
    const starts = (line: string) => [...line.matchAll(/(?<=^| {2})\S/g)].map((match) => match.index);
    assert.equal(starts(lines[0]).length, 4);
    for (const row of lines.slice(1, 3)) assert.deepEqual(starts(row), starts(lines[0]), row);
    assert.match(search.stdout, /^2 results for "tenant"$/m);
    assert.doesNotMatch(search.stdout, /get_observations|timeline with an id/, 'no MCP tool names');

    const next = /^Next: context-deck (get [0-9a-z]{8})\b.*context-deck (timeline --id [0-9a-z]{8})\b/m.exec(
      search.stdout,
    );
    assert.ok(next, search.stdout);
    for (const command of [next[1], next[2]]) {
      const run = await cli(...command.split(' '));
      assert.equal(run.code, 0, `${command}: ${run.stderr}`);
      assert.match(run.stdout, /tenant/);
    }
    assert.match((await cli('search', 'zebra')).stdout, /^No matches for "zebra"\./);
  });

  test('get of a missing id prints its error alone: one line on stderr, nothing on stdout, exit 1', async () => {
    for (const json of [[], ['--json']]) {
      const missing = await cli('get', 'zzzzzzzz', ...json);
      assert.deepEqual(missing, {
        code: 1,
        stdout: '',
        stderr: 'context-deck get: no observation has id zzzzzzzz',
      });
    }
  });
});
