/**
 * Pruning advice on real sizes: a real transcript read by the real gauge, with the measured breakdown the
 * gauge will attach built here by hand, to the contract of breakdownTypes.ts.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
import { compactCommand } from '../../src/engine/pruning/focus';
import { adviseSession, dismissalKey } from '../../src/engine/pruning/sessionAdvice';
import { ContextGauge, type GaugeReading } from '../../src/engine/live';
import type { BreakdownItem, ContextBreakdown } from '../../src/engine/live/breakdownTypes';
import type { BreakdownCategoryName } from '../../src/shared/context';
import { tempWorkspace } from '../support/events';
import {
  type ToolTurn,
  compactBoundaryLine,
  promptLine,
  toolTurnLines,
  writeTranscript,
} from '../support/transcripts';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';

const MIN = 60_000;
const WINDOW = 200_000;
let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => ws.cleanup());

/** A breakdown as the gauge reports it: measured categories (free space makes up the window) and items. */
function breakdown(
  categories: Partial<Record<BreakdownCategoryName, number>>,
  items: BreakdownItem[],
): ContextBreakdown {
  const used = Object.values(categories).reduce((sum, tokens) => sum + tokens, 0);
  return {
    total: used,
    window: WINDOW,
    autocompactAt: WINDOW - 45_000,
    categories: [
      ...Object.entries(categories).map(([name, tokens]) => ({
        name: name as BreakdownCategoryName,
        tokens,
        measured: true,
      })),
      { name: 'free_space', tokens: WINDOW - used, measured: true },
    ],
    items,
    itemCount: items.length,
    fromContextCommand: false,
  };
}

let nextId = 0;
function item(
  kind: BreakdownItem['kind'],
  category: BreakdownCategoryName,
  label: string,
  tokens: number,
  ref: BreakdownItem['ref'],
  at: number | null = null,
): BreakdownItem {
  return { id: `bd-${nextId++}`, kind, category, label, tokens, measured: true, at, ref };
}

const base = { sessionId: 's', cwd: '/repo' };
const turn = (tool: string, input: Record<string, unknown>, chars: number, tokens: number, at: number) =>
  ({ tool, input, resultChars: chars, tokens, at }) satisfies ToolTurn;

/** The real gauge, reading memory files, skills and agents from this test's folders only. */
function isolatedGauge(file: string): ContextGauge {
  const claudeDir = path.join(ws.home, 'claude');
  return new ContextGauge(file, claudeCodeAdapter, { projectRoot: ws.project, transcriptsDir: claudeDir });
}

/** A session at 85%: an old file read, two github calls (one huge), a huge test log, a file being edited. */
async function busySession(now: number): Promise<GaugeReading> {
  const file = path.join(ws.home, 'busy.jsonl');
  writeTranscript(file, [
    promptLine({ ...base, text: 'Start with the reporting module', at: now - 240 * MIN }),
    ...toolTurnLines({
      ...base,
      turns: [
        turn('Read', { file_path: '/repo/src/legacyReport.ts' }, 36_000, 40_000, now - 230 * MIN),
        turn('mcp__github__search_issues', { q: 'flaky' }, 2_000, 60_000, now - 200 * MIN),
        turn('mcp__github__get_issue', { number: 7 }, 160_000, 100_000, now - 190 * MIN),
        turn('Bash', { command: 'npm test' }, 152_000, 140_000, now - 125 * MIN),
      ],
    }),
    promptLine({ ...base, text: 'Fix the flaky login test in auth.ts', at: now - 20 * MIN }),
    ...toolTurnLines({
      ...base,
      turns: [
        turn('Edit', { file_path: '/repo/src/auth.ts' }, 400, 160_000, now - 5 * MIN),
        turn('Read', { file_path: '/repo/src/auth.ts' }, 4_000, 170_000, now - 3 * MIN),
      ],
    }),
  ]);
  const gauge = isolatedGauge(file);
  await gauge.refresh();
  return gauge.reading();
}

/** The tool call ids behind a tracked item, in the order of the transcript. */
function resultIds(reading: GaugeReading, id: string): string[] {
  return reading.items.find((entry) => entry.id === id)!.results!.map((result) => result.toolUseId);
}

describe('pruning advice on measured sizes', () => {
  test('every saving comes from the breakdown, measured; a server costs its names, schemas and results', async () => {
    const now = Date.now();
    const reading = await busySession(now);
    const [legacyRead] = resultIds(reading, 'file:/repo/src/legacyReport.ts');
    const [search, getIssue] = resultIds(reading, 'mcp_server:github');
    // Shaped as the gauge's breakdown makes them: results by tool call, a server's names and its schemas.
    const measured: GaugeReading = {
      ...reading,
      breakdown: breakdown(
        { system_prompt: 3_000, mcp_tools: 2_100, mcp_schemas: 3_100, messages: 161_800 },
        [
          item(
            'tool_result',
            'messages',
            '$ npm test',
            38_214,
            { toolUseId: 'toolu_bash', tool: 'Bash' },
            now - 125 * MIN,
          ),
          item(
            'tool_result',
            'messages',
            'github get_issue 7',
            38_000,
            { toolUseId: getIssue, tool: 'mcp__github__get_issue' },
            now - 190 * MIN,
          ),
          item(
            'file_read',
            'messages',
            'src/legacyReport.ts',
            8_700,
            { toolUseId: legacyRead, file: '/repo/src/legacyReport.ts', tool: 'Read' },
            now - 230 * MIN,
          ),
          item(
            'mcp_server',
            'mcp_schemas',
            'github: 2 tool schemas loaded (search_issues, get_issue)',
            3_100,
            { server: 'github' },
            now - 201 * MIN,
          ),
          item('mcp_server', 'mcp_tools', 'github: 26 tool names and instructions', 1_200, {
            server: 'github',
          }),
          item('mcp_server', 'mcp_tools', 'playwright: 21 tool names and instructions', 900, {
            server: 'playwright',
          }),
          item(
            'tool_result',
            'messages',
            'github search_issues flaky',
            450,
            { toolUseId: search, tool: 'mcp__github__search_issues' },
            now - 200 * MIN,
          ),
          item('prompt', 'messages', 'Start with the reporting module', 12, {}, now - 240 * MIN),
        ],
      ),
    };
    const advice = adviseSession(measured, { now, servers: ['github', 'playwright'] });
    const recs = advice.recommendations.map((rec) => ({
      id: rec.itemId,
      item: rec.item,
      saving: rec.savingTokens,
      measured: rec.savingMeasured,
      detail: rec.savingDetail,
      reason: rec.reason,
      action: rec.action,
    }));
    assert.deepEqual(recs, [
      {
        id: 'mcp_server:playwright',
        item: 'playwright',
        saving: 900,
        measured: true,
        detail: 'tool names and instructions 900',
        reason: 'loaded 4 h ago, not used this session, unrelated to your latest prompt; saves 900',
        action: 'disableServer',
      },
      {
        id: `tool_result:${getIssue}`,
        item: 'the 38k-token MCP output `github get_issue 7` from 3 h ago',
        saving: 38_000,
        measured: true,
        detail: 'one tool output 38k',
        reason: 'returned 3 h ago, unrelated to your latest prompt; saves 38k',
        action: 'compact',
      },
      {
        id: 'file:/repo/src/legacyReport.ts',
        item: '/repo/src/legacyReport.ts',
        saving: 8_700,
        measured: true,
        detail: '1 result 8.7k',
        reason: 'unused for 3 h after one use, unrelated to your latest prompt; saves 8.7k',
        action: 'closeFile',
      },
      {
        id: 'mcp_server:github',
        item: 'github',
        // Its huge get_issue result is a recommendation of its own, so it is not counted twice.
        saving: 1_200 + 3_100 + 450,
        measured: true,
        detail: 'tool names and instructions 1.2k + loaded schemas 3.1k + 1 result 450',
        reason: 'unused for 3 h after 2 uses, unrelated to your latest prompt; saves 4.8k',
        action: 'disableServer',
      },
      {
        id: 'tool_result:toolu_bash',
        item: 'the 38k-token Bash output `$ npm test` from 2 h 5 min ago',
        saving: 38_214,
        measured: true,
        detail: 'one tool output 38k',
        reason: 'returned 2 h 5 min ago, related to your latest prompt; saves 38k',
        action: 'compact',
      },
    ]);
    assert.equal(advice.totalSavingTokens, 900 + 38_000 + 8_700 + 4_750 + 38_214);
    assert.equal(
      compactCommand(advice).split(' Drop ')[0],
      '/compact Keep what matters for the current task: fix, flaky, login, test, auth, start, reporting, module; ' +
        'files being edited: auth.ts.',
      'the task from the prompts and the edited file, not from the tools in context',
    );
  });

  test('where the breakdown has no figure: an even share of a category, or characters / 4, labelled estimated', async () => {
    const now = Date.now();
    const reading = await busySession(now);
    const advice = adviseSession(
      { ...reading, breakdown: breakdown({ mcp_tools: 3_000, mcp_schemas: 2_000, messages: 160_000 }, []) },
      { now, servers: ['github', 'playwright'] },
    );
    const saving = (id: string) => {
      const rec = advice.recommendations.find((candidate) => candidate.itemId === id)!;
      return [rec.savingTokens, rec.savingMeasured, rec.savingDetail];
    };
    assert.deepEqual(saving('mcp_server:playwright'), [
      1_500,
      false,
      'tool names and instructions (an even share) 1.5k',
    ]);
    assert.deepEqual(
      saving('mcp_server:github'),
      [
        1_500 + 2_000 + 500 + 40_000,
        false,
        'tool names and instructions (an even share) 1.5k + loaded schemas (an even share) 2.0k + 2 results 41k',
      ],
      'the schemas go to the server that was called; its results are characters / 4',
    );
    assert.deepEqual(saving('file:/repo/src/legacyReport.ts'), [9_000, false, '1 result 9.0k']);
    assert.ok(advice.recommendations.every((rec) => typeof rec.savingTokens === 'number'));
  });

  test('a server never called keeps its score and its dismissal while the agent works on', async () => {
    const now = Date.now();
    const file = path.join(ws.home, 'long.jsonl');
    // Five early file reads, then many small recent calls: the gauge's trend keeps the last 200 responses.
    const read = (i: number) =>
      turn('Read', { file_path: `/repo/src/export${i}.ts` }, 40_000, 20_000 * (i + 1), now - (300 - i) * MIN);
    const grep = (i: number) => turn('Grep', { pattern: 'x' }, 100, 150_000 + i, now - 119 * MIN + i * 1000);
    const greps = (from: number, count: number) => Array.from({ length: count }, (_, i) => grep(from + i));
    writeTranscript(file, [
      promptLine({ ...base, text: 'Profile the report export', at: now - 301 * MIN }),
      promptLine({ ...base, text: 'Speed up the export loop', at: now - 300 * MIN }),
      ...toolTurnLines({ ...base, turns: [...[0, 1, 2, 3, 4].map(read), ...greps(0, 190)] }),
    ]);
    const gauge = isolatedGauge(file);
    await gauge.refresh();
    const playwright = (at: number) => {
      const advice = adviseSession(gauge.reading(), { now: at, servers: ['playwright'] });
      const scored = advice.scored.find((candidate) => candidate.id === 'mcp_server:playwright')!;
      const rec = advice.recommendations.find((candidate) => candidate.itemId === scored.id);
      return { score: scored.score, explanation: rec?.explanation, key: dismissalKey(scored) };
    };
    const before = playwright(now);
    assert.match(before.explanation!, /: recency 0 \(over 2 h\) \+ frequency 0 \(no use\)/);

    // Twenty more responses, no user action: the oldest trend points fall out.
    writeTranscript(file, toolTurnLines({ ...base, turns: greps(190, 20) }));
    await gauge.refresh();
    assert.equal(gauge.reading().trend.length, 200);
    assert.ok(
      gauge.reading().trend[0].at! > now - 120 * MIN,
      'the trend no longer reaches back to the start',
    );
    assert.deepEqual(playwright(now + 10_000), before);

    // After a compaction the context starts there, just as steadily.
    writeTranscript(file, [
      compactBoundaryLine({ ...base, at: now - 100 * MIN, preTokens: 170_000 }),
      promptLine({ ...base, text: 'Speed up the export loop', at: now - 99 * MIN }),
      promptLine({ ...base, text: 'and its tests', at: now - 98 * MIN }),
      ...toolTurnLines({ ...base, turns: greps(210, 5) }),
    ]);
    await gauge.refresh();
    const compacted = playwright(now);
    assert.match(compacted.explanation ?? '', /recency 2 \(within 2 h\)/);
    writeTranscript(file, toolTurnLines({ ...base, turns: greps(215, 20) }));
    await gauge.refresh();
    assert.deepEqual(playwright(now + 10_000), compacted);
  });
});

test('context-deck prune --json: a number for every saving, with its label and the words of its score', async () => {
  const now = Date.now();
  fs.writeFileSync(
    path.join(ws.project, '.mcp.json'),
    JSON.stringify({ mcpServers: { playwright: { command: 'npx', args: ['@playwright/mcp@latest'] } } }),
  );
  const file = path.join(ws.home, 'session.jsonl');
  writeTranscript(file, [
    promptLine({ ...base, text: 'start', at: now - 200 * MIN }),
    promptLine({ ...base, text: 'Fix the checkout totals in cart.ts', at: now - 30 * MIN }),
    ...toolTurnLines({
      ...base,
      turns: [turn('Read', { file_path: '/repo/src/legacyReport.ts' }, 20_000, 170_000, now - 180 * MIN)],
    }),
  ]);
  const out: string[] = [];
  const cli = (...argv: string[]) =>
    runCli([...argv, '--home', ws.home, '--project', ws.project], {
      stdout: (text) => out.push(text),
      stderr: () => undefined,
    });
  const userHome = path.join(ws.home, 'user');
  assert.equal(await cli('scan', '--user-home', userHome, '--claude-dir', path.join(userHome, '.claude')), 0);
  out.length = 0;
  const code = await cli('prune', '--json', '--transcript', file);
  assert.equal(code, 0);
  const advice = JSON.parse(out.join('\n')) as {
    recommendations: Array<Record<string, unknown>>;
    totalSavingTokens: number;
  };
  const server = advice.recommendations.find((rec) => rec.item === 'playwright');
  assert.ok(server, 'the server never called is advised');
  assert.equal(
    server.reason,
    'loaded 3 h ago, not used this session, unrelated to your latest prompt; saves ≈0',
  );
  for (const rec of advice.recommendations) {
    assert.equal(typeof rec.savingTokens, 'number', `${String(rec.item)}: savingTokens`);
    assert.equal(typeof rec.savingMeasured, 'boolean');
    assert.match(
      String(rec.explanation),
      /^\d+ of 30, .+: recency \d+ \(.+\) \+ frequency \d+ \(.+\) \+ relevance \d+ \(.+\)$/,
    );
  }
  assert.equal(typeof advice.totalSavingTokens, 'number');
});
