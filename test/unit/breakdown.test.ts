import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
import {
  type BreakdownCategoryName,
  type ContextBreakdown,
  ContextGauge,
  type ContextGaugeOptions,
  MAX_BREAKDOWN_ITEMS,
  toolResultText,
} from '../../src/engine/live';
import { contextCommandFigures } from '../../src/engine/live/contextCommandOutput';
import { FIXTURES_DIR, tempWorkspace } from '../support/events';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';

/** What `/context` shows as the autocompact buffer of current models (anthropics/claude-code#23409). */
const AUTOCOMPACT_BUFFER_TOKENS = 33_000;

let ws: ReturnType<typeof tempWorkspace>;
let claudeDir: string;
let file: string;

beforeEach(() => {
  ws = tempWorkspace();
  claudeDir = path.join(ws.home, 'claude');
  fs.mkdirSync(claudeDir);
  file = path.join(ws.home, 'session.jsonl');
});
afterEach(() => ws.cleanup());

// ---- transcript lines as Claude Code writes them ----

type Line = Record<string, unknown>;
let clock = Date.parse('2026-11-01T10:00:00Z');
let serial = 0;

function base(extra: Line = {}): Line {
  return {
    sessionId: 'sess-1',
    cwd: ws.project,
    isSidechain: false,
    uuid: `line-${++serial}`,
    timestamp: new Date((clock += 1000)).toISOString(),
    ...extra,
  };
}

function prompt(text: string): Line {
  return { ...base(), type: 'user', message: { role: 'user', content: text } };
}

/** One API response whose call read `context` tokens and wrote `output` tokens. */
function response(context: number, content: object[], output = 40, extra: Line = {}): Line {
  const id = `msg_${++serial}`;
  return {
    ...base(extra),
    type: 'assistant',
    requestId: `req_${id}`,
    message: {
      id,
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content,
      usage: {
        input_tokens: 3,
        cache_creation_input_tokens: 500,
        cache_read_input_tokens: context - 503,
        output_tokens: output,
      },
    },
  };
}

const use = (id: string, name: string, input: object) => ({ type: 'tool_use', id, name, input });

function result(id: string, content: unknown, extra: Line = {}): Line {
  return {
    ...base(extra),
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
  };
}

const attachment = (value: object): Line => ({ ...base(), type: 'attachment', attachment: value });

const text = (chars: number, word = 'context ') =>
  word.repeat(Math.ceil(chars / word.length)).slice(0, chars);

const lines = (...entries: Line[]) => entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');

// ---- reading ----

const options = (): ContextGaugeOptions => ({ projectRoot: ws.project, transcriptsDir: claudeDir });

async function breakdownOf(content: string, gaugeOptions = options()): Promise<ContextBreakdown> {
  fs.writeFileSync(file, content);
  const gauge = new ContextGauge(file, claudeCodeAdapter, gaugeOptions);
  await gauge.refresh();
  return gauge.reading().breakdown;
}

const tokensOf = (breakdown: ContextBreakdown, name: BreakdownCategoryName) =>
  breakdown.categories.find((category) => category.name === name)!.tokens;

const FIXED: BreakdownCategoryName[] = [
  'system_prompt',
  'system_tools',
  'mcp_tools',
  'custom_agents',
  'memory_files',
  'skills',
];
const fixedOf = (breakdown: ContextBreakdown) =>
  FIXED.reduce((sum, name) => sum + tokensOf(breakdown, name), 0);

/** The used categories add up to the total, and with free space and the autocompact buffer to the window. */
function assertAddsUp(breakdown: ContextBreakdown): void {
  const used = breakdown.categories
    .filter((category) => category.name !== 'free_space' && category.name !== 'autocompact_buffer')
    .reduce((sum, category) => sum + category.tokens, 0);
  assert.equal(used, breakdown.total, 'the categories add up to the measured total');
  assert.equal(
    breakdown.categories.reduce((sum, category) => sum + category.tokens, 0),
    Math.max(breakdown.window, breakdown.total),
    'with free space and the autocompact buffer they fill the window',
  );
}

const itemsLabelled = (breakdown: ContextBreakdown, label: string) =>
  breakdown.items.filter((item) => item.label === label);

/** A 400-character first prompt: 100 tokens at four characters a token. */
const FIRST_PROMPT = text(400, 'Fix the flaky login test. ');

describe('context breakdown', () => {
  test('the real fixture transcripts: every category adds up to the gauge total', async () => {
    const dir = path.join(FIXTURES_DIR, 'transcripts');
    for (const name of fs.readdirSync(dir).filter((entry) => entry.endsWith('.jsonl'))) {
      const gauge = new ContextGauge(path.join(dir, name), claudeCodeAdapter, options());
      await gauge.refresh();
      const reading = gauge.reading();
      assert.equal(reading.breakdown.total, reading.tokens, name);
      assert.equal(reading.breakdown.window, reading.window, name);
      assertAddsUp(reading.breakdown);
      const messages = tokensOf(reading.breakdown, 'messages');
      const inMessages = reading.breakdown.items
        .filter((item) => item.category === 'messages')
        .reduce((sum, item) => sum + item.tokens, 0);
      assert.ok(inMessages <= messages, `${name}: items within messages fit in it`);
    }
  });

  test('a fixture tool result is an item that opens the result as the model read it', async () => {
    const fixture = path.join(FIXTURES_DIR, 'transcripts/claude-code-log-representative_messages.jsonl');
    const gauge = new ContextGauge(fixture, claudeCodeAdapter, options());
    await gauge.refresh();
    const [bash] = itemsLabelled(gauge.reading().breakdown, '$ python /tmp/decorator_example.py');
    assert.equal(bash.kind, 'tool_result');
    assert.deepEqual(bash.ref, { toolUseId: 'tool_002', tool: 'Bash' });
    assert.equal(await toolResultText(fixture, 'tool_002'), 'Hello, Alice!\nHello, Alice!\nHello, Alice!');
    assert.equal(await toolResultText(fixture, 'no-such-call'), undefined);
  });

  test('the fixed overhead is the first call less the first prompt, split by what is on disk', async () => {
    fs.writeFileSync(path.join(ws.project, 'CLAUDE.md'), text(800));
    fs.mkdirSync(path.join(claudeDir, 'skills', 'pdf-forms'), { recursive: true });
    const description = 'Fill in PDF forms from structured data';
    fs.writeFileSync(
      path.join(claudeDir, 'skills', 'pdf-forms', 'SKILL.md'),
      `---\nname: pdf-forms\ndescription: ${description}\n---\n${text(5_000)}`,
    );
    const breakdown = await breakdownOf(
      lines(prompt(FIRST_PROMPT), response(20_000, [{ type: 'text', text: 'On it.' }])),
    );
    assert.equal(fixedOf(breakdown), 20_000 - 100);
    assert.equal(tokensOf(breakdown, 'messages'), 100);
    assert.equal(tokensOf(breakdown, 'memory_files'), 200, 'CLAUDE.md: 800 characters');
    assert.equal(
      tokensOf(breakdown, 'skills'),
      Math.ceil(`- pdf-forms: ${description}\n`.length / 4),
      'a skill costs its listing line, not its body',
    );
    const [memory] = breakdown.items.filter((item) => item.kind === 'memory_file');
    assert.deepEqual(
      { label: memory.label, file: memory.ref.file, measured: memory.measured },
      { label: 'CLAUDE.md', file: path.join(ws.project, 'CLAUDE.md'), measured: false },
    );
    const systemPrompt = breakdown.categories.find((category) => category.name === 'system_prompt')!;
    assert.equal(systemPrompt.measured, false, 'the split of the overhead is an estimate');
    assertAddsUp(breakdown);
  });

  test("each step's growth is what it added: the response by its output tokens, the file read by the rest", async () => {
    const breakdown = await breakdownOf(
      lines(
        prompt(FIRST_PROMPT),
        response(20_000, [use('toolu_1', 'Read', { file_path: path.join(ws.project, 'src/auth.ts') })], 40),
        result('toolu_1', text(8_000)),
        response(20_000 + 40 + 2_100, [{ type: 'text', text: 'Found it.' }]),
      ),
    );
    const [read] = breakdown.items.filter((item) => item.kind === 'file_read');
    assert.deepEqual(
      { label: read.label, tokens: read.tokens, measured: read.measured, file: read.ref.file },
      { label: 'src/auth.ts', tokens: 2_100, measured: true, file: path.join(ws.project, 'src/auth.ts') },
    );
    const [call] = breakdown.items.filter((item) => item.kind === 'assistant');
    assert.deepEqual({ tokens: call.tokens, measured: call.measured }, { tokens: 40, measured: true });
    assert.equal(tokensOf(breakdown, 'messages'), 100 + 40 + 2_100);
    assertAddsUp(breakdown);
  });

  test('the same file read twice is two items', async () => {
    const auth = path.join(ws.project, 'src/auth.ts');
    const breakdown = await breakdownOf(
      lines(
        prompt(FIRST_PROMPT),
        response(20_000, [use('toolu_1', 'Read', { file_path: auth })]),
        result('toolu_1', text(4_000)),
        response(21_040, [use('toolu_2', 'Read', { file_path: auth, offset: 10, limit: 20 })]),
        result('toolu_2', text(4_000)),
        response(22_080, [{ type: 'text', text: 'Both read.' }]),
      ),
    );
    const reads = itemsLabelled(breakdown, 'src/auth.ts');
    assert.equal(reads.length, 2);
    assert.deepEqual(
      reads.map((item) => item.tokens),
      [1_000, 1_000],
    );
    assert.deepEqual(
      reads.map((item) => [item.ref.line, item.ref.endLine]),
      [
        [undefined, undefined],
        [10, 29],
      ],
      'the second read returned lines 10 to 29',
    );
  });

  test('a sidechain adds nothing', async () => {
    const session = lines(
      prompt(FIRST_PROMPT),
      response(20_000, [use('toolu_1', 'Task', { subagent_type: 'Explore', description: 'find auth code' })]),
    );
    fs.writeFileSync(file, session);
    const gauge = new ContextGauge(file, claudeCodeAdapter, options());
    await gauge.refresh();
    const before = gauge.reading().breakdown;
    fs.appendFileSync(
      file,
      lines(
        response(150_000, [use('toolu_s1', 'Read', { file_path: '/repo/big.ts' })], 40, {
          isSidechain: true,
        }),
        result('toolu_s1', text(80_000), { isSidechain: true }),
        response(170_000, [{ type: 'text', text: 'The auth code is in src/auth.ts' }], 40, {
          isSidechain: true,
        }),
      ),
    );
    assert.equal(await gauge.refresh(), true);
    assert.deepEqual(gauge.reading().breakdown, before);

    // The subagent's answer comes back to the main thread as the Task result: that is what counts.
    fs.appendFileSync(
      file,
      lines(
        result('toolu_1', 'The auth code is in src/auth.ts'),
        response(20_060, [{ type: 'text', text: 'Thanks.' }]),
      ),
    );
    await gauge.refresh();
    const [answer] = gauge.reading().breakdown.items.filter((item) => item.kind === 'subagent_result');
    assert.equal(answer.label, 'Explore: find auth code');
    assert.equal(answer.tokens, 20, 'what the step added beyond the call that asked for it');
  });

  test('MCP tool names are in the prompt from the start; a schema loaded by ToolSearch is measured', async () => {
    const breakdown = await breakdownOf(
      lines(
        attachment({
          type: 'deferred_tools_delta',
          addedNames: ['mcp__github__search_issues', 'mcp__github__get_issue', 'WebFetch'],
          addedLines: ['mcp__github__search_issues', 'mcp__github__get_issue', 'WebFetch'],
          removedNames: [],
        }),
        attachment({
          type: 'mcp_instructions_delta',
          addedNames: ['github'],
          addedBlocks: [`## github\n${text(350)}`],
          removedNames: [],
        }),
        prompt(FIRST_PROMPT),
        response(20_000, [use('toolu_1', 'ToolSearch', { query: 'select:mcp__github__search_issues' })], 30),
        result('toolu_1', [{ type: 'tool_reference', tool_name: 'mcp__github__search_issues' }]),
        response(20_000 + 30 + 1_500, [use('toolu_2', 'mcp__github__search_issues', { q: 'flaky' })], 30),
      ),
    );
    const [names] = breakdown.items.filter((item) => item.category === 'mcp_tools');
    assert.deepEqual(
      { kind: names.kind, server: names.ref.server, measured: names.measured },
      { kind: 'mcp_server', server: 'github', measured: false },
    );
    const [schema] = breakdown.items.filter((item) => item.category === 'mcp_schemas');
    assert.deepEqual(
      { label: schema.label, tokens: schema.tokens, measured: schema.measured, server: schema.ref.server },
      {
        label: 'github: 1 tool schema loaded (search_issues)',
        tokens: 1_500,
        measured: true,
        server: 'github',
      },
    );
    assert.equal(tokensOf(breakdown, 'mcp_schemas'), 1_500);
    assert.deepEqual(
      breakdown.items.filter((item) => item.category === 'system_tools'),
      [],
      'the deferred built-in WebFetch counts with the system tools, not as an item',
    );
    assertAddsUp(breakdown);
  });

  test("skills: the listing is in the prompt from the start, a skill's body once invoked", async () => {
    const listing =
      '- pdf-forms: Fill in PDF forms from structured data\n- review: Review the staged changes\n';
    const skillDir = '/home/dev/.claude/skills/pdf-forms';
    const header = `Base directory for this skill: ${skillDir}\n\n`;
    const breakdown = await breakdownOf(
      lines(
        attachment({ type: 'skill_listing', isInitial: true, skillCount: 2, content: listing }),
        prompt(FIRST_PROMPT),
        response(20_000, [use('toolu_1', 'Skill', { skill: 'pdf-forms' })], 30),
        result('toolu_1', 'Launching skill: pdf-forms'),
        { ...prompt(`${header}${text(4_000 - header.length)}`), isMeta: true },
        response(20_000 + 30 + 7 + 1_000, [{ type: 'text', text: 'Filling the form.' }]),
      ),
    );
    const [body] = breakdown.items.filter((item) => item.label === 'pdf-forms (skill body)');
    assert.deepEqual(
      { kind: body.kind, category: body.category, tokens: body.tokens, file: body.ref.file },
      { kind: 'skill', category: 'skills', tokens: 1_000, file: `${skillDir}/SKILL.md` },
    );
    const listed = breakdown.items.filter((item) => item.kind === 'skill' && item !== body);
    assert.deepEqual(listed.map((item) => item.label).sort(), ['pdf-forms', 'review']);
    const listingTokens = listed.reduce((sum, item) => sum + item.tokens, 0);
    assert.equal(tokensOf(breakdown, 'skills'), listingTokens + 1_000);
    assertAddsUp(breakdown);
  });

  test('a compaction starts the messages over; loaded schemas stay', async () => {
    const auth = path.join(ws.project, 'src/auth.ts');
    const session = lines(
      prompt(FIRST_PROMPT),
      response(20_000, [use('toolu_1', 'Read', { file_path: auth })]),
      result('toolu_1', text(8_000)),
      response(22_140, [use('toolu_2', 'ToolSearch', { query: 'select:mcp__github__get_issue' })], 30),
      result('toolu_2', [{ type: 'tool_reference', tool_name: 'mcp__github__get_issue' }]),
      response(23_670, [{ type: 'text', text: 'Loaded.' }]),
      {
        ...base(),
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 160_000 },
      },
    );
    fs.writeFileSync(file, session);
    const gauge = new ContextGauge(file, claudeCodeAdapter, options());
    await gauge.refresh();
    assert.equal(itemsLabelled(gauge.reading().breakdown, 'src/auth.ts').length, 1, 'until the next call');

    fs.appendFileSync(
      file,
      lines(
        { ...prompt(text(2_000)), isCompactSummary: true },
        prompt(FIRST_PROMPT),
        response(19_900 + 1_500 + 500 + 100, [{ type: 'text', text: 'Continuing.' }]),
      ),
    );
    await gauge.refresh();
    const breakdown = gauge.reading().breakdown;
    assert.deepEqual(itemsLabelled(breakdown, 'src/auth.ts'), []);
    const [summary] = breakdown.items.filter((item) => item.kind === 'compaction_summary');
    assert.equal(summary.tokens, 500);
    assert.equal(tokensOf(breakdown, 'messages'), 600);
    assert.equal(tokensOf(breakdown, 'mcp_schemas'), 1_500);
    assertAddsUp(breakdown);
  });

  test('/clear starts the conversation over, loaded schemas included', async () => {
    const breakdown = await breakdownOf(
      lines(
        prompt(FIRST_PROMPT),
        response(20_000, [use('toolu_1', 'ToolSearch', { query: 'select:mcp__github__get_issue' })], 30),
        result('toolu_1', [{ type: 'tool_reference', tool_name: 'mcp__github__get_issue' }]),
        response(21_530, [{ type: 'text', text: 'Loaded.' }]),
        prompt('<command-name>/clear</command-name>\n<command-message>clear</command-message>'),
        prompt(FIRST_PROMPT),
        response(20_000, [{ type: 'text', text: 'Hello again.' }]),
      ),
    );
    assert.equal(tokensOf(breakdown, 'mcp_schemas'), 0);
    assert.equal(tokensOf(breakdown, 'messages'), 100);
    assert.deepEqual(
      breakdown.items.filter((item) => item.category === 'messages').map((item) => item.kind),
      ['prompt'],
    );
  });

  test('thinking left out of later turns makes the growth negative: the response keeps its visible part', async () => {
    const thinking = { type: 'thinking', thinking: text(4_000), signature: 'sig' };
    const answer = { type: 'text', text: text(100) };
    const turns = (secondCall: number) =>
      lines(
        prompt(FIRST_PROMPT),
        response(20_000, [thinking, answer], 1_100),
        prompt(FIRST_PROMPT),
        response(secondCall, [{ type: 'text', text: 'Done.' }]),
      );
    // The API leaves the first turn's thinking out: the second call is smaller than the first plus output.
    const dropped = await breakdownOf(turns(20_000 + 25 + 100));
    const [first] = dropped.items.filter((item) => item.kind === 'assistant');
    assert.equal(first.tokens, 25, 'its 100 characters of text');
    assert.deepEqual(
      dropped.items.filter((item) => item.kind === 'prompt').map((item) => item.tokens),
      [100, 100],
    );
    assertAddsUp(dropped);
    // Models that keep thinking: the response counts whole, as it was recorded.
    const kept = await breakdownOf(turns(20_000 + 1_100 + 100));
    const [whole] = kept.items.filter((item) => item.kind === 'assistant');
    assert.deepEqual({ tokens: whole.tokens, measured: whole.measured }, { tokens: 1_100, measured: true });
  });

  test('hook context is an item, counted once when Claude Code records it twice', async () => {
    const context = `# Context Deck: previous session\n${text(1_200)}`;
    const hook = { hookName: 'SessionStart:startup', hookEvent: 'SessionStart' };
    const output = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context },
    });
    const breakdown = await breakdownOf(
      lines(
        attachment({ type: 'hook_success', ...hook, stdout: output, exitCode: 0 }),
        attachment({ type: 'hook_additional_context', ...hook, content: [context] }),
        prompt(FIRST_PROMPT),
        response(20_000, [{ type: 'text', text: 'Hi.' }]),
      ),
    );
    const hooks = breakdown.items.filter((item) => item.kind === 'hook_context');
    assert.equal(hooks.length, 1);
    assert.match(hooks[0].label, /^SessionStart:startup: # Context Deck: previous session/);
    assert.equal(hooks[0].tokens, Math.ceil(context.length / 4));
    assert.equal(fixedOf(breakdown), 20_000 - 100 - hooks[0].tokens);
  });

  test("Claude Code 2.1's SessionStart context is one item, though recorded under two hook names and a request blob", async () => {
    // hook_success says `SessionStart:startup`, hook_additional_context `SessionStart`; the api-request-blob
    // line repeats the context inside the request Claude Code sent.
    const real = fs.readFileSync(
      path.join(FIXTURES_DIR, 'real-agents', 'claude-code-2.1.332.second-session.excerpt.jsonl'),
      'utf8',
    );
    const breakdown = await breakdownOf(real);
    const hooks = breakdown.items.filter((item) => item.kind === 'hook_context');
    assert.equal(hooks.length, 1, hooks.map((item) => item.label).join('\n'));
    assert.match(hooks[0].label, /^SessionStart:startup: \[Context Deck - Session Context\]/);
    assertAddsUp(breakdown);
  });

  test('a /context output in the transcript gives the fixed categories and the buffer', async () => {
    const output = [
      '<local-command-stdout>\u001b[1mContext Usage\u001b[22m',
      '⛁ ⛀ ⛁ ⛁   claude-opus-4-6 · 21k/200k tokens (11%)',
      '⛶ ⛶ ⛶ ⛶   ⛁ System prompt: 3.2k tokens (1.6%)',
      '⛶ ⛶ ⛶ ⛶   ⛁ System tools: 17.2k tokens (8.6%)',
      '⛶ ⛶ ⛶ ⛶   ⛁ System tools (deferred): 9.1k tokens',
      '⛶ ⛶ ⛶ ⛶   ⛁ Custom agents: 387 tokens (0.2%)',
      '⛶ ⛶ ⛶ ⛶   ⛁ Skills: 128 tokens (0.1%)',
      '⛶ ⛶ ⛶ ⛶   ⛁ Messages: 260 tokens (0.1%)',
      '⛶ ⛶ ⛶ ⛶   ⛶ Free space: 146k (72.9%)',
      '⛝ ⛝ ⛝ ⛝   ⛝ Autocompact buffer: 33k tokens (16.5%)',
      '</local-command-stdout>',
    ].join('\n');
    const breakdown = await breakdownOf(
      lines(
        prompt(FIRST_PROMPT),
        response(21_000, [{ type: 'text', text: 'Hi.' }]),
        { ...base(), type: 'system', subtype: 'local_command', content: output },
        prompt(FIRST_PROMPT),
        response(21_200, [{ type: 'text', text: 'Hi again.' }]),
      ),
    );
    assert.equal(breakdown.fromContextCommand, true);
    const figures = Object.fromEntries(breakdown.categories.map((category) => [category.name, category]));
    assert.deepEqual(
      [figures.system_prompt, figures.system_tools, figures.custom_agents, figures.skills].map((c) => [
        c.tokens,
        c.measured,
      ]),
      [
        [3_200, true],
        [17_200, true],
        [387, true],
        [128, true],
      ],
    );
    assert.equal(figures.messages.tokens, 21_200 - 3_200 - 17_200 - 387 - 128);
    assert.equal(figures.autocompact_buffer.measured, true);
    assertAddsUp(breakdown);
  });

  test("a model whose max output is below the summary's reserve compacts later, as Claude Code computes it", async () => {
    // window − min(max output 8,192, 20,000) − 13,000: Claude Code's autoCompact.ts.
    const breakdown = await breakdownOf(
      lines(prompt(FIRST_PROMPT), response(100_000, [{ type: 'text', text: 'Hi.' }])),
      { ...options(), modelHint: 'claude-3-5-sonnet-20241022' },
    );
    assert.equal(breakdown.autocompactAt, 200_000 - 8_192 - 13_000);
    assert.equal(tokensOf(breakdown, 'autocompact_buffer'), 8_192 + 13_000);
    assertAddsUp(breakdown);
  });

  test('a 1M window keeps the same autocompact buffer', async () => {
    const breakdown = await breakdownOf(
      lines(prompt(FIRST_PROMPT), response(300_000, [{ type: 'text', text: 'Hi.' }])),
      {
        ...options(),
        modelHint: 'claude-sonnet-4-5[1m]',
      },
    );
    assert.equal(breakdown.window, 1_000_000);
    assert.equal(tokensOf(breakdown, 'autocompact_buffer'), AUTOCOMPACT_BUFFER_TOKENS);
    assert.equal(breakdown.autocompactAt, 1_000_000 - AUTOCOMPACT_BUFFER_TOKENS);
    assert.equal(tokensOf(breakdown, 'free_space'), 1_000_000 - 300_000 - AUTOCOMPACT_BUFFER_TOKENS);
    assertAddsUp(breakdown);
  });

  test('items are bounded: the largest are kept and all are counted', async () => {
    const calls = Array.from({ length: MAX_BREAKDOWN_ITEMS + 20 }, (_, i) => i);
    const breakdown = await breakdownOf(
      lines(
        prompt(FIRST_PROMPT),
        response(
          20_000,
          calls.map((i) => use(`toolu_${i}`, 'Bash', { command: `echo ${i}` })),
        ),
        ...calls.map((i) => result(`toolu_${i}`, text(400 + 40 * i))),
        response(60_000, [{ type: 'text', text: 'All ran.' }]),
      ),
    );
    assert.equal(breakdown.items.length, MAX_BREAKDOWN_ITEMS);
    assert.equal(breakdown.itemCount, MAX_BREAKDOWN_ITEMS + 20 + 2);
    assert.equal(breakdown.items[0].label, `$ echo ${calls.length - 1}`, 'the largest first');
  });

  test('memory files: project, local, unconditional rules and imports, not path-scoped rules', async () => {
    const project = ws.project;
    fs.mkdirSync(path.join(project, '.claude', 'rules'), { recursive: true });
    fs.mkdirSync(path.join(project, 'docs'));
    fs.writeFileSync(
      path.join(project, 'CLAUDE.md'),
      'Read @docs/guide.md first.\n```\n@docs/not-imported.md\n```\n<!-- maintainers only: a long note -->\n',
    );
    fs.writeFileSync(path.join(project, 'docs', 'guide.md'), text(400));
    fs.writeFileSync(path.join(project, 'docs', 'not-imported.md'), text(400));
    fs.writeFileSync(path.join(project, 'CLAUDE.local.md'), text(40));
    fs.writeFileSync(path.join(project, '.claude', 'rules', 'style.md'), text(80));
    fs.writeFileSync(
      path.join(project, '.claude', 'rules', 'api.md'),
      `---\npaths:\n  - "src/api/**"\n---\n${text(80)}`,
    );
    fs.writeFileSync(path.join(claudeDir, 'CLAUDE.md'), text(120));
    const breakdown = await breakdownOf(
      lines(prompt(FIRST_PROMPT), response(20_000, [{ type: 'text', text: 'Hi.' }])),
    );
    const memory = breakdown.items.filter((item) => item.kind === 'memory_file');
    assert.deepEqual(
      memory.map((item) => item.label).sort(),
      [
        '.claude/rules/style.md',
        'CLAUDE.local.md',
        'CLAUDE.md',
        'docs/guide.md',
        path.join(claudeDir, 'CLAUDE.md'),
      ].sort(),
    );
    const claudeMd = memory.find((item) => item.label === 'CLAUDE.md')!;
    assert.equal(
      claudeMd.tokens,
      Math.ceil('Read @docs/guide.md first.\n```\n@docs/not-imported.md\n```\n\n'.length / 4),
    );
  });

  test('context-deck breakdown prints the categories and the largest items', async () => {
    const transcript = path.join(claudeDir, 'projects', 'p', 'session.jsonl');
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    fs.writeFileSync(
      transcript,
      lines(
        prompt(FIRST_PROMPT),
        response(20_000, [use('toolu_1', 'Read', { file_path: path.join(ws.project, 'src/auth.ts') })], 40),
        result('toolu_1', text(8_000)),
        response(22_140, [{ type: 'text', text: 'Found it.' }]),
      ),
    );
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (line: string) => out.push(line), stderr: (line: string) => err.push(line) };
    assert.equal(await runCli(['breakdown', '--json', '--transcript', transcript], io), 0, err.join('\n'));
    const json = JSON.parse(out.join('\n')) as ContextBreakdown;
    assert.equal(json.total, 22_140);
    assert.equal(json.window, 200_000);
    assert.deepEqual(Object.keys(json.categories[0]).sort(), ['measured', 'name', 'tokens']);
    const read = json.items.find((item) => item.kind === 'file_read')!;
    assert.deepEqual(
      { label: read.label, tokens: read.tokens, measured: read.measured, ref: read.ref },
      {
        label: 'src/auth.ts',
        tokens: 2_100,
        measured: true,
        ref: { toolUseId: 'toolu_1', tool: 'Read', file: path.join(ws.project, 'src/auth.ts') },
      },
    );
    assertAddsUp(json);

    out.length = 0;
    assert.equal(await runCli(['breakdown', '--transcript', transcript, '--items', '1'], io), 0);
    const textForm = out.join('\n');
    assert.match(textForm, /^ctx 11\.1% \(22,140 \/ 200,000 tokens\), autocompact at 167,000/);
    assert.match(textForm, /^messages +2,240 +1\.1% +measured$/m);
    assert.match(textForm, /^largest items \(1 of \d+\)\n.*\n2,100 +file read +measured +src\/auth\.ts$/m);
  });
});

describe('/context output', () => {
  test('the terminal rendering and the Markdown table give the same figures; deferred tools are left out', () => {
    const terminal = contextCommandFigures(
      '<local-command-stdout>Context Usage\n⛁ System prompt: 3.1k tokens (1.6%)\n⛁ System tools: 19.0k tokens\n' +
        '⛁ MCP tools (deferred): 40k tokens\n⛁ Memory files: 1,400 tokens\n⛶ Free space: 130k (65.0%)\n' +
        '⛝ Reserved: 45.0k tokens (22.5%)</local-command-stdout>',
    );
    assert.deepEqual(terminal, {
      system_prompt: 3_100,
      system_tools: 19_000,
      memory_files: 1_400,
      free_space: 130_000,
      autocompact_buffer: 45_000,
    });
    const table = contextCommandFigures(
      '<local-command-stdout>\n# Context Usage\n\n| Category | Tokens | Percentage |\n|---|---|---|\n' +
        '| System prompt | 3.2k | 1.6% |\n| System tools | 14.3k | 7.1% |\n| Messages | 40k | 20% |\n</local-command-stdout>',
    );
    assert.deepEqual(table, { system_prompt: 3_200, system_tools: 14_300, messages: 40_000 });
    assert.equal(
      contextCommandFigures('<local-command-stdout>Model set to sonnet</local-command-stdout>'),
      undefined,
    );
  });
});
