import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import type { SessionItem } from '../../src/engine/agents/adapter';
import {
  findVscodeTranscripts,
  readVscodeTranscript,
  recogniseVscodeTranscript,
  vscodeSessions,
} from '../../src/engine/agents/vscode/transcript';
import { vscodeUserDataDirs } from '../../src/engine/agents/vscodeUserData';
import { FIXTURES_DIR } from '../support/events';

const TRANSCRIPTS = path.join(FIXTURES_DIR, 'vscode', 'transcripts');
const HOOKS_SESSION = path.join(TRANSCRIPTS, 'hooks-session.jsonl');
const USAGE_SESSION = path.join(TRANSCRIPTS, 'usage-session.jsonl');

function ofType<T extends SessionItem['type']>(
  items: SessionItem[],
  type: T,
): Array<Extract<SessionItem, { type: T }>> {
  return items.filter((item): item is Extract<SessionItem, { type: T }> => item.type === type);
}

function head(file: string): string {
  return fs.readFileSync(file, 'utf8').slice(0, 4096);
}

describe('VS Code agent transcript: read', () => {
  test('a transcript without usage gives the session, its prompts and its finished tool calls', async () => {
    const { items, skipped } = await vscodeSessions.read(HOOKS_SESSION);
    assert.equal(skipped, 0);
    assert.equal(items[0].type, 'session');
    const [session] = ofType(items, 'session');
    assert.equal(session.sessionId, 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d');
    assert.equal(session.at, Date.parse('2026-03-30T10:00:00.000Z'));
    assert.equal(session.cwd, undefined);
    assert.equal(session.model, undefined);

    const prompts = ofType(items, 'prompt');
    assert.deepEqual(
      prompts.map((p) => p.text),
      ['Fix the failing parser test', 'Thanks, also check the GitHub issue'],
    );
    assert.equal(new Set(prompts.map((p) => p.key)).size, 2);
    assert.ok(prompts.every((p) => p.key.startsWith('vscode:b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d:')));

    const tools = ofType(items, 'tool').map((t) => t.call);
    assert.deepEqual(
      tools.map((c) => [c.useId, c.name, c.kind, c.outcome?.failed]),
      [
        ['call_read_1', 'read_file', 'read', false],
        ['call_grep_1', 'grep_search', 'search', false],
        ['call_edit_1', 'replace_string_in_file', 'edit', false],
        ['call_term_1', 'run_in_terminal', 'shell', true],
        ['call_mcp_1', 'mcp_github_search_issues', 'mcp', false],
      ],
    );
    assert.equal(tools[0].input.path, '/home/dev/parser/test/parse.test.ts');
    assert.equal(tools[1].input.query, 'parseLine');
    assert.deepEqual(tools[2].input.edits, [{ before: 'return line;', after: 'return line.trim();' }]);
    assert.equal(tools[3].input.command, 'npm test');
    assert.equal(tools[3].outcome?.durationMs, 12000);
    // A tool call is dated when it started.
    assert.equal(ofType(items, 'tool')[0].at, Date.parse('2026-03-30T10:00:03.430Z'));

    assert.equal(ofType(items, 'usage').length, 0);
    assert.equal(ofType(items, 'compact').length, 0);
    // Each turn's last text is the agent's report to the user, told when the turn ends.
    assert.deepEqual(
      ofType(items, 'report').map((report) => report.text),
      ['The terminal tool failed; the edit is in place.', 'Issue #12 describes the same bug.'],
    );
  });

  test('usage lines give the context after each model call: prompt tokens (cached included) plus the reply', async () => {
    const { items, skipped } = await vscodeSessions.read(USAGE_SESSION);
    assert.equal(skipped, 0);
    const [session] = ofType(items, 'session');
    assert.equal(session.model, 'claude-sonnet-4.5');
    assert.equal(ofType(items, 'prompt').length, 1);
    const tools = ofType(items, 'tool').map((t) => t.call);
    assert.deepEqual(
      tools.map((c) => [c.useId, c.kind]),
      [
        ['toolu_01A', 'read'],
        ['toolu_01B', 'write'],
      ],
    );
    assert.equal(tools[1].input.content, 'export const json = true;\n');
    const usage = ofType(items, 'usage');
    assert.deepEqual(
      usage.map((u) => u.contextTokens),
      [18250 + 120, 21400 + 340, 21900 + 85],
    );
    assert.ok(usage.every((u) => u.model === 'claude-sonnet-4.5' && u.contextWindow === undefined));
    assert.equal(usage[2].at, Date.parse('2026-07-22T09:00:12.010Z'));
  });

  test('what the user typed is a prompt by the one rule: a session command or a system reminder alone is not', () => {
    const start =
      '{"type":"session.start","data":{"sessionId":"s1","startTime":"2026-07-22T09:00:00.000Z"},"id":"1","timestamp":"2026-07-22T09:00:00.000Z","parentId":null}';
    const user = (id: number, content: string) =>
      JSON.stringify({
        type: 'user.message',
        data: { content },
        id: String(id),
        timestamp: '2026-07-22T09:00:01.000Z',
      });
    const { items } = readVscodeTranscript(
      [
        start,
        user(2, '/clear'),
        user(3, '<system-reminder>x</system-reminder>'),
        user(4, 'Add a retry'),
      ].join('\n'),
    );
    assert.deepEqual(
      ofType(items, 'prompt').map((prompt) => prompt.text),
      ['Add a retry'],
    );
  });

  test('a subagent usage line and a usage line without token counts are left out', () => {
    const start =
      '{"type":"session.start","data":{"sessionId":"s1","version":1,"producer":"copilot-agent","copilotVersion":"0.50.0","vscodeVersion":"1.120.0","startTime":"2026-07-22T09:00:00.000Z"},"id":"1","timestamp":"2026-07-22T09:00:00.000Z","parentId":null}';
    const lines = [
      start,
      '{"type":"assistant.usage","data":{"model":"gpt-5","inputTokens":900,"outputTokens":10,"parentToolCallId":"call_sub"},"id":"2","timestamp":"2026-07-22T09:00:01.000Z","parentId":"1"}',
      '{"type":"assistant.usage","data":{"model":"gpt-5"},"id":"3","timestamp":"2026-07-22T09:00:02.000Z","parentId":"2"}',
      '{"type":"assistant.usage","data":{"totalTokens":500,"parentToolCallId":null},"id":"4","timestamp":"2026-07-22T09:00:03.000Z","parentId":"3"}',
    ];
    const { items } = readVscodeTranscript(lines.join('\n') + '\n');
    assert.deepEqual(
      ofType(items, 'usage').map((u) => u.contextTokens),
      [500],
    );
  });

  test('a torn last line and a malformed line are skipped and counted', () => {
    const content = fs.readFileSync(USAGE_SESSION, 'utf8');
    const torn =
      content + 'not json\n' + '{"type":"assistant.usage","data":{"model":"claude-sonnet-4.5","inputTo';
    const whole = readVscodeTranscript(content);
    const read = readVscodeTranscript(torn);
    assert.equal(read.skipped, 2);
    assert.deepEqual(read.items, whole.items);
  });

  test('odd input never throws; without a session.start the file name is the session id', async () => {
    for (const content of ['', '\n\n', '[]\n', 'null\n42\n"x"\n', '{"type":"user.message","data":7}\n']) {
      assert.doesNotThrow(() => readVscodeTranscript(content));
    }
    const oddLines = [
      '{"type":"tool.execution_complete","data":{"toolCallId":"orphan","success":true}}',
      '{"type":"tool.execution_start","data":{"toolCallId":"x","toolName":"read_file","arguments":"not json"}}',
      '{"type":"tool.execution_complete","data":{"toolCallId":"x","success":true}}',
      '{"type":"user.message","data":{"content":"   "}}',
      '{"type":"assistant.message","data":{"toolRequests":"nope"}}',
    ];
    const odd = readVscodeTranscript(oddLines.join('\n'), 'fallback');
    assert.equal(odd.skipped, 0);
    assert.deepEqual(
      odd.items.map((item) => item.type),
      ['session', 'tool'],
    );
    assert.equal(odd.items[0].sessionId, 'fallback');

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-vscode-transcript-'));
    try {
      const file = path.join(dir, '0a1b2c3d-aaaa-4bbb-8ccc-0123456789ab.jsonl');
      fs.writeFileSync(
        file,
        '{"type":"user.message","data":{"content":"hi"},"timestamp":"2026-07-22T09:00:00.000Z"}\n',
      );
      const { items } = await vscodeSessions.read(file);
      assert.equal(items[0].sessionId, '0a1b2c3d-aaaa-4bbb-8ccc-0123456789ab');
      assert.deepEqual(await vscodeSessions.read(path.join(dir, 'missing.jsonl')), { items: [], skipped: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('reading the same file twice gives the same keys', async () => {
    const first = await vscodeSessions.read(HOOKS_SESSION);
    const second = await vscodeSessions.read(HOOKS_SESSION);
    assert.deepEqual(
      ofType(first.items, 'prompt').map((p) => p.key),
      ofType(second.items, 'prompt').map((p) => p.key),
    );
  });
});

describe('VS Code agent transcript: recognise', () => {
  test('recognises its transcripts, also cut short', () => {
    assert.equal(vscodeSessions.recognise(head(HOOKS_SESSION)), true);
    assert.equal(vscodeSessions.recognise(head(USAGE_SESSION)), true);
    const first = fs.readFileSync(USAGE_SESSION, 'utf8').split('\n', 1)[0];
    assert.equal(recogniseVscodeTranscript(first.slice(0, first.indexOf('"startTime"'))), true);
  });

  test('rejects Claude Code transcripts, Codex rollouts, Copilot CLI events and other text', () => {
    const others = [
      ...fs.readdirSync(path.join(FIXTURES_DIR, 'transcripts')).map((name) => path.join('transcripts', name)),
      ...fs.readdirSync(path.join(FIXTURES_DIR, 'codex')).map((name) => path.join('codex', name)),
    ].filter((name) => name.endsWith('.jsonl'));
    assert.ok(others.length >= 5);
    for (const name of others) {
      assert.equal(vscodeSessions.recognise(head(path.join(FIXTURES_DIR, name))), false, name);
    }
    // Copilot CLI's events.jsonl: the same envelope and producer, but no vscodeVersion.
    const cli =
      '{"type":"session.start","data":{"sessionId":"0faecbdf-b889-4bca-a51a-5254f5488cb6","version":1,"producer":"copilot-agent","copilotVersion":"1.0.2","startTime":"2026-03-07T15:15:20.265Z","context":{"cwd":"/Users/x"}},"id":"7283e3ac","timestamp":"2026-03-07T15:15:20.267Z","parentId":null}\n';
    assert.equal(recogniseVscodeTranscript(cli), false);
    for (const text of ['', 'hello', '{', '[]', '{"type":"session.start"}']) {
      assert.equal(recogniseVscodeTranscript(text), false, text);
    }
  });
});

describe('VS Code agent transcript: find', () => {
  function storage(
    userData: string,
    hash: string,
    workspace: object,
    transcripts: string[],
    folder = 'GitHub.copilot-chat',
  ) {
    const dir = path.join(userData, 'User', 'workspaceStorage', hash);
    fs.mkdirSync(path.join(dir, folder, 'transcripts'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'workspace.json'), JSON.stringify(workspace));
    return transcripts.map((name) => {
      const file = path.join(dir, folder, 'transcripts', name);
      fs.writeFileSync(file, fs.readFileSync(HOOKS_SESSION));
      return file;
    });
  }

  test('finds only the transcripts of workspaces on the project or inside it, oldest first', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-vscode-find-'));
    try {
      const project = path.join(tmp, 'work', 'my project');
      const other = path.join(tmp, 'work', 'other');
      const desktop = path.join(tmp, 'Code');
      const server = path.join(tmp, 'vscode-server', 'data');
      const [newer] = storage(desktop, 'aaa111', { folder: pathToFileURL(project).href }, ['s-newer.jsonl']);
      storage(desktop, 'bbb222', { folder: pathToFileURL(other).href }, ['s-other.jsonl']);
      const [older] = storage(
        server,
        'ccc333',
        { folder: `vscode-remote://ssh-remote%2Bbox${encodeURI(path.join(project, 'packages', 'app'))}` },
        ['s-older.jsonl', 'notes.txt'],
        'github.copilot-chat',
      );
      // A storage without workspace.json and one whose JSON is broken are passed over.
      fs.mkdirSync(
        path.join(desktop, 'User', 'workspaceStorage', 'ddd444', 'GitHub.copilot-chat', 'transcripts'),
        {
          recursive: true,
        },
      );
      fs.mkdirSync(path.join(desktop, 'User', 'workspaceStorage', 'eee555'), { recursive: true });
      fs.writeFileSync(
        path.join(desktop, 'User', 'workspaceStorage', 'eee555', 'workspace.json'),
        '{"folder":',
      );
      fs.utimesSync(older, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
      fs.utimesSync(newer, new Date('2026-02-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'));

      const env = { VSCODE_USER_DATA_DIRS: [desktop, path.join(tmp, 'absent'), server].join(path.delimiter) };
      assert.deepEqual(vscodeSessions.find(project, env), [older, newer]);
      assert.deepEqual(findVscodeTranscripts(path.join(tmp, 'nowhere'), env), []);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('the default user data folders follow HOME, XDG_CONFIG_HOME and APPDATA', () => {
    const dirs = vscodeUserDataDirs({ HOME: '/h', XDG_CONFIG_HOME: '/x', APPDATA: '/a' });
    for (const dir of [
      path.join('/x', 'Code'),
      path.join('/x', 'Code - Insiders'),
      path.join('/h', '.vscode-server', 'data'),
      path.join('/h', '.local', 'share', 'code-server'),
      path.join('/h', 'Library', 'Application Support', 'Code'),
      path.join('/a', 'Code'),
    ]) {
      assert.ok(dirs.includes(dir), dir);
    }
    assert.ok(vscodeUserDataDirs({ HOME: '/h' }).includes(path.join('/h', '.config', 'Code')));
  });
});
