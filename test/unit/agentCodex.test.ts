import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { SessionItem } from '../../src/engine/agents/adapter';
import { codexAdapter } from '../../src/engine/agents/codex';
import { parseApplyPatch } from '../../src/engine/agents/codex/applyPatch';
import {
  CODEX_RECORDED_EVENTS,
  codexConnected,
  codexHooksPath,
  planCodexConnect,
  planCodexDisconnect,
} from '../../src/engine/agents/codex/hooksFile';
import { serversInConfig } from '../../src/engine/agents/codex/mcpConfig';
import { serverLine } from '../../src/engine/agents/codex/serverLines';
import { codexPayloads } from '../../src/engine/agents/codex/payload';
import { parseToolText } from '../../src/engine/agents/codex/toolCalls';
import { readRollout } from '../../src/engine/agents/codex/rollout';
import { codexSessions } from '../../src/engine/agents/codex/rolloutFiles';
import { readSessionHead, readSessionLines } from '../../src/engine/agents/sessionBytes';
import type { EventPayload } from '../../src/engine/events/eventLine';
import { sessionGauge, sessionOfFile } from '../../src/engine/live/activeSession';
import { sessionFileOwner } from '../../src/engine/transcripts/agentSessionImport';
import { gaugeOfItems } from '../../src/engine/live/sessionFileGauge';
import { PORTABLE_RECORDER_COMMAND } from '../../src/engine/agents/recorderCommand';
import { spoolCommandFor } from '../../src/engine/agents/spoolCommand';
import { FIXTURES_DIR, HOOK_EXAMPLES_DIR } from '../support/events';

const CODEX_DIR = path.join(FIXTURES_DIR, 'codex');
const PAYLOADS_DIR = path.join(CODEX_DIR, 'hook-payloads');
const CLI_ROLLOUT = path.join(
  CODEX_DIR,
  'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.excerpt.jsonl',
);
const DESKTOP_ROLLOUT = path.join(
  CODEX_DIR,
  'rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.excerpt.jsonl',
);
const CLI_SESSION = '019e1625-789d-76c0-80ab-3724b5ddb799';
const CLI_ROLLOUT_ZST = `${CLI_ROLLOUT}.zst`;

function payload(name: string): EventPayload {
  return JSON.parse(fs.readFileSync(path.join(PAYLOADS_DIR, name), 'utf8')) as EventPayload;
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cd-codex-'));
}

type Of<T extends SessionItem['type']> = Extract<SessionItem, { type: T }>;
function ofType<T extends SessionItem['type']>(items: SessionItem[], type: T): Array<Of<T>> {
  return items.filter((item): item is Of<T> => item.type === type);
}

function keysOf(items: SessionItem[]): string[] {
  return items.flatMap((item) =>
    item.type === 'prompt' ? [item.key] : item.type === 'tool' ? [item.call.useId] : [],
  );
}

describe('Codex hook payloads', () => {
  test('every Codex payload is recognised as certainly Codex', () => {
    for (const name of fs.readdirSync(PAYLOADS_DIR))
      assert.equal(codexPayloads.recognise(payload(name)), 2, name);
  });

  test("Claude Code's documented payloads are not Codex's", () => {
    for (const name of fs.readdirSync(HOOK_EXAMPLES_DIR).filter((file) => file.endsWith('.input.json'))) {
      const claude = JSON.parse(fs.readFileSync(path.join(HOOK_EXAMPLES_DIR, name), 'utf8')) as EventPayload;
      assert.equal(codexPayloads.recognise(claude), 0, name);
    }
  });

  test('a session start, a prompt and a stop read as such', () => {
    const start = codexPayloads.normalise(payload('SessionStart.input.json'));
    assert.deepEqual(start, {
      agent: 'codex',
      kind: 'session-start',
      name: 'SessionStart',
      sessionId: CLI_SESSION,
      cwd: '/Users/Sample_User/repos/codemie-ai/codemie-code',
      transcriptPath: `/Users/Sample_User/.codex/sessions/2026/05/11/rollout-2026-05-11T11-26-55-${CLI_SESSION}.jsonl`,
      model: 'gpt-5.5',
      source: 'startup',
    });
    const prompt = codexPayloads.normalise(payload('UserPromptSubmit.input.json'));
    assert.equal(prompt?.kind, 'prompt');
    assert.equal(prompt?.prompt, "let's update the defailt context compart to 90 in env var");
    const stop = codexPayloads.normalise(payload('Stop.input.json'));
    assert.equal(stop?.kind, 'stop');
    assert.equal(stop?.message, 'The config now includes the default compaction threshold.');
    // Codex's PostCompact says a compaction is done, with its trigger but no summary.
    const compacted = codexPayloads.normalise(payload('PostCompact.input.json'));
    assert.deepEqual(
      [compacted?.kind, compacted?.trigger, compacted?.summary],
      ['compacted', 'auto', undefined],
    );
    const compact = codexPayloads.normalise(payload('PreCompact.input.json'));
    assert.equal(compact?.kind, 'compact');
    assert.equal(compact?.trigger, 'auto');
    const subagent = codexPayloads.normalise(payload('SubagentStop.input.json'));
    assert.equal(subagent?.kind, 'subagent-stop');
    assert.equal(subagent?.agentType, 'explorer');
    assert.equal(subagent?.message, 'Found the compaction defaults in src/agents/plugins.');
  });

  test('a shell call is a shell command with its output', () => {
    const before = codexPayloads.normalise(payload('PreToolUse.Bash.input.json'));
    assert.equal(before?.kind, 'tool-start');
    assert.deepEqual(before?.tool, {
      name: 'Bash',
      kind: 'shell',
      useId: 'call_jQYxA5wvjWJ4ZtptybmzrkNm',
      input: { command: 'git status --short' },
    });
    const after = codexPayloads.normalise(payload('PostToolUse.Bash.input.json'));
    assert.equal(after?.kind, 'tool-end');
    assert.deepEqual(after?.tool?.outcome, { failed: false, output: '' });
  });

  test('apply_patch updating a file is an edit of that file, adding one a write that creates it', () => {
    const update = codexPayloads.normalise(payload('PostToolUse.apply_patch.update.input.json'))?.tool;
    assert.equal(update?.kind, 'edit');
    assert.equal(update?.input.path, 'src/agents/plugins/codemie-code.plugin.ts');
    assert.equal(update?.input.edits?.length, 1);
    assert.match(update?.input.edits?.[0].after ?? '', /threshold: 0\.9,/);
    assert.doesNotMatch(update?.input.edits?.[0].before ?? '', /threshold/);
    assert.equal(update?.outcome?.failed, false);
    assert.equal(update?.outcome?.exitCode, 0);
    assert.equal(
      update?.outcome?.output,
      'Success. Updated the following files:\nM src/agents/plugins/codemie-code.plugin.ts\n',
    );

    const add = codexPayloads.normalise(payload('PostToolUse.apply_patch.add.input.json'))?.tool;
    assert.equal(add?.kind, 'write');
    assert.equal(add?.input.path, 'post_tool_use_apply_patch.txt');
    assert.equal(add?.input.content, 'patched\n');
    assert.equal(add?.outcome?.created, true);
  });

  test('an MCP tool names its server and reports its result', () => {
    const event = codexPayloads.normalise(payload('PostToolUse.mcp.input.json'));
    assert.equal(event?.kind, 'tool-end');
    assert.equal(event?.tool?.name, 'mcp__rmcp__echo');
    assert.equal(event?.tool?.kind, 'mcp');
    assert.equal(event?.tool?.server, 'rmcp');
    assert.deepEqual(event?.tool?.outcome, {
      failed: false,
      output: '{"echo":"ECHOING: hook e2e ping","env":null}',
    });
    const failing = {
      ...payload('PostToolUse.mcp.input.json'),
      tool_response: { content: [{ type: 'text', text: 'no such page' }], isError: true },
    };
    const failed = codexPayloads.normalise(failing);
    assert.equal(failed?.kind, 'tool-failed');
    assert.equal(failed?.tool?.outcome?.output, 'no such page');
  });

  test('a failed patch is a failed tool call', () => {
    const failing = {
      ...payload('PostToolUse.apply_patch.update.input.json'),
      tool_response:
        '{"output":"apply_patch verification failed","metadata":{"exit_code":1,"duration_seconds":0.0}}',
    };
    const event = codexPayloads.normalise(failing);
    assert.equal(event?.kind, 'tool-failed');
    assert.equal(event?.tool?.outcome?.exitCode, 1);
  });

  test('odd payloads neither throw nor pass as Codex', () => {
    const odd: EventPayload[] = [
      {},
      { hook_event_name: 42 },
      {
        hook_event_name: 'PostToolUse',
        tool_name: 'apply_patch',
        tool_input: 'not an object',
        tool_response: [1, 2],
      },
      {
        hook_event_name: 'PostToolUse',
        turn_id: 't',
        tool_name: 'Bash',
        tool_input: { command: ['ls', '-la'] },
        tool_response: null,
      },
      { hook_event_name: 'toString', turn_id: 't' },
    ];
    for (const value of odd) {
      assert.doesNotThrow(() => codexPayloads.recognise(value));
      assert.doesNotThrow(() => codexPayloads.normalise(value));
    }
    assert.equal(codexPayloads.recognise({}), 0);
    assert.equal(codexPayloads.recognise({ hook_event_name: 'toString', turn_id: 't' }), 0);
    assert.equal(codexPayloads.normalise(odd[3])?.tool?.input.command, 'ls -la');
  });
});

describe('shell results as Codex reports them', () => {
  test('the exit code comes from the header above the output, never from the output itself', () => {
    assert.deepEqual(parseToolText('Exit code: 1\nWall time: 0.2 seconds\nOutput:\nboom\n'), {
      output: 'boom\n',
      exitCode: 1,
    });
    assert.deepEqual(
      parseToolText(
        'Chunk ID: a1\nWall time: 0.0 seconds\nProcess exited with code 127\nOriginal token count: 3\nOutput:\nnope\n',
      ),
      { output: 'nope\n', exitCode: 127 },
    );
    assert.deepEqual(parseToolText('Exit code: 1\n(printed by the program)'), {
      output: 'Exit code: 1\n(printed by the program)',
    });
    assert.deepEqual(parseToolText('{"output":"ok\\n","metadata":{"exit_code":0,"duration_seconds":0.1}}'), {
      output: 'ok\n',
      exitCode: 0,
    });
  });

  test('older shell tools: argv arrays joined into a command line, structured exit codes', () => {
    const lines = [
      { type: 'session_meta', payload: { id: 's-old', cwd: '/w', cli_version: '0.30.0' } },
      {
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'shell',
          arguments: '{"command":["bash","-lc","ls -la src"],"workdir":"/w"}',
          call_id: 'c1',
        },
      },
      {
        type: 'response_item',
        payload: {
          type: 'function_call_output',
          call_id: 'c1',
          output:
            '{"output":"ls: src: No such file or directory\\n","metadata":{"exit_code":2,"duration_seconds":0.0}}',
        },
      },
      {
        type: 'response_item',
        payload: {
          type: 'local_shell_call',
          call_id: 'c2',
          status: 'completed',
          action: { type: 'exec', command: ['/bin/sh', '-c', 'printf ok'] },
        },
      },
      { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c2', output: 'ok' } },
      {
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'read_file',
          arguments: '{"file_path":"/w/README.md","offset":1,"limit":40}',
          call_id: 'c3',
        },
      },
      {
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'spawn_agent',
          arguments: '{"agent_type":"explorer","message":"map the tests"}',
          call_id: 'c4',
        },
      },
    ].map((line) => JSON.stringify({ timestamp: '2025-09-01T10:00:00.000Z', ...line }));
    const calls = ofType(readRollout(lines.join('\n')).items, 'tool').map((item) => item.call);
    assert.deepEqual(
      calls.map((call) => [call.name, call.kind, call.input, call.outcome?.failed, call.outcome?.exitCode]),
      [
        ['shell', 'shell', { command: "bash -lc 'ls -la src'" }, true, 2],
        ['local_shell', 'shell', { command: "/bin/sh -c 'printf ok'" }, false, undefined],
        ['read_file', 'read', { path: '/w/README.md' }, undefined, undefined],
        [
          'spawn_agent',
          'subagent',
          { prompt: 'map the tests', subagentType: 'explorer' },
          undefined,
          undefined,
        ],
      ],
    );
  });

  test('before the line wrapper: a bare meta, bare items, and the model-visible user message', () => {
    const lines = [
      '{"id":"0199a000-0000-7000-8000-000000000001","timestamp":"2025-08-01T10:00:00.000Z","instructions":null,"cwd":"/w"}',
      '{"record_type":"state"}',
      '{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\\n  <cwd>/w</cwd>\\n</environment_context>"}]}',
      '{"type":"message","role":"user","content":[{"type":"input_text","text":"fix the build"}]}',
      '{"type":"function_call","name":"shell","arguments":"{\\"command\\":[\\"make\\"]}","call_id":"c1"}',
    ];
    assert.equal(codexSessions.recognise(lines[0]), true);
    const { items, skipped } = readRollout(lines.join('\n'));
    assert.equal(skipped, 0);
    assert.equal(ofType(items, 'session')[0].sessionId, '0199a000-0000-7000-8000-000000000001');
    assert.deepEqual(
      ofType(items, 'prompt').map((prompt) => prompt.text),
      ['fix the build'],
    );
    assert.equal(ofType(items, 'tool')[0].call.input.command, 'make');
  });
});

describe('apply_patch envelopes', () => {
  test('add, update with a move, and delete are read in order', () => {
    const files = parseApplyPatch(
      [
        '*** Begin Patch',
        '*** Add File: docs/new.md',
        '+# New',
        '+',
        '+text',
        '*** Update File: src/a.ts',
        '*** Move to: src/b.ts',
        '@@ function a',
        ' keep',
        '-old',
        '+new',
        '@@',
        '-gone',
        '*** Delete File: src/c.ts',
        '*** End Patch',
        '',
      ].join('\n'),
    );
    assert.deepEqual(files, [
      { op: 'add', path: 'docs/new.md', hunks: [], content: '# New\n\ntext\n' },
      {
        op: 'update',
        path: 'src/a.ts',
        moveTo: 'src/b.ts',
        hunks: [
          { before: 'keep\nold', after: 'keep\nnew' },
          { before: 'gone', after: '' },
        ],
      },
      { op: 'delete', path: 'src/c.ts', hunks: [] },
    ]);
    assert.deepEqual(parseApplyPatch('not a patch'), []);
  });
});

describe('Codex rollouts', () => {
  test('a rollout is recognised from its first line, even cut short', () => {
    const head = fs.readFileSync(CLI_ROLLOUT, 'utf8').slice(0, 300);
    assert.equal(codexSessions.recognise(head), true);
    assert.equal(codexSessions.recognise(fs.readFileSync(DESKTOP_ROLLOUT, 'utf8')), true);
    const claude = fs.readFileSync(
      path.join(
        FIXTURES_DIR,
        'transcripts',
        fs.readdirSync(path.join(FIXTURES_DIR, 'transcripts')).find((f) => f.endsWith('.jsonl'))!,
      ),
      'utf8',
    );
    assert.equal(codexSessions.recognise(claude), false);
    assert.equal(codexSessions.recognise('not json at all'), false);
  });

  test('a CLI session: its prompts, tool calls with failures from exit codes, and context usage', async () => {
    const { items, skipped } = await codexSessions.read(CLI_ROLLOUT);
    assert.equal(skipped, 0);
    const [session] = ofType(items, 'session');
    assert.equal(ofType(items, 'session').length, 1);
    assert.deepEqual(
      { id: session.sessionId, cwd: session.cwd, model: session.model },
      { id: CLI_SESSION, cwd: '/Users/Sample_User/repos/codemie-ai/codemie-code', model: 'gpt-5.5' },
    );
    assert.equal(session.at, Date.parse('2026-05-11T08:26:55.042Z'));

    // The AGENTS.md and permission messages Codex injects are not the user's prompts.
    assert.deepEqual(
      ofType(items, 'prompt').map((prompt) => prompt.text),
      ['show tools', "let's update the defailt context compart to 90 in env var"],
    );

    const tools = ofType(items, 'tool').map((item) => item.call);
    assert.equal(tools.length, 16);
    const byName = (name: string) => tools.filter((call) => call.name === name).length;
    assert.deepEqual(
      {
        exec: byName('exec_command'),
        stdin: byName('write_stdin'),
        patch: byName('apply_patch'),
        web: byName('web_search'),
        plan: byName('update_plan'),
      },
      { exec: 5, stdin: 6, patch: 3, web: 1, plan: 1 },
    );
    // exec_command's own output says the process is still running; its end event has the real exit.
    const failed = tools.filter((call) => call.outcome?.failed);
    assert.deepEqual(
      failed.map((call) => [call.useId, call.outcome?.exitCode]),
      [
        ['call_NqXBF7JK4NH5M85YXgojxxmC', 2],
        ['call_nTBN3WDXOZcJOBB6UsOQHpni', 1],
      ],
    );
    assert.match(failed[1].input.command ?? '', /^npm test -- --run /);
    assert.equal(tools.find((call) => call.useId === 'call_Y2p6KmqwoTtpi6atpDPuxC5M')?.outcome?.exitCode, 0);
    assert.ok(
      tools.every((call) => call.outcome !== undefined),
      'every call has its result',
    );

    const search = tools.find((call) => call.name === 'web_search');
    assert.equal(search?.kind, 'web-search');
    assert.equal(search?.useId, 'ws_023bc037ca71df15016a0195bb758c819ba5b12d072d9bb0ae');
    assert.match(search?.input.query ?? '', /^OpenCode config compact context percentage/);

    const patches = tools.filter((call) => call.name === 'apply_patch');
    assert.deepEqual(
      patches.map((call) => [call.kind, call.input.path]),
      [
        ['edit', 'src/agents/plugins/__tests__/codemie-code-reasoning.test.ts'],
        ['edit', 'src/agents/plugins/codemie-code.plugin.ts'],
        ['edit', 'src/agents/plugins/opencode/opencode.plugin.ts'],
      ],
    );

    // One reading per token_count line of the excerpt (13), each a different call.
    const usage = ofType(items, 'usage');
    assert.equal(usage.length, 13);
    // The gauge is the last call's tokens (input with cache, plus output), never the cumulative total.
    assert.deepEqual(
      { tokens: usage[0].contextTokens, window: usage[0].contextWindow, model: usage[0].model },
      { tokens: 18870, window: 258400, model: 'gpt-5.5' },
    );
    assert.equal(usage.at(-1)?.contextTokens, 132006);
  });

  test('a desktop session: MCP calls named as hooks name them, prompts without turns', async () => {
    const { items, skipped } = await codexSessions.read(DESKTOP_ROLLOUT);
    assert.equal(skipped, 0);
    assert.equal(ofType(items, 'session')[0].model, undefined);
    assert.equal(ofType(items, 'prompt').length, 3);
    const tools = ofType(items, 'tool').map((item) => item.call);
    assert.equal(tools.length, 5);
    const mcp = tools.filter((call) => call.kind === 'mcp');
    assert.deepEqual(
      mcp.map((call) => [call.name, call.server]),
      [
        ['mcp__node_repl__js', 'node_repl'],
        ['mcp__node_repl__js', 'node_repl'],
      ],
    );
    assert.equal(mcp[0].name, codexAdapter.tools?.mcpToolName('node_repl', 'js'));
    assert.deepEqual(
      tools.filter((call) => call.outcome?.failed).map((call) => call.outcome?.exitCode),
      [1],
    );
    assert.equal(ofType(items, 'usage').length, 0);
  });

  test('repeated token counts are one reading', () => {
    const lines = fs.readFileSync(CLI_ROLLOUT, 'utf8').split('\n');
    const tokenLine = lines.find((line) => line.includes('"type":"token_count"'))!;
    const doubled = lines.flatMap((line) => (line === tokenLine ? [line, line, line] : [line])).join('\n');
    assert.equal(ofType(readRollout(doubled).items, 'usage').length, 13);
  });

  test('a torn last line is skipped and counted, the rest read', () => {
    const text = fs.readFileSync(CLI_ROLLOUT, 'utf8');
    const lines = text.trimEnd().split('\n');
    const last = lines.pop()!;
    const torn = [...lines, last.slice(0, last.length / 2)].join('\n');
    const whole = readRollout(text);
    const cut = readRollout(torn);
    assert.equal(cut.skipped, 1);
    // The torn line was the turn's completion: only the report it carried is missing.
    assert.deepEqual(cut.items, whole.items.slice(0, -1));
    assert.equal(whole.items.at(-1)?.type, 'report');
    // A torn token count drops just that reading.
    const beforeLastUsage = [...lines.slice(0, -1), lines.at(-1)!.slice(0, 20)].join('\n');
    const partial = readRollout(beforeLastUsage);
    assert.equal(partial.skipped, 1);
    assert.equal(ofType(partial.items, 'usage').length, 12);
  });

  test('a forked copy adds only its own prompts and calls', () => {
    const parentText = fs.readFileSync(CLI_ROLLOUT, 'utf8');
    const parent = readRollout(parentText);
    // Codex's fork: a new session meta naming its parent, then the parent's items as they were (their
    // timestamps new), then the fork's own turns (codex-rs/core tests/suite/fork_thread.rs).
    const forkId = '019e2000-0000-7000-8000-0000000000f0';
    const stamp = '2026-05-12T09:00:00.000Z';
    const restamp = (line: string) => line.replace(/^\{"timestamp":"[^"]*"/, `{"timestamp":"${stamp}"`);
    const fork = [
      JSON.stringify({
        timestamp: stamp,
        type: 'session_meta',
        payload: {
          id: forkId,
          forked_from_id: CLI_SESSION,
          timestamp: stamp,
          cwd: '/Users/Sample_User/repos/codemie-ai/codemie-code',
          originator: 'codex-tui',
          cli_version: '0.125.0',
        },
      }),
      ...parentText.trimEnd().split('\n').map(restamp),
      JSON.stringify({
        timestamp: stamp,
        type: 'event_msg',
        payload: {
          type: 'task_started',
          turn_id: '019e2000-1111-7000-8000-000000000001',
          model_context_window: 258400,
        },
      }),
      JSON.stringify({
        timestamp: stamp,
        type: 'event_msg',
        payload: { type: 'user_message', message: 'show tools', images: [] },
      }),
      JSON.stringify({
        timestamp: stamp,
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'exec_command',
          arguments: '{"cmd":"npm test"}',
          call_id: 'call_fork_1',
        },
      }),
      JSON.stringify({
        timestamp: stamp,
        type: 'response_item',
        payload: {
          type: 'function_call_output',
          call_id: 'call_fork_1',
          output: 'Chunk ID: 1\nWall time: 1 seconds\nProcess exited with code 0\nOutput:\nok\n',
        },
      }),
    ].join('\n');
    const forked = readRollout(fork);
    assert.equal(forked.skipped, 0);
    const [session] = ofType(forked.items, 'session');
    assert.equal(ofType(forked.items, 'session').length, 1);
    assert.equal(session.parentSessionId, CLI_SESSION);
    assert.equal(session.sessionId, forkId);
    // The parent's lines it copied are the parent's: the fork is its own turn, prompt and call.
    assert.deepEqual(
      ofType(forked.items, 'prompt').map((prompt) => prompt.text),
      ['show tools'],
    );
    assert.deepEqual(
      ofType(forked.items, 'tool').map((item) => item.call.useId),
      ['call_fork_1'],
    );
    assert.deepEqual(ofType(forked.items, 'usage'), []);
    const known = new Set(keysOf(parent.items));
    assert.ok(keysOf(forked.items).every((key) => !known.has(key)));
  });

  test('a command or patch the user declined never ran: no failure, no use', () => {
    const at = '2026-05-11T08:00:01.000Z';
    const line = (type: string, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: at, type, payload });
    const { items } = readRollout(
      [
        line('session_meta', { id: 's1', cwd: '/w', timestamp: at }),
        line('response_item', {
          type: 'function_call',
          name: 'exec_command',
          arguments: '{"cmd":"rm -rf build"}',
          call_id: 'c1',
        }),
        line('event_msg', { type: 'exec_command_end', call_id: 'c1', status: 'declined', exit_code: -1 }),
        line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'rejected by user' }),
        line('response_item', {
          type: 'custom_tool_call',
          name: 'apply_patch',
          input: '*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch',
          call_id: 'c2',
        }),
        line('event_msg', { type: 'patch_apply_end', call_id: 'c2', success: false, status: 'declined' }),
        line('response_item', { type: 'custom_tool_call_output', call_id: 'c2', output: 'rejected' }),
      ].join('\n'),
    );
    assert.deepEqual(
      ofType(items, 'tool').map((item) => [item.call.useId, item.call.outcome?.notRun]),
      [
        ['c1', 'declined'],
        ['c2', 'declined'],
      ],
    );
  });

  test('compactions are read once, lines that are no JSON are counted', () => {
    const lines = [
      '{"timestamp":"2026-05-11T08:00:00.000Z","type":"session_meta","payload":{"id":"s1","cwd":"/w"}}',
      '{"timestamp":"2026-05-11T08:00:01.000Z","type":"compacted","payload":{"message":"summary"}}',
      '{"timestamp":"2026-05-11T08:00:01.000Z","type":"event_msg","payload":{"type":"context_compacted"}}',
      '[1,2,3]',
      'garbage',
      '{"timestamp":"2026-05-11T08:00:02.000Z","type":"event_msg","payload":{"type":"context_compacted"}}',
      '{"timestamp":"2026-05-11T08:00:03.000Z","type":"some_future_item","payload":{}}',
    ];
    const { items, skipped } = readRollout(lines.join('\n'));
    assert.equal(skipped, 2);
    assert.equal(ofType(items, 'compact').length, 2);
  });

  test("the agent's words: each turn's report, and a local compaction's summary without Codex's preamble", () => {
    const whole = readRollout(fs.readFileSync(CLI_ROLLOUT, 'utf8')).items;
    const reports = ofType(whole, 'report');
    assert.deepEqual(
      reports.map((item) => [item.at, item.text.slice(0, 40)]),
      [
        [Date.parse('2026-05-11T08:27:32.911Z'), 'Available tool groups in this session:\n\n'],
        [Date.parse('2026-05-11T08:44:58.544Z'), 'Implemented the default context compacti'],
      ],
    );
    assert.ok(reports.every((item) => item.sessionId === CLI_SESSION));

    const at = (second: number) => `2026-05-11T08:00:0${second}.000Z`;
    const line = (second: number, type: string, payload: object) =>
      JSON.stringify({ timestamp: at(second), type, payload });
    const event = (second: number, payload: object) => line(second, 'event_msg', payload);
    const summary = 'Goal: retry on 503.\nDone: src/api.ts retries twice.\nNext: run the tests.';
    const { items } = readRollout(
      [
        line(0, 'session_meta', { id: 's1', cwd: '/w' }),
        event(1, { type: 'task_started', turn_id: 't1' }),
        event(2, { type: 'agent_message', message: 'Looking at src/api.ts first.' }),
        // A local compaction (codex-rs/core/src/compact.rs): SUMMARY_PREFIX, a newline, the model's summary.
        line(3, 'compacted', {
          message: `Another language model started to solve this problem and produced a summary of its thinking process. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:\n${summary}`,
        }),
        event(3, { type: 'context_compacted' }),
        event(4, { type: 'agent_message', message: 'Retries are in; the tests pass.' }),
        // Releases that leave `last_agent_message` null: the turn's last agent message is its report.
        event(5, { type: 'task_complete', turn_id: 't1', last_agent_message: null }),
        // A remote compaction (OpenAI's models) keeps no summary text.
        line(6, 'compacted', { message: '', replacement_history: [] }),
        event(7, { type: 'task_started', turn_id: 't2' }),
        event(8, { type: 'turn_aborted', turn_id: 't2', reason: 'interrupted' }),
        event(9, { type: 'task_started', turn_id: 't3' }),
        event(9, { type: 'task_complete', turn_id: 't3', last_agent_message: 'All done: retries ship.' }),
      ].join('\n'),
    );
    assert.deepEqual(
      items.filter((item) => item.type === 'compact-summary' || item.type === 'report'),
      [
        { type: 'compact-summary', sessionId: 's1', at: Date.parse(at(3)), text: summary },
        { type: 'report', sessionId: 's1', at: Date.parse(at(5)), text: 'Retries are in; the tests pass.' },
        { type: 'report', sessionId: 's1', at: Date.parse(at(9)), text: 'All done: retries ship.' },
      ],
    );
    assert.equal(ofType(items, 'compact').length, 2);
  });

  test('find lists the project’s rollouts, oldest first, from their first lines', () => {
    const home = tempDir();
    const day = path.join(home, 'sessions', '2026', '05', '11');
    fs.mkdirSync(day, { recursive: true });
    fs.copyFileSync(CLI_ROLLOUT, path.join(day, `rollout-2026-05-11T11-26-55-${CLI_SESSION}.jsonl`));
    fs.copyFileSync(
      DESKTOP_ROLLOUT,
      path.join(day, 'rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl'),
    );
    fs.writeFileSync(path.join(day, 'rollout-2026-05-11T14-00-00-torn.jsonl'), '{"timestamp":"2026');
    fs.writeFileSync(path.join(day, 'notes.txt'), 'not a rollout');
    const archived = path.join(home, 'archived_sessions');
    fs.mkdirSync(archived);
    const older = fs
      .readFileSync(CLI_ROLLOUT, 'utf8')
      .replace(CLI_SESSION, '019d0000-0000-7000-8000-000000000001');
    fs.writeFileSync(
      path.join(archived, 'rollout-2026-04-01T10-00-00-019d0000-0000-7000-8000-000000000001.jsonl'),
      older,
    );
    const env = { CODEX_HOME: home };

    const found = codexSessions.find('/Users/Sample_User/repos/codemie-ai', env);
    assert.deepEqual(
      found.map((file) => path.basename(file)),
      [
        'rollout-2026-04-01T10-00-00-019d0000-0000-7000-8000-000000000001.jsonl',
        `rollout-2026-05-11T11-26-55-${CLI_SESSION}.jsonl`,
      ],
    );
    assert.equal(codexSessions.find('/Users/Sample_User/naya', env).length, 1);
    assert.equal(codexSessions.find('/Users/Sample_User/repos/codemie-ai/codemie-code/src', env).length, 0);
    assert.equal(codexSessions.find('/Users/Sample_User/repos/codemie', env).length, 0);
    assert.deepEqual(codexSessions.find('/anywhere', { CODEX_HOME: path.join(home, 'missing') }), []);
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('read names the session after its file when the first line is torn', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl');
    const lines = fs.readFileSync(CLI_ROLLOUT, 'utf8').split('\n');
    fs.writeFileSync(file, [lines[0].slice(0, 100), ...lines.slice(1)].join('\n'));
    const { items, skipped } = await codexSessions.read(file);
    assert.equal(skipped, 1);
    assert.ok(items.every((item) => item.sessionId === CLI_SESSION));
    assert.deepEqual(await codexSessions.read(path.join(dir, 'missing.jsonl')), { items: [], skipped: 0 });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('Codex MCP servers', () => {
  test('a project config.toml: stdio and HTTP servers with their lines', () => {
    const file = path.join(CODEX_DIR, 'platformplatform.config.toml');
    const { servers, problems } = serversInConfig(file, fs.readFileSync(file, 'utf8'), 'project');
    assert.deepEqual(problems, []);
    assert.deepEqual(servers, [
      {
        name: 'aspire',
        file,
        line: 8,
        scope: 'project',
        disabled: false,
        description: 'stdio: aspire agent mcp',
      },
      {
        name: 'linear-server',
        file,
        line: 15,
        scope: 'project',
        disabled: false,
        description: 'http: https://mcp.linear.app/mcp',
      },
    ]);
  });

  test('disabled servers, quoted and inline names, credentials redacted', () => {
    const file = path.join(CODEX_DIR, 'synthetic.config.toml');
    const { servers } = serversInConfig(file, fs.readFileSync(file, 'utf8'), 'global');
    const summary = servers.map((server) => [server.name, server.line, server.disabled, server.description]);
    assert.deepEqual(summary, [
      ['context7', 7, false, 'stdio: npx -y @upstash/context7-mcp --api-key [REDACTED:api-key]'],
      ['chrome-devtools', 14, true, 'stdio: npx chrome-devtools-mcp@latest'],
      ['figma', 19, false, 'http: https://mcp.figma.com/mcp'],
      ['inline', 24, false, 'stdio: uvx mcp-server-git'],
    ]);
    assert.ok(!JSON.stringify(servers).includes('ctx7sk-'));
  });

  test('a config that does not parse is a problem, not a throw', () => {
    const { servers, problems } = serversInConfig(
      '/c/config.toml',
      '[mcp_servers.x]\ncommand = "npx\n',
      'global',
    );
    assert.deepEqual(servers, []);
    assert.equal(problems.length, 1);
    assert.match(problems[0].message, /could not be parsed as TOML/);
    assert.equal(serversInConfig('/c/config.toml', 'mcp_servers = 3\n', 'global').problems.length, 1);
    assert.deepEqual(serversInConfig('/c/config.toml', 'model = "o3"\n', 'global'), {
      servers: [],
      problems: [],
    });
  });

  test('server lines: headers with spaces and quotes, dotted keys at the root', () => {
    assert.equal(serverLine('a = 1\n[ mcp_servers . "my server" ]\ncommand = "x"\n', 'my server'), 2);
    assert.equal(serverLine('mcp_servers.git.command = "uvx"\n', 'git'), 1);
    assert.equal(
      serverLine('[mcp_servers.git.env]\nA = "1"\n[mcp_servers.git]\ncommand = "uvx"\n', 'git'),
      3,
    );
  });

  test('the global and project files, and the servers both declare', () => {
    const home = tempDir();
    const root = path.join(home, 'project');
    fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
    fs.mkdirSync(path.join(root, '.codex'), { recursive: true });
    fs.copyFileSync(path.join(CODEX_DIR, 'synthetic.config.toml'), path.join(home, '.codex', 'config.toml'));
    fs.copyFileSync(
      path.join(CODEX_DIR, 'platformplatform.config.toml'),
      path.join(root, '.codex', 'config.toml'),
    );
    const tools = codexAdapter.tools!;
    assert.deepEqual(tools.files(root, home, {}), [
      path.join(home, '.codex', 'config.toml'),
      path.join(root, '.codex', 'config.toml'),
    ]);
    const { servers, problems } = tools.servers(root, home, {});
    assert.deepEqual(problems, []);
    assert.deepEqual(
      servers.map((server) => `${server.scope}:${server.name}`),
      [
        'global:context7',
        'global:chrome-devtools',
        'global:figma',
        'global:inline',
        'project:aspire',
        'project:linear-server',
      ],
    );
    // $CODEX_HOME moves the global file; a project at the home folder is not read twice.
    assert.deepEqual(tools.files(root, home, { CODEX_HOME: '/opt/codex' }), [
      path.join('/opt/codex', 'config.toml'),
      path.join(root, '.codex', 'config.toml'),
    ]);
    assert.equal(tools.files(home, home, {}).length, 1);
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('MCP tool names as Codex gives them', () => {
    const tools = codexAdapter.tools!;
    assert.equal(tools.mcpToolName('rmcp', 'echo'), 'mcp__rmcp__echo');
    assert.equal(
      tools.mcpToolName('chrome-devtools', 'take_screenshot'),
      'mcp__chrome_devtools__take_screenshot',
    );
  });
});

describe('Connecting Codex', () => {
  const command = PORTABLE_RECORDER_COMMAND;

  test('scopes and paths: the project file and the user file under $CODEX_HOME', () => {
    const hooks = codexAdapter.hooks!;
    assert.deepEqual(hooks.scopes, ['project', 'user']);
    assert.equal(
      hooks.settingsPath('project', '/w/app', '/home/dev'),
      path.join('/w/app', '.codex', 'hooks.json'),
    );
    assert.equal(
      codexHooksPath('user', '/w/app', '/home/dev', {}),
      path.join('/home/dev', '.codex', 'hooks.json'),
    );
    assert.equal(
      codexHooksPath('user', '/w/app', '/home/dev', { CODEX_HOME: '/opt/codex' }),
      path.join('/opt/codex', 'hooks.json'),
    );
  });

  test('a new hooks.json: created as 2-space JSON, removed again on disconnect', () => {
    const dir = tempDir();
    const file = path.join(dir, '.codex', 'hooks.json');
    const plan = planCodexConnect(file, undefined, command);
    assert.equal(plan.changes.length, CODEX_RECORDED_EVENTS.length);
    const written = plan.after!;
    assert.ok(written.startsWith('{\n  "hooks": {\n    "SessionStart": [\n'));
    const parsed = JSON.parse(written) as {
      hooks: Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>;
    };
    assert.deepEqual(Object.keys(parsed), ['hooks']);
    assert.deepEqual(Object.keys(parsed.hooks), [...CODEX_RECORDED_EVENTS]);
    // Codex 0.169 fires SessionEnd: without it the next session had no Previous Session.
    assert.ok(Object.keys(parsed.hooks).includes('SessionEnd'));
    // `sh` spooling the payload (spoolCommand.ts); SessionStart's also prints the session context.
    const [start, spool] = [spoolCommandFor(command, true), spoolCommandFor(command, false)];
    assert.deepEqual(parsed.hooks.SessionStart, [
      { hooks: [{ type: 'command', command: start, timeout: 5 }] },
    ]);
    assert.deepEqual(parsed.hooks.PostToolUse, [
      { hooks: [{ type: 'command', command: spool, timeout: 30 }] },
    ]);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, written);
    assert.equal(codexAdapter.hooks!.isConnected(file, fs.readFileSync(file, 'utf8')), true);
    assert.deepEqual(
      planCodexConnect(file, written, command).changes,
      [],
      'connecting twice changes nothing',
    );
    const off = planCodexDisconnect(file, fs.readFileSync(file, 'utf8'));
    assert.equal(off.after, undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a team hooks.json: connect then disconnect gives back its bytes', () => {
    const dir = tempDir();
    const file = path.join(dir, 'hooks.json');
    const original = fs.readFileSync(path.join(CODEX_DIR, 'platformplatform.hooks.json'), 'utf8');
    fs.writeFileSync(file, original);
    const on = planCodexConnect(file, fs.readFileSync(file, 'utf8'), command);
    fs.writeFileSync(file, on.after!);
    const connected = JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, unknown[]> };
    // The team's hooks stay first and untouched; ours follow.
    assert.equal(connected.hooks.PreToolUse.length, 2);
    assert.equal(connected.hooks.PostToolUse.length, 3);
    assert.equal(connected.hooks.Stop.length, 2);
    assert.ok(codexConnected(file, fs.readFileSync(file, 'utf8')));
    const off = planCodexDisconnect(file, fs.readFileSync(file, 'utf8'));
    assert.equal(off.changes.length, CODEX_RECORDED_EVENTS.length);
    fs.writeFileSync(file, off.after!);
    assert.equal(fs.readFileSync(file, 'utf8'), original);
    assert.equal(codexConnected(file, original), false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('other keys, tabs and CRLF survive; an update replaces only our entry', () => {
    const original =
      '{\r\n\t"description": "team hooks",\r\n\t"hooks": {\r\n\t\t"Stop": [\r\n\t\t\t{ "hooks": [{ "type": "command", "command": "make lint" }] }\r\n\t\t]\r\n\t}\r\n}\r\n';
    const on = planCodexConnect('/w/hooks.json', original, command);
    assert.match(on.after!, /^\{\r\n\t"description": "team hooks",/);
    const off = planCodexDisconnect('/w/hooks.json', on.after);
    assert.equal(off.after, original);
    const moved = planCodexConnect('/w/hooks.json', on.after, 'node /srv/cd/bin/hook.js --home /srv/cd');
    assert.deepEqual(
      moved.changes,
      CODEX_RECORDED_EVENTS.map((event) => `update the Context Deck hook for ${event}`),
    );
  });

  test('a file that is not a hooks object is refused, not overwritten', () => {
    assert.throws(() => planCodexConnect('/w/hooks.json', '[1]', command));
    assert.throws(() => planCodexConnect('/w/hooks.json', '{"hooks": []}', command));
    assert.equal(codexConnected('/w/hooks.json', '{oops'), false);
    assert.deepEqual(planCodexDisconnect('/w/hooks.json', undefined).changes, []);
  });
});

describe('Codex session files told by their content', () => {
  const lines = () => fs.readFileSync(CLI_ROLLOUT, 'utf8').trimEnd().split('\n');
  const metaOf = (line: string) =>
    (JSON.parse(line) as { timestamp: string; payload: Record<string, unknown> }).payload;

  /** The CLI rollout with its first line rewritten by `rewrite`, in a file named `name`. */
  function variant(name: string, rewrite: (first: string) => string): { dir: string; file: string } {
    const dir = tempDir();
    const file = path.join(dir, name);
    const [first, ...rest] = lines();
    fs.writeFileSync(file, [rewrite(first), ...rest].join('\n') + '\n');
    return { dir, file };
  }

  test('a session meta whose fields come in another order, over 64 KiB, in a file of any name, is Codex', async () => {
    // codex-rs/protocol SessionMetaLine: `session_meta` marks it whatever order a writer puts the fields in
    // and however long its base instructions are.
    const { dir, file } = variant('session.jsonl', (first) => {
      const meta = metaOf(first);
      const { id, ...others } = meta;
      const long = `${String((meta.base_instructions as { text: string }).text)}\n`.repeat(20);
      const payload = { session_id: id, ...others, base_instructions: { text: long }, id };
      return JSON.stringify({ payload, type: 'session_meta', timestamp: '2026-05-11T08:27:17.490Z' });
    });
    assert.ok(fs.readFileSync(file, 'utf8').indexOf('\n') > 64 * 1024);
    const active = sessionOfFile(file);
    assert.equal(active.agent, 'codex');
    const gauge = sessionGauge(active);
    assert.ok(gauge);
    await gauge.refresh();
    const reading = gauge.reading();
    assert.deepEqual([reading.sessionId, reading.tokens], [CLI_SESSION, 132006]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a meta without a cwd: the project is the turn context’s, and find lists the file', async () => {
    const home = tempDir();
    const day = path.join(home, 'sessions', '2026', '05', '11');
    fs.mkdirSync(day, { recursive: true });
    const [first, ...rest] = lines();
    const meta = metaOf(first);
    delete meta.cwd;
    const file = path.join(day, `rollout-2026-05-11T11-26-55-${CLI_SESSION}.jsonl`);
    fs.writeFileSync(file, [JSON.stringify({ ...JSON.parse(first), payload: meta }), ...rest].join('\n'));
    assert.equal(sessionOfFile(file).agent, 'codex');
    const root = '/Users/Sample_User/repos/codemie-ai/codemie-code';
    assert.deepEqual(codexSessions.find(root, { CODEX_HOME: home }), [file]);
    const [session] = ofType((await codexSessions.read(file)).items, 'session');
    assert.equal(session.cwd, root);
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('a rollout that records no token count has no gauge; it says so instead of showing 0%', async () => {
    assert.equal(sessionGauge(sessionOfFile(DESKTOP_ROLLOUT)), undefined);
    assert.ok(sessionGauge(sessionOfFile(CLI_ROLLOUT)));
  });

  test('a file no agent writes is reported as such, never read as an empty Claude Code session', () => {
    const dir = tempDir();
    const file = path.join(dir, 'notes.jsonl');
    fs.writeFileSync(file, '{"hello":"world"}\n{"rows":[1,2]}\n');
    assert.throws(() => sessionOfFile(file), /notes\.jsonl: not a session file of any agent/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a compressed rollout (.jsonl.zst) is read like the plain one, and a plain sibling wins', async () => {
    // codex-rs/rollout compression.rs: cold rollouts become `rollout-*.jsonl.zst`, and a plain sibling wins.
    const home = tempDir();
    const day = path.join(home, 'sessions', '2026', '05', '11');
    fs.mkdirSync(day, { recursive: true });
    const file = path.join(day, `rollout-2026-05-11T11-26-55-${CLI_SESSION}.jsonl.zst`);
    fs.copyFileSync(CLI_ROLLOUT_ZST, file);
    const root = '/Users/Sample_User/repos/codemie-ai/codemie-code';
    assert.equal(sessionOfFile(file).agent, 'codex');
    assert.deepEqual(codexSessions.find(root, { CODEX_HOME: home }), [file]);
    assert.deepEqual(await codexSessions.read(file), await codexSessions.read(CLI_ROLLOUT));
    fs.copyFileSync(CLI_ROLLOUT, file.replace(/\.zst$/, ''));
    assert.deepEqual(codexSessions.find(root, { CODEX_HOME: home }), [file.replace(/\.zst$/, '')]);
    fs.rmSync(home, { recursive: true, force: true });
  });
});

describe('compressed session files are read within bounds', () => {
  test('a small file that decompresses to 64 MiB gives only the head asked for', () => {
    const head = readSessionHead(path.join(CODEX_DIR, 'zeros-64MiB.zst'), 1000);
    assert.equal(head.length, 1000);
    assert.ok(head.every((byte) => byte === 0));
  });

  test('a damaged frame is reported as unreadable, never read as lines', () => {
    const file = path.join(tempDir(), 'rollout-2026-05-11T11-26-55-damaged.jsonl.zst');
    fs.writeFileSync(
      file,
      Buffer.concat([fs.readFileSync(CLI_ROLLOUT_ZST).subarray(0, 64), Buffer.alloc(64, 7)]),
    );
    assert.throws(() => readSessionLines(file, () => undefined));
    const owner = sessionFileOwner(file);
    assert.match('problem' in owner ? owner.problem : '', /cannot be read/);
  });
});

describe('Codex context breakdown', () => {
  test('the base instructions, AGENTS.md and the tools, estimated, and the conversation as the rest', async () => {
    const { items } = await codexSessions.read(CLI_ROLLOUT);
    const reading = gaugeOfItems(CLI_ROLLOUT, items, 0);
    const byName = new Map(reading.breakdown.categories.map((category) => [category.name, category]));
    // session_meta.base_instructions and the environment and permission messages Codex adds.
    assert.ok((byName.get('system_prompt')?.tokens ?? 0) > 3000);
    assert.ok((byName.get('memory_files')?.tokens ?? 0) > 0, 'the AGENTS.md message');
    assert.ok((byName.get('system_tools')?.tokens ?? 0) > 0, 'what the first call held besides');
    for (const name of ['system_prompt', 'memory_files', 'system_tools', 'messages'] as const)
      assert.equal(byName.get(name)?.measured, false, `${name} is estimated`);
    const inContext = reading.breakdown.categories
      .filter((category) => category.name !== 'free_space' && category.name !== 'autocompact_buffer')
      .reduce((sum, category) => sum + category.tokens, 0);
    assert.equal(inContext, reading.tokens, 'the parts add up to the gauge');
    // The first reading, less the first prompt, is the fixed part.
    const fixed = ['system_prompt', 'memory_files', 'system_tools'].reduce(
      (sum, name) => sum + (byName.get(name as 'system_prompt')?.tokens ?? 0),
      0,
    );
    assert.equal(fixed, 18870 - Math.ceil('show tools'.length / 4));
  });
});
