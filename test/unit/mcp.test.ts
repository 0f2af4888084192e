import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOKEN_BUDGET, estimateTokens } from '../../src/engine/memory';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { parseServerArgs } from '../../src/mcp/main';
import { connectMemoryServer } from '../support/mcpClient';
import { bundleForNode } from '../support/bundle';
import { appendEvents, hookEvent, tempWorkspace } from '../support/events';

const T0 = Date.parse('2026-03-01T10:00:00Z');
let ws: ReturnType<typeof tempWorkspace>;
let client: Client;
let writer: ProjectEngine;

/** The text of a tool result, after checking the whole result fits the budget. */
async function call(
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const wire = JSON.stringify({ jsonrpc: '2.0', id: 1, result });
  assert.ok(estimateTokens(wire) <= TOKEN_BUDGET, `${name}: ${estimateTokens(wire)} tokens`);
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return { text, isError: result.isError === true };
}

before(async () => {
  ws = tempWorkspace('cd-mcp-');
  const bin = path.join(path.dirname(ws.home), 'bin');
  fs.mkdirSync(bin);
  await bundleForNode(bin, { mcp: 'src/mcp/main.ts' });
  const base = { session_id: 'sess-1', cwd: ws.project };
  appendEvents(ws.home, [
    hookEvent('UserPromptSubmit', { ...base, prompt: 'Fix the failing login test please', at: T0 }),
    hookEvent('PostToolUseFailure', { ...base, at: T0 + 1000 }),
    ...Array.from({ length: 60 }, (_, i) =>
      hookEvent('PostToolUse', {
        ...base,
        tool_name: 'Write',
        tool_input: { file_path: `${ws.project}/src/feature${i}/login${i}.ts`, content: 'x'.repeat(i) },
        tool_use_id: `toolu_${i}`,
        at: T0 + 2000 + i * 1000,
      }),
    ),
  ]);
  writer = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
  await writer.ingest();
  await writer.save();
  client = await connectMemoryServer(path.join(bin, 'mcp.js'), ws.home, ws.project);
});

after(async () => {
  await client?.close();
  await writer?.close();
  ws?.cleanup();
});

describe('MCP server over stdio with the SDK client', () => {
  test('lists its five tools with input schemas', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [
      'discover_tools',
      'get_observations',
      'save_observation',
      'search',
      'timeline',
    ]);
    assert.ok(tools.every((tool) => tool.description && tool.inputSchema.type === 'object'));
  });

  test('search, timeline and get_observations disclose progressively within the budget', async () => {
    const search = await call('search', { query: 'login*', limit: 50 });
    assert.equal(search.isError, false);
    assert.match(search.text, /^Memory search for "login\*"/);
    assert.match(search.text, /\[1\] [0-9a-z]{8} \| \w+: .+ \| \d+\.\d\d \| .* \| 2026-03-01 \d\d:\d\dZ/);
    assert.match(search.text, /-- \d+ results \(more match\), ~\d+ tokens, (not truncated|truncated)/);
    const id = /\[1\] ([0-9a-z]{8})/.exec(search.text)![1];

    const around = await call('timeline', { id, before: 3, after: 2 });
    assert.match(around.text, new RegExp(`^Timeline around observation ${id}`));
    assert.match(around.text, new RegExp(`>> ${id} \\|`));

    const latest = await call('timeline', { anchor: '2026-03-01T10:00:01.500Z', before: 99 });
    assert.match(latest.text, /2 observations before \(2 shown\), 60 after \(5 shown\)/);
    assert.match(latest.text, /Tests failed: npm test/);

    const full = await call('get_observations', { ids: [id, 'zzzzzzzz'] });
    assert.match(full.text, new RegExp(`## ${id} \\([0-9a-z]{16}\\) \\| `));
    assert.match(full.text, /## zzzzzzzz: no observation has id zzzzzzzz/);

    const typed = await call('search', { query: '', type: ['problem', 'bugfix'] });
    assert.match(typed.text, /problem: \[tool\] "Tests failed/);
    assert.doesNotMatch(typed.text, /feature:/);
  });

  test('bad input gets clear tool errors, never a crash', async () => {
    const tooMany = await call('get_observations', { ids: Array.from({ length: 11 }, (_, i) => `id${i}`) });
    assert.equal(tooMany.isError, true);
    assert.match(tooMany.text, /ids/);
    const unknown = await call('timeline', { id: 'nothing1' });
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /no observation has id nothing1/);
    const badTime = await call('search', { query: 'x', since: 'yesterday-ish' });
    assert.equal(badTime.isError, true);
    assert.match(badTime.text, /since must be an ISO date/);
    const syntax = await call('search', { query: '"unbalanced (login AND' });
    assert.equal(syntax.isError, false);
    assert.equal((await call('search', { query: 'login' })).isError, false, 'still serving after errors');
  });

  test('an oversized query or argument is a tool error saying the limit and how to narrow it', async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const narrow = 'Use the few most distinctive words: every word must match, so more words find less.';
    for (const [tool, args, limit] of [
      // 4,096 words once reached FTS4's expression limit: an "internal error" naming no limit.
      [
        'search',
        { query: words(4096) },
        `query is 23,465 characters long; queries are limited to 1,000. ${narrow}`,
      ],
      [
        'search',
        { query: 'x'.repeat(1_000_000) },
        `query is 1,000,000 characters long; queries are limited to 1,000. ${narrow}`,
      ],
      ['search', { query: 'login '.repeat(33) }, `query has 33 words; queries are limited to 32. ${narrow}`],
      ['discover_tools', { query: words(500) }, `queries are limited to 1,000. ${narrow}`],
      [
        'search',
        { query: 'login', session: 's'.repeat(10_000) },
        'expected string to have <=100 characters at session',
      ],
      [
        'get_observations',
        { ids: ['0'.repeat(10_000)] },
        'expected string to have <=100 characters at ids[0]',
      ],
    ] as const) {
      const answer = await call(tool, args);
      assert.equal(answer.isError, true, `${tool}: ${answer.text.slice(0, 200)}`);
      assert.ok(answer.text.includes(limit), `${tool}: ${answer.text.slice(0, 300)}`);
    }
    assert.equal((await call('search', { query: words(32) })).isError, false, 'the limit itself is served');
  });

  test('a request of 10 MB is refused with an error for that request, and the server keeps serving', async () => {
    await assert.rejects(
      client.callTool({ name: 'search', arguments: { query: 'x'.repeat(10 * 1024 * 1024) } }),
      /refused unread: it is longer than 1048576 bytes \(1 MiB\).*Send a shorter query/,
    );
    assert.equal((await call('search', { query: 'login' })).isError, false);
  });

  test('save_observation goes through the event log: searchable once the writer ingested it', async () => {
    const saved = await call('save_observation', {
      text: 'Decided: sessions expire after 30 minutes of quiet',
      type: 'decision',
    });
    assert.equal(saved.isError, false);
    const id = /Saved as ([0-9a-z]{8})/.exec(saved.text)![1];
    assert.match((await call('search', { query: 'expire' })).text, /no matches/);
    await writer.ingest();
    await writer.save();
    const found = await call('search', { query: 'sessions expire' });
    // The agent's words, quoted, and no decision whatever type it asked for: only the user makes one.
    assert.match(
      found.text,
      new RegExp(`\\[1\\] ${id} \\| discovery: \\[agent\\] "Decided: sessions expire`),
    );
  });

  test('discover_tools ranks the tools the project used', async () => {
    const tools = await call('discover_tools', {});
    assert.equal(tools.isError, false);
    assert.match(tools.text, /^Tools, most used first/);
    assert.match(tools.text, /-- \d+ tools, ~\d+ tokens/);
  });

  test('arguments: --project and --home, with or without =', () => {
    assert.deepEqual(parseServerArgs(['--project=/a', '--home', '/h', '--other']), {
      project: '/a',
      home: '/h',
    });
  });
});
