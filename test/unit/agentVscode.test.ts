import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import type { SettingsPlan } from '../../src/engine/agents/adapter';
import type { AgentEvent } from '../../src/engine/agents/types';
import {
  VSCODE_RECORDED_EVENTS,
  isVscodeRecorderCommand,
  normaliseVscodePayload,
  planVscodeConnect,
  windowsRecorderCommand,
  planVscodeDisconnect,
  recogniseVscodePayload,
  vscodeAdapter,
  vscodeHookPath,
  vscodeHookState,
  vscodeMcpToolName,
  vscodeToolKind,
  vscodeToolOutcome,
} from '../../src/engine/agents/vscode';
import { PORTABLE_RECORDER_COMMAND } from '../../src/engine/agents/recorderCommand';
import { spoolCommandFor } from '../../src/engine/agents/spoolCommand';
import { parseJsonc } from '../../src/engine/agents/jsoncEdit';
import { FIXTURES_DIR, HOOK_EXAMPLES_DIR } from '../support/events';

const VSCODE_DIR = path.join(FIXTURES_DIR, 'vscode');
const LOCAL_DIR = path.join(VSCODE_DIR, 'local');
const DOCS_DIR = path.join(VSCODE_DIR, 'docs-examples');
const CODEX_DIR = path.join(FIXTURES_DIR, 'codex', 'hook-payloads');

type Payload = Record<string, unknown>;

function readJson(file: string): Payload {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Payload;
}

const local = (name: string) => readJson(path.join(LOCAL_DIR, `${name}.json`));
const doc = (name: string) => readJson(path.join(DOCS_DIR, `${name}.json`));

const SESSION = '5f0b7c2e-3a1d-4e8f-9b6a-2c4d8e1f0a37';
const CWD = '/home/dev/projects/shop';
const TRANSCRIPT = `/home/dev/.config/Code/User/workspaceStorage/3f9a1c0d2b4e6f8a0c1e3d5b7f9a2c4e/GitHub.copilot-chat/transcripts/${SESSION}.jsonl`;

function normalised(payload: Payload): AgentEvent {
  const event = normaliseVscodePayload(payload);
  assert.ok(event, 'a payload with an event name normalises');
  return event;
}

describe('VS Code agent payloads: the current snake_case shape (fixtures built from the Copilot Chat source)', () => {
  const files = fs.readdirSync(LOCAL_DIR).filter((file) => file.endsWith('.json'));

  test('there is a fixture for every event the recorder listens to, and for PreToolUse', () => {
    const events = new Set(files.map((file) => file.split('.')[0]));
    for (const event of [...VSCODE_RECORDED_EVENTS, 'PreToolUse']) assert.ok(events.has(event), event);
  });

  for (const file of files) {
    test(`${file} is recognised as VS Code's and keeps its session, cwd and transcript`, () => {
      const payload = readJson(path.join(LOCAL_DIR, file));
      assert.equal(recogniseVscodePayload(payload), 2);
      const event = normalised(payload);
      assert.equal(event.agent, 'vscode');
      assert.equal(event.name, payload.hook_event_name);
      assert.equal(event.sessionId, SESSION);
      assert.equal(event.cwd, CWD);
      assert.equal(event.transcriptPath, TRANSCRIPT);
    });
  }

  test('SessionStart: a new session, whose "new" is the neutral "startup"', () => {
    const event = normalised(local('SessionStart'));
    assert.equal(event.kind, 'session-start');
    assert.equal(event.source, 'startup');
  });

  test('UserPromptSubmit carries the prompt', () => {
    const event = normalised(local('UserPromptSubmit'));
    assert.equal(event.kind, 'prompt');
    assert.equal(event.prompt, 'Add a discount field to the cart total and run the cart tests');
  });

  test('PreToolUse of an edit: a tool start with the file and the replacement, no outcome yet', () => {
    const event = normalised(local('PreToolUse.replace_string_in_file'));
    assert.equal(event.kind, 'tool-start');
    assert.deepEqual(event.tool, {
      name: 'replace_string_in_file',
      kind: 'edit',
      useId: 'toolu_01Kq8ZzXb2m4YdTn7cVw3PaR',
      input: {
        path: `${CWD}/src/cart.ts`,
        edits: [{ before: '  return subtotal;\n}', after: '  return subtotal - discount;\n}' }],
      },
    });
  });

  test('PostToolUse of an edit pairs with its start and reports success without inventing output', () => {
    const start = normalised(local('PreToolUse.replace_string_in_file'));
    const end = normalised(local('PostToolUse.replace_string_in_file'));
    assert.equal(end.kind, 'tool-end');
    assert.equal(end.tool?.useId, start.tool?.useId);
    assert.deepEqual(end.tool?.input, start.tool?.input);
    // VS Code's response for edit tools is "" (their results are prompt-tsx parts, not text).
    assert.deepEqual(end.tool?.outcome, { failed: false });
  });

  test('a terminal command: shell kind, the command line, the printed output and the model', () => {
    const event = normalised(local('PostToolUse.run_in_terminal'));
    assert.equal(event.model, 'claude-sonnet-4.5');
    assert.equal(event.tool?.kind, 'shell');
    assert.deepEqual(event.tool?.input, { command: 'npm test -- --grep cart' });
    assert.equal(event.tool?.outcome?.failed, false);
    assert.match(event.tool?.outcome?.output ?? '', /1 passing/);
  });

  test('a read: read kind and the file read', () => {
    const event = normalised(local('PostToolUse.read_file'));
    assert.equal(event.tool?.kind, 'read');
    assert.deepEqual(event.tool?.input, { path: `${CWD}/src/cart.ts` });
  });

  test('create_file is a write with the whole content', () => {
    const event = normalised(local('PostToolUse.create_file'));
    assert.equal(event.tool?.kind, 'write');
    assert.deepEqual(event.tool?.input, {
      path: `${CWD}/src/discount.ts`,
      content: 'export const DEFAULT_DISCOUNT = 0;\n',
    });
  });

  test('multi_replace_string_in_file: the file from its replacements and every edit to it, in order', () => {
    const event = normalised(local('PostToolUse.multi_replace_string_in_file'));
    assert.equal(event.tool?.kind, 'edit');
    assert.equal(event.tool?.input.path, `${CWD}/src/cart.ts`);
    assert.deepEqual(
      event.tool?.input.edits?.map((edit) => edit.before),
      ['export function total(items: Item[]) {', 'const subtotal = 0;'],
    );
  });

  test('a multi-file replacement keeps only the first file’s edits, never another file’s under its path', () => {
    const payload = local('PostToolUse.multi_replace_string_in_file');
    const input = payload.tool_input as { replacements: Array<Record<string, string>> };
    input.replacements[1].filePath = `${CWD}/src/other.ts`;
    const event = normalised(payload);
    assert.equal(event.tool?.input.path, `${CWD}/src/cart.ts`);
    assert.equal(event.tool?.input.edits?.length, 1);
  });

  test('grep_search is a search with its query', () => {
    const event = normalised(local('PostToolUse.grep_search'));
    assert.equal(event.tool?.kind, 'search');
    assert.deepEqual(event.tool?.input, { query: 'subtotal' });
  });

  test('fetch_webpage: the first URL, and what to look for as the fetch prompt', () => {
    const event = normalised(local('PostToolUse.fetch_webpage'));
    assert.equal(event.tool?.kind, 'fetch');
    assert.deepEqual(event.tool?.input, {
      url: 'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Number/toFixed',
      prompt: 'rounding of toFixed',
    });
  });

  test('runSubagent: a subagent with its task and agent', () => {
    const event = normalised(local('PostToolUse.runSubagent'));
    assert.equal(event.tool?.kind, 'subagent');
    assert.equal(event.tool?.input.subagentType, 'Plan');
    assert.match(event.tool?.input.prompt ?? '', /caller of total\(\)/);
    assert.match(event.tool?.outcome?.output ?? '', /Two callers/);
  });

  test('an MCP tool (mcp_<server>_<tool>) is of kind mcp', () => {
    const event = normalised(local('PostToolUse.mcp'));
    assert.equal(event.tool?.name, 'mcp_github_search_issues');
    assert.equal(event.tool?.kind, 'mcp');
    assert.equal(event.tool?.input.query, 'repo:acme/shop is:open discount');
  });

  test('PreCompact, SubagentStart, SubagentStop and Stop', () => {
    const compact = normalised(local('PreCompact'));
    assert.equal(compact.kind, 'compact');
    assert.equal(compact.trigger, 'auto');
    const subStart = normalised(local('SubagentStart'));
    assert.equal(subStart.kind, 'other');
    assert.equal(subStart.agentType, 'Plan');
    const subStop = normalised(local('SubagentStop'));
    assert.equal(subStop.kind, 'subagent-stop');
    assert.equal(subStop.agentType, 'Plan');
    assert.equal(normalised(local('Stop')).kind, 'stop');
  });
});

describe('VS Code agent payloads: the camelCase shape of VS Code’s docs (and of its builds before 1.110)', () => {
  const common = doc('common-input');

  test('the documented common fields with each event’s fields are recognised and normalised', () => {
    const cases: Array<[string, string]> = [
      ['PreToolUse', 'tool-start'],
      ['PostToolUse', 'tool-end'],
      ['SessionStart', 'session-start'],
      ['Stop', 'stop'],
      ['SubagentStart', 'other'],
      ['SubagentStop', 'subagent-stop'],
      ['PreCompact', 'compact'],
    ];
    for (const [name, kind] of cases) {
      const payload = { ...common, hookEventName: name, ...doc(`${name}.input`) };
      assert.equal(recogniseVscodePayload(payload), 2, name);
      const event = normalised(payload);
      assert.equal(event.kind, kind, name);
      assert.equal(event.name, name);
      assert.equal(event.sessionId, 'session-identifier');
      assert.equal(event.cwd, '/path/to/workspace');
      assert.equal(event.transcriptPath, '/path/to/transcript.json');
    }
  });

  test('the documented editFiles call: an edit of the listed file, its response as output', () => {
    const event = normalised({ ...common, hookEventName: 'PostToolUse', ...doc('PostToolUse.input') });
    assert.equal(event.tool?.kind, 'edit');
    assert.equal(event.tool?.useId, 'tool-123');
    assert.deepEqual(event.tool?.input, { path: 'src/main.ts' });
    assert.deepEqual(event.tool?.outcome, { failed: false, output: 'File edited successfully' });
  });

  test('a camelCase event name with a numeric timestamp is Copilot CLI’s, not VS Code’s', () => {
    assert.equal(recogniseVscodePayload({ ...common, timestamp: 1704614400000 }), 0);
  });
});

describe('Telling VS Code’s payloads from other agents’', () => {
  const claudeFiles = fs.readdirSync(HOOK_EXAMPLES_DIR).filter((file) => file.endsWith('.input.json'));

  test('no Claude Code hook payload from its docs is recognised as VS Code’s', () => {
    assert.ok(claudeFiles.length >= 20);
    for (const file of claudeFiles) {
      assert.equal(recogniseVscodePayload(readJson(path.join(HOOK_EXAMPLES_DIR, file))), 0, file);
    }
  });

  test(
    'no captured Codex CLI hook payload is recognised as VS Code’s, apply_patch included',
    {
      skip: !fs.existsSync(CODEX_DIR) && 'no Codex hook fixtures in this checkout',
    },
    () => {
      for (const file of fs.readdirSync(CODEX_DIR).filter((name) => name.endsWith('.json'))) {
        assert.equal(recogniseVscodePayload(readJson(path.join(CODEX_DIR, file))), 0, file);
      }
    },
  );

  test('Copilot CLI’s camelCase payload (docs.github.com hooks-configuration example) is not VS Code’s', () => {
    const payload = { timestamp: 1704614400000, cwd: '/path/to/project', toolName: 'bash', toolArgs: '{}' };
    assert.equal(recogniseVscodePayload(payload), 0);
    assert.equal(normaliseVscodePayload(payload), undefined);
  });

  test('each VS Code mark alone is enough when the timestamp is missing', () => {
    const bare = { hook_event_name: 'PostToolUse', session_id: 's', cwd: CWD };
    assert.equal(recogniseVscodePayload(bare), 0, 'the shared envelope alone says nothing');
    assert.equal(recogniseVscodePayload({ ...bare, transcript_path: TRANSCRIPT }), 2);
    assert.equal(recogniseVscodePayload({ ...bare, tool_name: 'run_in_terminal' }), 2);
    assert.equal(recogniseVscodePayload({ ...bare, tool_name: 'mcp_github_search_issues' }), 2);
    assert.equal(recogniseVscodePayload({ ...bare, tool_name: 'mcp__github__search_issues' }), 0);
    assert.equal(recogniseVscodePayload({ ...bare, tool_name: 'Bash' }), 0);
    assert.equal(recogniseVscodePayload({ ...bare, hook_event_name: 'SessionStart', source: 'new' }), 2);
    assert.equal(recogniseVscodePayload({ ...bare, hook_event_name: 'SessionStart', source: 'startup' }), 0);
  });

  test('recognition ignores a payload’s _cd stamp: the recorder’s own time is not VS Code’s timestamp', () => {
    const claude = readJson(path.join(HOOK_EXAMPLES_DIR, 'PostToolUse.input.json'));
    assert.equal(recogniseVscodePayload({ ...claude, _cd: { ts: '2026-03-28T14:02:11.512Z' } }), 0);
  });
});

describe('Odd input never throws, and odd fields are left out', () => {
  const odd: unknown[] = [
    {},
    { hook_event_name: 5 },
    { hookEventName: 'toString', timestamp: '2026-01-01T00:00:00Z' },
    { hook_event_name: 'toString' },
    { hook_event_name: 'PostToolUse', tool_name: { x: 1 }, tool_input: 'text' },
    { hook_event_name: 'PostToolUse', tool_name: 'read_file', tool_input: null, tool_response: null },
    { hook_event_name: 'PostToolUse', tool_name: 'fetch_webpage', tool_input: { urls: [1, null], query: 3 } },
    {
      hook_event_name: 'PostToolUse',
      tool_name: 'multi_replace_string_in_file',
      tool_input: { replacements: [null, 5, 'x', { filePath: 7, oldString: [] }] },
      tool_response: { content: 5, exitCode: 'one', error: 42 },
    },
    {
      hook_event_name: 'PostToolUse',
      tool_name: 'apply_patch',
      tool_input: { input: 17 },
      tool_response: [[], 3],
    },
    { hook_event_name: 'SessionStart', session_id: 12, cwd: ['/x'], source: {}, transcript_path: false },
    { hook_event_name: 'PreToolUse', tool_name: '', tool_input: [] },
  ];

  test('recognise and normalise take every odd payload without throwing', () => {
    for (const payload of odd) {
      const score = recogniseVscodePayload(payload as Payload);
      assert.ok(score === 0 || score === 2);
      normaliseVscodePayload(payload as Payload);
    }
  });

  test('fields of the wrong type are absent, not coerced', () => {
    const start = normalised({ hook_event_name: 'SessionStart', session_id: 12, cwd: ['/x'], source: {} });
    assert.deepEqual(start, { agent: 'vscode', kind: 'session-start', name: 'SessionStart' });
    const fetch = normalised({
      hook_event_name: 'PostToolUse',
      tool_name: 'fetch_webpage',
      tool_input: { urls: [1, null], query: 3 },
    });
    assert.deepEqual(fetch.tool?.input, {});
    const batch = normalised(odd[7] as Payload);
    assert.deepEqual(batch.tool?.input, {}, 'replacements without strings are no edits');
    assert.deepEqual(batch.tool?.outcome, { failed: false });
    assert.equal(normaliseVscodePayload({ hook_event_name: 5 }), undefined);
    assert.equal(normalised({ hook_event_name: 'toString' }).kind, 'other');
    assert.equal(normalised({ hook_event_name: 'PreToolUse', tool_name: '' }).tool, undefined);
  });
});

describe('Tool responses, text or structured', () => {
  test('text is the output; an empty text is no output', () => {
    assert.deepEqual(vscodeToolOutcome('ok'), { failed: false, output: 'ok' });
    assert.deepEqual(vscodeToolOutcome(''), { failed: false });
  });

  test('a list of result parts is joined', () => {
    const parts = [{ kind: 'text', value: 'a' }, { type: 'text', text: 'b' }, { kind: 'data' }];
    assert.deepEqual(vscodeToolOutcome(parts), { failed: false, output: 'a\nb' });
  });

  test('a structured result: streams, exit code, and an error that fails the call', () => {
    assert.deepEqual(vscodeToolOutcome({ stdout: 'out', stderr: 'err', exitCode: 1 }), {
      failed: false,
      output: 'out\nerr',
      exitCode: 1,
    });
    assert.deepEqual(vscodeToolOutcome({ content: [{ kind: 'text', value: 'x' }], exit_code: 0 }), {
      failed: false,
      output: 'x',
      exitCode: 0,
    });
    assert.deepEqual(vscodeToolOutcome({ success: false, error: 'boom' }), { failed: true, error: 'boom' });
    assert.deepEqual(vscodeToolOutcome({ error: { message: 'denied' } }), { failed: true, error: 'denied' });
    assert.deepEqual(vscodeToolOutcome({ isError: true, content: 'bad input' }), {
      failed: true,
      output: 'bad input',
    });
  });
});

describe('VS Code tool names', () => {
  test('kinds of the names VS Code sends', () => {
    const kinds: Record<string, string> = {
      replace_string_in_file: 'edit',
      multi_replace_string_in_file: 'edit',
      insert_edit_into_file: 'edit',
      apply_patch: 'edit',
      create_file: 'write',
      read_file: 'read',
      list_dir: 'read',
      run_in_terminal: 'shell',
      get_terminal_output: 'shell',
      file_search: 'search',
      grep_search: 'search',
      semantic_search: 'search',
      fetch_webpage: 'fetch',
      'vscode-websearchforcopilot_webSearch': 'web-search',
      runSubagent: 'subagent',
      mcp_pylance_mcp_s_pylanceDocuments: 'mcp',
      manage_todo_list: 'other',
      toString: 'other',
    };
    for (const [name, kind] of Object.entries(kinds)) assert.equal(vscodeToolKind(name), kind, name);
  });

  test('MCP tool names as VS Code forms them: a 13-character server prefix, dots as underscores', () => {
    // The name VS Code's own Pylance MCP server's tools have (copilot-chat's spec.chatreplay.json).
    assert.equal(
      vscodeMcpToolName('pylance mcp server', 'pylanceDocuments'),
      'mcp_pylance_mcp_s_pylanceDocuments',
    );
    assert.equal(vscodeMcpToolName('GitHub', 'search_issues'), 'mcp_github_search_issues');
    assert.equal(vscodeMcpToolName('Context7', 'get.docs'), 'mcp_context7_get_docs');
    assert.equal(vscodeMcpToolName('s', 'x'.repeat(100)).length, 64);
  });
});

describe('Connecting VS Code’s agent: .github/hooks/context-deck.json and ~/.copilot/hooks/context-deck.json', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-vscode-hooks-'));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const home = path.join(tmp, 'home');
  const COMMAND = 'node "/home/dev/.context-deck/bin/hook.js" --agent vscode --home /home/dev/.context-deck';

  function read(file: string): string | undefined {
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  }

  function apply(plan: SettingsPlan): void {
    if (plan.after === undefined) fs.rmSync(plan.file, { force: true });
    else {
      fs.mkdirSync(path.dirname(plan.file), { recursive: true });
      fs.writeFileSync(plan.file, plan.after);
    }
  }

  test('the scopes and their files', () => {
    const installer = vscodeAdapter.hooks;
    assert.ok(installer);
    assert.deepEqual(installer.scopes, ['project', 'user']);
    assert.equal(
      installer.settingsPath('project', '/w', '/h'),
      path.join('/w', '.github', 'hooks', 'context-deck.json'),
    );
    assert.equal(
      installer.settingsPath('user', '/w', '/h'),
      path.join('/h', '.copilot', 'hooks', 'context-deck.json'),
    );
    for (const scope of installer.scopes) assert.ok(installer.describeScope(scope).length > 0);
    assert.equal(vscodeAdapter.id, 'vscode');
    assert.equal(vscodeAdapter.payloads.recognise(local('Stop')), 2);
  });

  for (const scope of ['project', 'user'] as const) {
    test(`${scope}: connect creates the file, connecting again changes nothing, disconnect removes it`, () => {
      const project = path.join(tmp, `project-${scope}`);
      const file = vscodeHookPath(scope, project, home);
      assert.equal(read(file), undefined);

      const connect = planVscodeConnect(file, read(file), COMMAND);
      assert.equal(connect.changes[0], `create ${file}`);
      apply(connect);
      const text = read(file) ?? '';
      assert.ok(text.startsWith('{\n  "hooks": {\n    "SessionStart": [\n      {\n'), 'two-space JSON');
      assert.ok(text.endsWith('}\n'));
      const hooks = (JSON.parse(text) as { hooks: Record<string, unknown[]> }).hooks;
      assert.deepEqual(Object.keys(hooks), [...VSCODE_RECORDED_EVENTS]);
      assert.ok(!('PreToolUse' in hooks), 'outcomes, not intentions');
      for (const event of VSCODE_RECORDED_EVENTS) {
        assert.deepEqual(hooks[event], [
          {
            type: 'command',
            // SessionStart's prints the session context, UserPromptSubmit's the line left for the agent.
            command: spoolCommandFor(
              COMMAND,
              event === 'SessionStart' || (event === 'UserPromptSubmit' && 'prompt-hint'),
            ),
            windows: windowsRecorderCommand(COMMAND),
            timeout: event === 'SessionStart' ? 5 : 30,
          },
        ]);
      }
      assert.equal(vscodeAdapter.hooks?.isConnected(file, read(file)), true);

      const again = planVscodeConnect(file, read(file), COMMAND);
      assert.deepEqual(again.changes, []);
      assert.equal(again.after, text);

      const disconnect = planVscodeDisconnect(file, read(file));
      assert.equal(disconnect.after, undefined);
      assert.equal(disconnect.changes.at(-1), `remove ${file}`);
      apply(disconnect);
      assert.equal(fs.existsSync(file), false);
      assert.equal(vscodeAdapter.hooks?.isConnected(file, read(file)), false);
      assert.deepEqual(
        planVscodeDisconnect(file, undefined).changes,
        [],
        'disconnecting twice changes nothing',
      );
    });
  }

  const HAND_WRITTEN = `{
  // Formatting for the whole team.
  "hooks": {
    "PostToolUse": [
      { "type": "command", "command": "npx prettier --write \\"$TOOL_INPUT_FILE_PATH\\"" }, // format
    ],
\t"Stop": [
\t  { "type": "command", "command": "notify-send done", "timeout": 5 }
\t],
  },
}
`;
  const existing: Array<[string, string]> = [
    ['a hand-written file with comments, tabs, trailing commas', HAND_WRITTEN],
    ...['hooks.quick-start.format', 'hooks.configuration-format', 'hooks.os-specific', 'hooks.audit'].map(
      (name): [string, string] => [name, fs.readFileSync(path.join(DOCS_DIR, `${name}.json`), 'utf8')],
    ),
  ];
  for (const [name, original] of existing) {
    test(`an existing file keeps its hooks and comes back byte for byte: ${name}`, () => {
      const file = vscodeHookPath('project', path.join(tmp, name.replace(/\W+/g, '-')), home);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, original);
      const theirs = parseJsonc(original, file) as { hooks: Record<string, unknown[]> };

      apply(planVscodeConnect(file, read(file), COMMAND));
      const connected = parseJsonc(read(file) ?? '', file) as { hooks: Record<string, unknown[]> };
      for (const [event, entries] of Object.entries(theirs.hooks)) {
        assert.deepEqual(
          connected.hooks[event].slice(0, entries.length),
          entries,
          `their ${event} hooks first`,
        );
      }
      assert.equal(vscodeHookState(file, read(file)).missing.length, 0);
      assert.deepEqual(planVscodeConnect(file, read(file), COMMAND).changes, []);

      const disconnect = planVscodeDisconnect(file, read(file));
      assert.equal(disconnect.after, original);
      apply(disconnect);
      assert.equal(read(file), original);
    });
  }

  test('a missing event makes it partly connected, and connecting adds only that one', () => {
    const full = planVscodeConnect('hooks.json', undefined, COMMAND).after ?? '';
    const partial = JSON.stringify(
      { hooks: { ...(JSON.parse(full) as { hooks: object }).hooks, PreCompact: undefined } },
      null,
      2,
    );
    assert.deepEqual(vscodeHookState('hooks.json', partial).missing, ['PreCompact']);
    assert.equal(vscodeAdapter.hooks?.isConnected('hooks.json', partial), false);
    assert.deepEqual(planVscodeConnect('hooks.json', partial, COMMAND).changes, [
      'add a Context Deck hook for PreCompact (timeout 30 s)',
    ]);
  });

  test('a new recorder command updates our entries, keeps keys someone added, and still disconnects', () => {
    const withWindows = (planVscodeConnect('hooks.json', undefined, COMMAND).after ?? '').replace(
      '"timeout": 5',
      '"timeout": 5,\n        "linux": "./record-linux.sh"',
    );
    assert.deepEqual(
      planVscodeConnect('hooks.json', withWindows, COMMAND).changes,
      [],
      'extra keys are theirs',
    );
    const moved = planVscodeConnect('hooks.json', withWindows, PORTABLE_RECORDER_COMMAND);
    assert.equal(moved.changes.length, VSCODE_RECORDED_EVENTS.length);
    assert.ok(moved.changes.every((change) => change.startsWith('update the Context Deck hook')));
    assert.equal(vscodeHookState('hooks.json', moved.after).missing.length, 0);
    assert.equal(planVscodeDisconnect('hooks.json', moved.after).after, undefined);
  });

  test('on Windows, where VS Code runs hook commands with PowerShell, the entry has a PowerShell command', () => {
    // microsoft/vscode-docs hooks.md "OS-specific commands": `windows` replaces `command` there, and is run by
    // PowerShell; a quoted path alone is a string in PowerShell, so the runtime is called with `&`.
    assert.equal(
      windowsRecorderCommand(
        `ELECTRON_RUN_AS_NODE=1 "C:/Program Files/Code/Code.exe" "C:/Users/o'k/.context-deck/bin/hook.js" --home "C:/Users/o'k/.context-deck"`,
      ),
      "$env:ELECTRON_RUN_AS_NODE = '1'; & 'C:/Program Files/Code/Code.exe' 'C:/Users/o''k/.context-deck/bin/hook.js' --home 'C:/Users/o''k/.context-deck'; exit 0",
    );
    const portable = windowsRecorderCommand(PORTABLE_RECORDER_COMMAND);
    assert.match(portable, /\$env:CONTEXT_DECK_HOME/);
    assert.doesNotMatch(portable, /\$\{|\[ -f|command -v/, 'no sh syntax');
  });

  test('files it cannot edit safely are refused, not rewritten', () => {
    assert.throws(() => planVscodeConnect('f.json', '[]', COMMAND), /does not hold a JSON object/);
    assert.throws(
      () => planVscodeConnect('f.json', '{"hooks": []}', COMMAND),
      /"hooks" in f\.json is not an object/,
    );
    assert.throws(() => planVscodeConnect('f.json', '{"hooks": {"Stop": {}}}', COMMAND), /is not a list/);
    assert.throws(() => planVscodeConnect('f.json', '{"version": 1, "hooks": {}}', COMMAND), /Copilot CLI/);
    assert.throws(() => planVscodeConnect('f.json', '{"hooks": {', COMMAND), /could not be parsed/);
    assert.equal(vscodeAdapter.hooks?.isConnected('f.json', '{"hooks": {'), false);
    assert.equal(vscodeAdapter.hooks?.isConnected('f.json', ''), false);
  });

  test('our recorder is recognised however it was installed, and nobody else’s command is', () => {
    assert.equal(isVscodeRecorderCommand(COMMAND), true);
    assert.equal(isVscodeRecorderCommand(PORTABLE_RECORDER_COMMAND), true);
    assert.equal(isVscodeRecorderCommand('node /opt/cd/bin/hook.js --home /opt/cd'), true);
    assert.equal(isVscodeRecorderCommand('node ./scripts/hook.js'), false);
    assert.equal(isVscodeRecorderCommand('npx prettier --write .'), false);
    assert.equal(isVscodeRecorderCommand(undefined), false);
  });
});
