import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
import { ContextGauge } from '../../src/engine/live';
import { encodeProjectDir, findActiveTranscript } from '../../src/engine/agents/claudeCode/transcriptFiles';
import { FIXTURES_DIR, tempWorkspace } from '../support/events';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';

let ws: ReturnType<typeof tempWorkspace>;
let file: string;

beforeEach(() => {
  ws = tempWorkspace();
  file = path.join(ws.home, 'session.jsonl');
});
afterEach(() => ws.cleanup());

const T0 = Date.parse('2026-11-01T10:00:00Z');
let clock = T0;

interface ResponseLine {
  tokens: number;
  id?: string;
  requestId?: string;
  sidechain?: boolean;
  model?: string;
}

/** An assistant line whose context tokens are `tokens` (split over input, cache creation and cache read). */
function response({
  tokens,
  id,
  requestId,
  sidechain = false,
  model = 'claude-sonnet-4-5-20250929',
}: ResponseLine) {
  const cacheRead = Math.floor(tokens / 2);
  const cacheCreation = Math.floor(tokens / 4);
  return {
    type: 'assistant',
    sessionId: 'sess-1',
    isSidechain: sidechain,
    timestamp: new Date((clock += 1000)).toISOString(),
    requestId: requestId ?? `req-${tokens}`,
    message: {
      id: id ?? `msg-${tokens}`,
      role: 'assistant',
      model,
      content: [{ type: 'text', text: 'ok' }],
      usage: {
        input_tokens: tokens - cacheRead - cacheCreation,
        cache_creation_input_tokens: cacheCreation,
        cache_read_input_tokens: cacheRead,
        output_tokens: 7,
      },
    },
  };
}

function compaction(preTokens: number) {
  return {
    type: 'system',
    subtype: 'compact_boundary',
    sessionId: 'sess-1',
    isSidechain: false,
    timestamp: new Date((clock += 1000)).toISOString(),
    content: 'Conversation compacted',
    compactMetadata: { trigger: 'auto', preTokens },
  };
}

const lines = (...entries: object[]) => entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');

async function readingOf(text: string, options: ConstructorParameters<typeof ContextGauge>[2] = {}) {
  fs.writeFileSync(file, text);
  const gauge = new ContextGauge(file, claudeCodeAdapter, options);
  await gauge.refresh();
  return gauge.reading();
}

describe('context gauge', () => {
  test('the last main-chain response sets the tokens; sidechain lines do not move it', async () => {
    const reading = await readingOf(
      lines(
        response({ tokens: 30_000 }),
        response({ tokens: 50_000 }),
        response({ tokens: 90_000, sidechain: true }),
        response({ tokens: 1_000, sidechain: true }),
      ),
    );
    assert.equal(reading.tokens, 50_000);
    assert.equal(reading.window, 200_000);
    assert.equal(reading.percent, 25);
    assert.equal(reading.sessionId, 'sess-1');
    assert.equal(reading.model, 'claude-sonnet-4-5-20250929');
    assert.deepEqual(
      reading.trend.map((point) => point.tokens),
      [30_000, 50_000],
    );
  });

  test('lines of one API response (same message.id and requestId) are one trend point', async () => {
    const reading = await readingOf(
      lines(
        response({ tokens: 10_000, id: 'm1', requestId: 'r1' }),
        response({ tokens: 10_000, id: 'm1', requestId: 'r1' }),
        response({ tokens: 10_000, id: 'm1', requestId: 'r1' }),
        response({ tokens: 12_000, id: 'm2', requestId: 'r2' }),
        response({ tokens: 12_000, id: 'm2', requestId: 'r2' }),
      ),
    );
    assert.equal(reading.trend.length, 2);
    assert.equal(reading.tokens, 12_000);
  });

  test('a compaction is recorded with its tokens before, and flagged until the next response', async () => {
    fs.writeFileSync(file, lines(response({ tokens: 150_000 }), compaction(155_000)));
    const gauge = new ContextGauge(file, claudeCodeAdapter);
    await gauge.refresh();
    let reading = gauge.reading();
    assert.equal(reading.compactions.length, 1);
    assert.equal(reading.compactions[0].preTokens, 155_000);
    assert.equal(reading.compactions[0].at, clock);
    assert.equal(reading.compactedSinceUsage, true);
    assert.equal(reading.tokens, 150_000, 'the last known size until the next response');

    fs.appendFileSync(file, lines(response({ tokens: 20_000 })));
    assert.equal(await gauge.refresh(), true);
    reading = gauge.reading();
    assert.equal(reading.compactedSinceUsage, false);
    assert.equal(reading.tokens, 20_000);
  });

  test('reads only what was appended; a torn line waits for its end', async () => {
    fs.writeFileSync(file, lines(response({ tokens: 1_000 })));
    const gauge = new ContextGauge(file, claudeCodeAdapter);
    assert.equal(await gauge.refresh(), true);
    assert.equal(await gauge.refresh(), false, 'nothing new');

    const next = lines(response({ tokens: 2_000 }));
    fs.appendFileSync(file, next.slice(0, 40));
    assert.equal(await gauge.refresh(), false, 'a torn line is not read');
    assert.equal(gauge.reading().tokens, 1_000);
    fs.appendFileSync(file, next.slice(40));
    assert.equal(await gauge.refresh(), true);
    assert.equal(gauge.reading().tokens, 2_000);
    assert.equal(gauge.reading().trend.length, 2, 'the first line was not read twice');

    fs.appendFileSync(file, '{not json\n');
    await gauge.refresh();
    assert.equal(gauge.reading().malformed, 1);
  });

  test('a truncated or replaced transcript is read again from its start', async () => {
    fs.writeFileSync(file, lines(response({ tokens: 5_000 }), response({ tokens: 6_000 })));
    const gauge = new ContextGauge(file, claudeCodeAdapter);
    await gauge.refresh();
    fs.writeFileSync(file, lines(response({ tokens: 3_000, id: 'other' })));
    assert.equal(await gauge.refresh(), true);
    assert.deepEqual(
      gauge.reading().trend.map((point) => point.tokens),
      [3_000],
    );
    // Same length, different content before the offset.
    const replaced = lines(response({ tokens: 3_200, id: 'other', requestId: 'req-3000' }));
    assert.equal(replaced.length, fs.statSync(file).size);
    fs.writeFileSync(file, replaced);
    await gauge.refresh();
    assert.equal(gauge.reading().tokens, 3_200);
    assert.equal(gauge.reading().trend.length, 1);
  });

  test('the reading breaks its tokens down; a replaced transcript starts the breakdown over', async () => {
    const used = (breakdown: { categories: Array<{ name: string; tokens: number }> }) =>
      breakdown.categories
        .filter((category) => category.name !== 'free_space' && category.name !== 'autocompact_buffer')
        .reduce((sum, category) => sum + category.tokens, 0);
    fs.writeFileSync(file, lines(response({ tokens: 30_000 }), response({ tokens: 42_000 })));
    const gauge = new ContextGauge(file, claudeCodeAdapter, { projectRoot: ws.project });
    await gauge.refresh();
    let reading = gauge.reading();
    assert.equal(reading.breakdown.total, 42_000);
    assert.equal(used(reading.breakdown), 42_000);
    assert.equal(reading.breakdown.itemCount, 1, 'the first response, measured by the second call');

    fs.writeFileSync(file, lines(response({ tokens: 9_000, id: 'other' })));
    await gauge.refresh();
    reading = gauge.reading();
    assert.equal(used(reading.breakdown), 9_000);
    assert.equal(reading.breakdown.itemCount, 0, 'nothing of the old transcript is left');
  });

  test('window: 1M for [1m] models or above 200k tokens seen; a setting wins', async () => {
    const text = lines(response({ tokens: 100_000 }));
    assert.equal((await readingOf(text)).window, 200_000);
    assert.equal((await readingOf(text, { modelHint: 'claude-sonnet-4-5[1m]' })).window, 1_000_000);
    assert.equal((await readingOf(lines(response({ tokens: 100_000, model: 'x[1m]' })))).percent, 10);
    assert.equal(
      (await readingOf(lines(response({ tokens: 250_000 }), response({ tokens: 90_000 })))).window,
      1_000_000,
    );
    assert.equal((await readingOf(text, { window: 400_000, modelHint: 'y[1m]' })).percent, 25);

    const gauge = new ContextGauge(file, claudeCodeAdapter);
    await gauge.refresh();
    gauge.configure({ window: 500_000 });
    assert.equal(gauge.reading().percent, 20);
  });

  test("window: Claude Code's own catalogue gives claude-opus-5-5 1M; a model it does not list is a guess", async () => {
    const opus = await readingOf(lines(response({ tokens: 30_000, model: 'claude-opus-5-5' })));
    assert.deepEqual(
      { window: opus.window, guessed: opus.windowGuessed, percent: opus.percent },
      {
        window: 1_000_000,
        guessed: false,
        percent: 3,
      },
    );
    assert.equal(opus.breakdown.autocompactAt, 967_000);
    const sonnet = await readingOf(lines(response({ tokens: 30_000 })));
    assert.deepEqual(
      { window: sonnet.window, guessed: sonnet.windowGuessed },
      { window: 200_000, guessed: false },
    );

    const unknown = await readingOf(
      lines(...[1, 2, 3, 4, 5].map((n) => response({ tokens: n * 10_000, model: 'claude-next-9' }))),
    );
    assert.deepEqual(
      { window: unknown.window, guessed: unknown.windowGuessed },
      { window: 200_000, guessed: true },
    );
    assert.match(unknown.forecast.reason ?? '', /window is unknown/);
    // The hooks' latest model may be another session's: the transcript's own model decides.
    const hinted = await readingOf(lines(response({ tokens: 30_000, model: 'claude-next-9' })), {
      modelHint: 'claude-sonnet-4-5',
    });
    assert.equal(hinted.windowGuessed, true);
  });

  test('window: a /context output in the transcript states it, in either rendering', async () => {
    const contextOutput = (text: string) => ({
      type: 'system',
      subtype: 'local_command',
      sessionId: 'sess-1',
      isSidechain: false,
      timestamp: new Date((clock += 1000)).toISOString(),
      // As Claude Code 2.1.332 writes `/context` run with -p (the Markdown rendering) and in the terminal.
      content: `<local-command-stdout>${text}</local-command-stdout>`,
    });
    const markdown = contextOutput(
      '## Context Usage\n\n**Model:** claude-sonnet-4-5  \n**Tokens:** 12.7k / 1m (1%)\n\n| Category | Tokens | Percentage |\n' +
        '|----------|--------|------------|\n| System prompt | 1.9k | 0.2% |\n| Messages | 210 | 0.0% |\n',
    );
    const stated = await readingOf(lines(response({ tokens: 12_700 }), markdown));
    assert.deepEqual(
      { window: stated.window, guessed: stated.windowGuessed },
      { window: 1_000_000, guessed: false },
    );
    const terminal = contextOutput(
      ' Context Usage\n ⛁ ⛀ ⛁   claude-next-9 · 25.1k/500k tokens (5%)\n ⛁ System prompt: 3.2k tokens (0.6%)\n ⛁ Messages: 8k tokens (1.6%)\n',
    );
    const fromTerminal = await readingOf(
      lines(response({ tokens: 25_100, model: 'claude-next-9' }), terminal),
    );
    assert.equal(fromTerminal.window, 500_000);
    assert.equal(fromTerminal.windowGuessed, false);
  });

  test('the trend keeps the latest points only; zero-usage synthetic messages are not readings', async () => {
    const many = Array.from({ length: 12 }, (_, i) => response({ tokens: 1_000 * (i + 1) }));
    const synthetic = { ...response({ tokens: 0, model: '<synthetic>' }) };
    const reading = await readingOf(lines(...many, synthetic), { trendPoints: 5 });
    assert.deepEqual(
      reading.trend.map((point) => point.tokens),
      [8_000, 9_000, 10_000, 11_000, 12_000],
    );
    assert.equal(reading.tokens, 12_000);
  });

  test('a missing transcript reads as nothing', async () => {
    const gauge = new ContextGauge(path.join(ws.home, 'missing.jsonl'), claudeCodeAdapter);
    assert.equal(await gauge.refresh(), false);
    assert.equal(gauge.reading().tokens, 0);
  });
});

describe('active transcript', () => {
  test("the newest session file of the project's folder; after /clear the new file counts", () => {
    const claudeDir = path.join(ws.home, 'claude');
    const folder = path.join(claudeDir, 'projects', encodeProjectDir(ws.project));
    fs.mkdirSync(path.join(folder, 'old-session', 'subagents'), { recursive: true });
    const old = path.join(folder, 'old-session.jsonl');
    fs.writeFileSync(old, lines(response({ tokens: 1 })));
    fs.utimesSync(old, new Date(T0), new Date(T0));
    assert.equal(findActiveTranscript(ws.project, claudeDir), old);

    // A subagent file below the session and another project's folder are not candidates.
    const agent = path.join(folder, 'old-session', 'subagents', 'agent-1.jsonl');
    fs.writeFileSync(agent, lines(response({ tokens: 1 })));
    const siblingFolder = path.join(claudeDir, 'projects', `${encodeProjectDir(ws.project)}-two`);
    fs.mkdirSync(siblingFolder);
    fs.writeFileSync(path.join(siblingFolder, 'x.jsonl'), '');
    assert.equal(findActiveTranscript(ws.project, claudeDir), old);

    const cleared = path.join(folder, 'new-session.jsonl');
    fs.writeFileSync(cleared, lines(response({ tokens: 2 })));
    fs.utimesSync(cleared, new Date(T0 + 60_000), new Date(T0 + 60_000));
    assert.equal(findActiveTranscript(ws.project, claudeDir), cleared);
    assert.equal(findActiveTranscript(path.join(ws.project, 'elsewhere'), claudeDir), undefined);
  });

  test("Claude Code's folder name: every character but letters, digits and '-' becomes '-'", () => {
    assert.equal(encodeProjectDir('/Users/me/my_project.v2'), '-Users-me-my-project-v2');
    assert.equal(encodeProjectDir('C:\\work\\a-b'), 'C--work-a-b');
  });
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (text) => out.push(text), stderr: (text) => err.push(text) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('context-deck gauge', () => {
  test('--json for a named transcript prints the reading', async () => {
    const fixture = path.join(FIXTURES_DIR, 'transcripts/claude-code-log-dag_compact_after_rewind.jsonl');
    const result = await cli('gauge', '--json', '--transcript', fixture, '--window', '100');
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout);
    assert.deepEqual(
      {
        sessionId: json.sessionId,
        tokens: json.tokens,
        window: json.window,
        percent: json.percent,
        compactions: json.compactions,
        model: json.model,
        transcript: json.transcript,
      },
      {
        sessionId: 's1',
        tokens: 10,
        window: 100,
        percent: 10,
        compactions: 1,
        model: 'claude-sonnet-4-20250514',
        transcript: fixture,
      },
    );
    assert.deepEqual(json.compactionList, [
      { at: Date.parse('2025-07-01T10:30:00.000Z'), preTokens: 150000 },
    ]);
  });

  test("a subagent's own transcript (every line a sidechain's) reads as the subagent's context", async () => {
    const agent = path.join(ws.home, 'agent-a1.jsonl');
    const task = {
      type: 'user',
      sessionId: 'sess-1',
      isSidechain: true,
      timestamp: new Date(clock).toISOString(),
      message: { role: 'user', content: 'Find where the gauge is drawn' },
    };
    fs.writeFileSync(
      agent,
      lines(
        task,
        response({ tokens: 12_000, sidechain: true }),
        response({ tokens: 40_000, sidechain: true }),
      ),
    );
    const result = await cli('gauge', '--json', '--transcript', agent);
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout);
    assert.deepEqual([json.tokens, json.window, json.percent], [40_000, 200_000, 20]);
  });

  test('a VS Code agent transcript that records usage gives a reading; one that does not says so', async () => {
    const usage = path.join(FIXTURES_DIR, 'vscode/transcripts/usage-session.jsonl');
    const result = await cli('gauge', '--json', '--transcript', usage, '--window', '100000');
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout);
    assert.deepEqual([json.tokens, json.percent, json.model], [21_985, 22, 'claude-sonnet-4.5']);
    const none = await cli(
      'gauge',
      '--transcript',
      path.join(FIXTURES_DIR, 'vscode/transcripts/hooks-session.jsonl'),
    );
    assert.notEqual(none.code, 0);
    assert.equal(none.stderr.split('\n').length, 1, none.stderr);
  });

  test("finds the project's active transcript; without one it fails with one line", async () => {
    const claudeDir = path.join(ws.home, 'claude');
    const none = await cli('gauge', '--json', '--project', ws.project, '--claude-dir', claudeDir);
    assert.equal(none.code, 1);
    assert.equal(none.stderr.split('\n').length, 1);
    assert.match(none.stderr, /no session file of any agent found/);

    const folder = path.join(claudeDir, 'projects', encodeProjectDir(ws.project));
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'a.jsonl'), lines(response({ tokens: 144_000 })));
    const text = await cli('gauge', '--project', ws.project, '--claude-dir', claudeDir);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^ctx 72% \(144,000 \/ 200,000 tokens/);
    assert.equal((await cli('gauge', '--window', 'big', '--project', ws.project)).code, 2);
  });

  test("another agent's session file is read by its own reader, named by its content", async () => {
    const rollout = path.join(
      FIXTURES_DIR,
      'codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.excerpt.jsonl',
    );
    const json = await cli('gauge', '--json', '--transcript', rollout, '--project', ws.project);
    assert.equal(json.code, 0, json.stderr);
    const reading = JSON.parse(json.stdout) as { agent: string; window: number; tokens: number };
    assert.deepEqual([reading.agent, reading.window], ['codex', 258_400]);
    assert.ok(reading.tokens > 0);
    const text = await cli('gauge', '--transcript', rollout, '--project', ws.project);
    assert.match(text.stdout, /^ctx \d+(\.\d)?% \([\d,]+ \/ 258,400 tokens.*\) Codex CLI session 019e1625/);
  });
});
