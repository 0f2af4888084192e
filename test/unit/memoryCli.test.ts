import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
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

beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => ws.cleanup());

describe('memory CLI', () => {
  test('save, ingest, search, get, timeline, forget and undo', async () => {
    appendEvents(ws.home, [
      hookEvent('PostToolUseFailure', {
        session_id: 's1',
        cwd: ws.project,
        at: Date.parse('2026-03-01T10:00:00Z'),
      }),
    ]);
    const saved = await cli(
      'save',
      'Always',
      'run',
      'migrations',
      'in',
      'one',
      'transaction',
      '--type',
      'pattern',
      '--json',
    );
    assert.equal(saved.code, 0, saved.stderr);
    const { id } = JSON.parse(saved.stdout) as { id: string };
    assert.match((await cli('save', 'x', '--type', 'nonsense')).stderr, /unknown type "nonsense"/);
    assert.equal((await cli('ingest')).code, 0);

    const search = await cli('search', 'migrations', '--json');
    assert.equal(search.code, 0, search.stderr);
    const hits = JSON.parse(search.stdout).hits as Array<{ id: string; type: string }>;
    assert.deepEqual(
      hits.map((hit) => [hit.id, hit.type]),
      [[id, 'pattern']],
    );
    assert.match(
      (await cli('search', 'express', '--type', 'problem')).stdout,
      /problem: Tests failed: npm test/,
    );
    assert.equal(
      JSON.parse((await cli('search', 'express', '--until', '2026-03-01', '--json')).stdout).hits.length,
      0,
    );
    assert.equal((await cli('search', 'x', '--since', 'soon')).code, 2);

    const got = await cli('get', id.slice(0, 8), '--json');
    assert.equal(JSON.parse(got.stdout).observations[0].text, 'Always run migrations in one transaction');
    assert.equal((await cli('get', 'zzzzzzzz')).code, 1);

    const line = await cli('timeline', '--id', id.slice(0, 6), '--before', '1', '--after', '0', '--json');
    const result = JSON.parse(line.stdout);
    assert.deepEqual([result.entries.length, result.totalBefore, result.totalAfter], [2, 1, 0]);
    assert.equal((await cli('timeline', '--id', 'a', '--anchor', '2026-01-01')).code, 2);

    const forget = await cli('forget', id.slice(0, 8));
    assert.equal(forget.code, 0, forget.stderr);
    assert.match(forget.stdout, /Forgetting [0-9a-z]{8}: Always run migrations in one transaction/);
    assert.match(forget.stdout, /next ingest/);
    await cli('ingest');
    assert.equal(JSON.parse((await cli('search', 'migrations', '--json')).stdout).hits.length, 0);
    assert.equal(
      (await cli('forget', id.slice(0, 8))).code,
      1,
      'a forgotten observation is gone for forget too',
    );
    assert.equal((await cli('forget', id.slice(0, 8), '--undo')).code, 0);
    await cli('ingest');
    assert.equal(JSON.parse((await cli('search', 'migrations', '--json')).stdout).hits.length, 1);
  });
});
