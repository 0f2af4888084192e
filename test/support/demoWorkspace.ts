/**
 * A demo project and home with realistic agent activity: used by `npm start` and the real VS Code test.
 * Sessions over the last days with prompts, built-in and MCP tool calls, failures, and a few bad lines.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Payload, type ToolStep, appendEvents, sessionEvents } from './events';
import { assistantTextLine, promptLine, toolTurnLines, transcriptPath, writeTranscript } from './transcripts';

const PROMPTS = [
  'Fix the failing login test',
  'Add rate limiting to the API client',
  'Why is the build slow? Profile it',
  'Refactor the settings loader to use zod',
  'Write a migration for the users table',
  'Review the open PR and summarise the risks',
];

const TOOL_MIX: ToolStep[] = [
  { tool: 'Read', input: { file_path: 'src/api.ts' } },
  { tool: 'Grep', input: { pattern: 'retries', path: 'src' } },
  { tool: 'Read', input: { file_path: 'src/settings.ts' } },
  {
    tool: 'Edit',
    input: {
      file_path: 'src/api.ts',
      old_string: 'const retries = 3;',
      new_string: 'const retries = settings.retries;',
    },
  },
  { tool: 'Bash', input: { command: 'npm test', description: 'Run tests' } },
  { tool: 'mcp__github__search_issues', input: { q: 'flaky login test' } },
  { tool: 'Glob', input: { pattern: 'src/**/*.test.ts' } },
  {
    tool: 'Write',
    input: { file_path: 'src/retryPolicy.ts', content: 'export const backoffMs = [100, 400, 1600];\n' },
  },
  { tool: 'Bash', input: { command: 'npm run build' }, error: 'Exit code 2\nsrc/api.ts(14,3): error TS2345' },
  { tool: 'mcp__playwright__browser_navigate', error: 'MCP error -32000: Connection closed' },
  {
    tool: 'WebFetch',
    input: { url: 'https://docs.github.com/en/rest/rate-limit', prompt: 'rate limit headers' },
  },
  {
    tool: 'Edit',
    input: { file_path: 'src/settings.ts', old_string: 'retries: 3', new_string: 'retries: 5' },
  },
  // The build that failed passes again: the memory shows that failure as fixed.
  { tool: 'Bash', input: { command: 'npm run build' } },
];

export interface DemoOptions {
  sessions?: number;
  /** End of the demo activity (the last session ends shortly before). */
  now?: number;
}

export interface DemoFolders {
  home: string;
  project: string;
  claudeDir: string;
}

function demoFolders(root: string): DemoFolders {
  return {
    home: path.join(root, 'home'),
    claudeDir: path.join(root, 'claude'),
    project: path.join(root, 'demo-project'),
  };
}

/** Claude Code reports absolute file paths. */
function withAbsolutePath(step: ToolStep, project: string): ToolStep {
  const file = step.input?.file_path;
  return typeof file === 'string'
    ? { ...step, input: { ...step.input, file_path: path.join(project, file) } }
    : step;
}

/** Events of the demo: `sessions` sessions spread over the last days. */
export function demoEvents(project: string, options: DemoOptions = {}): Payload[] {
  const now = options.now ?? Date.now();
  const count = options.sessions ?? 6;
  const events: Payload[] = [];
  for (let i = 0; i < count; i++) {
    const startAt = now - (count - i) * 7 * 3600_000;
    const tools = TOOL_MIX.slice(0, 4 + ((i * 5) % TOOL_MIX.length))
      .concat(TOOL_MIX.slice(0, i % 3))
      .map((step) => withAbsolutePath(step, project));
    events.push(
      ...sessionEvents({
        sessionId: `demo-${String(i + 1).padStart(2, '0')}-${(0x5eed + i * 7919).toString(16)}`,
        cwd: project,
        startAt,
        stepMs: 40_000,
        model: i % 2 ? 'claude-opus-4-1' : 'claude-sonnet-4-5',
        prompts: [PROMPTS[i % PROMPTS.length], PROMPTS[(i + 2) % PROMPTS.length]],
        tools,
      }),
    );
  }
  events.push(...vscodeAgentEvents(project, now - 2 * 7 * 3600_000 - 3600_000));
  return events;
}

/**
 * One request of VS Code's own agent, in the shape it sends its hooks (test/fixtures/vscode/): snake_case
 * fields, an ISO `timestamp` on each, its own tool names and argument names.
 */
function vscodeAgentEvents(project: string, startAt: number): Payload[] {
  const sessionId = 'vscode-5f0b7c2e-3a1d-4e8f';
  const steps: Payload[] = [
    { hook_event_name: 'SessionStart', source: 'new' },
    { hook_event_name: 'UserPromptSubmit', prompt: 'Add a retry count setting to the API client' },
    {
      hook_event_name: 'PostToolUse',
      tool_name: 'read_file',
      tool_input: { filePath: path.join(project, 'src/api.ts'), startLine: 1, endLine: 80 },
      tool_response: '',
    },
    {
      hook_event_name: 'PostToolUse',
      tool_name: 'replace_string_in_file',
      tool_input: {
        filePath: path.join(project, 'src/api.ts'),
        oldString: 'const retries = 3;',
        newString: 'const retries = settings.retries ?? 3;',
      },
      tool_response: '',
    },
    {
      hook_event_name: 'PostToolUse',
      tool_name: 'run_in_terminal',
      tool_input: { command: 'npm test', explanation: 'Run the tests', isBackground: false },
      tool_response: '> npm test\n\n  42 passing (1s)\n',
    },
    { hook_event_name: 'Stop', stop_hook_active: false },
  ];
  return steps.map((step, i) => {
    const at = new Date(startAt + i * 30_000).toISOString();
    return {
      timestamp: at,
      ...step,
      session_id: sessionId,
      cwd: project,
      ...(step.tool_name ? { tool_use_id: `toolu_vscode_${i}` } : {}),
      _cd: { ts: at, v: 'demo' },
    };
  });
}

/** The demo's live session: its context climbs to 72% of a 200k window. */
export const DEMO_SESSION = 'demo-live-7f3a';
const DEMO_SESSION_TOKENS = 144_000;
/** What the first call carries before anything of the conversation: system prompt, tools, memory. */
const DEMO_FIXED_TOKENS = 18_000;

/** Source files of the demo project that the live session reads, `lines` lines each. */
const DEMO_FILES = { 'src/auth/login.ts': 160, 'src/legacyReport.ts': 900 } as const;

function demoSource(file: string, lines: number): string {
  const name = path.basename(file, '.ts');
  return Array.from(
    { length: lines },
    (_, i) =>
      `export function ${name}Step${i}(input: Record<string, string>): string { return input.value ?? '${i}'; }`,
  ).join('\n');
}

/** Claude Code's Read result: the file's lines numbered, as the model sees them. */
function readResult(text: string): string {
  return text
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(6)}\t${line}`)
    .join('\n');
}

/** A test run's output of about `chars` characters. */
function testLog(chars: number): string {
  const line = '  ✓ login › keeps the session cookie after a refresh (12 ms)';
  return `> npm test\n\n${Array.from({ length: Math.ceil(chars / (line.length + 1)) }, () => line).join('\n')}`.slice(
    0,
    chars,
  );
}

/**
 * The live session: a prompt, two files read, an MCP search, an edit and two test runs, the context growing
 * by what each step added (about 4 characters a token) to 72% of the window.
 */
function demoLiveSession(project: string, now: number) {
  const base = { sessionId: DEMO_SESSION, cwd: project };
  const start = now - 10 * 60_000;
  const at = (minute: number) => start + minute * 60_000;
  const file = (name: keyof typeof DEMO_FILES) => readResult(demoSource(name, DEMO_FILES[name]));
  const results = [
    {
      tool: 'Read',
      input: { file_path: path.join(project, 'src/auth/login.ts') },
      result: file('src/auth/login.ts'),
    },
    {
      tool: 'mcp__github__search_issues',
      input: { q: 'login test flaky' },
      result: JSON.stringify({
        items: Array.from({ length: 40 }, (_, i) => ({
          number: 300 + i,
          title: `Login test fails on CI run ${i}`,
          body: 'The session cookie is dropped after a refresh. '.repeat(12),
        })),
      }),
    },
    {
      tool: 'Read',
      input: { file_path: path.join(project, 'src/legacyReport.ts') },
      result: file('src/legacyReport.ts'),
    },
    {
      tool: 'Edit',
      input: {
        file_path: path.join(project, 'src/auth/login.ts'),
        old_string: 'cookie.maxAge = 0',
        new_string: 'cookie.maxAge = SESSION_MS',
      },
      result: 'The file src/auth/login.ts has been updated.',
    },
    { tool: 'Bash', input: { command: 'npm test -- auth' }, result: testLog(60_000) },
  ];
  // The first test run's log takes whatever the 72% leaves: the biggest item, as test logs often are.
  const known = results.reduce((sum, step) => sum + Math.ceil(step.result.length / 4), 0);
  const firstLog = testLog(4 * (DEMO_SESSION_TOKENS - DEMO_FIXED_TOKENS - known - 400));
  results.splice(1, 0, { tool: 'Bash', input: { command: 'npm test' }, result: firstLog });
  let tokens = DEMO_FIXED_TOKENS;
  const turns = results.map((step, i) => {
    const turn = { ...step, resultChars: step.result.length, tokens, at: at(1 + i) };
    tokens += Math.ceil(step.result.length / 4);
    return turn;
  });
  return [
    promptLine({ ...base, text: 'Fix the failing login test', at: at(0) }),
    ...toolTurnLines({ ...base, turns }),
    assistantTextLine({
      ...base,
      text: 'The login test passes again.',
      tokens: DEMO_SESSION_TOKENS,
      at: at(8),
    }),
  ];
}

/**
 * Write a demo project folder (with agent config), a home whose event log holds its activity, and a Claude
 * Code folder with the transcript of a session in progress. `recordedRoot` is where the demo will live once
 * moved into place: the recorded activity names paths there.
 */
export function writeDemo(root: string, options: DemoOptions & { recordedRoot?: string } = {}): DemoFolders {
  const { home, claudeDir, project } = demoFolders(root);
  fs.mkdirSync(path.join(project, '.claude', 'commands'), { recursive: true });
  fs.mkdirSync(path.join(project, 'src'), { recursive: true });
  fs.writeFileSync(
    path.join(project, '.mcp.json'),
    `${JSON.stringify({ mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] }, playwright: { command: 'npx', args: ['@playwright/mcp@latest'] } } }, null, 2)}\n`,
  );
  fs.writeFileSync(
    path.join(project, '.claude', 'commands', 'review.md'),
    '---\ndescription: Review the current diff\n---\nReview the staged changes.\n',
  );
  fs.writeFileSync(path.join(project, 'src', 'api.ts'), 'export const retries = 3;\n');
  for (const [file, lines] of Object.entries(DEMO_FILES)) {
    fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    fs.writeFileSync(path.join(project, file), `${demoSource(file, lines)}\n`);
  }
  fs.writeFileSync(path.join(project, 'src', 'settings.ts'), 'export const settings = { retries: 5 };\n');
  fs.writeFileSync(
    path.join(project, 'src', 'retryPolicy.ts'),
    'export const backoffMs = [100, 400, 1600];\n',
  );
  fs.writeFileSync(
    path.join(project, 'README.md'),
    '# Demo project\n\nA workspace with recorded Claude Code activity for Context Deck.\n',
  );
  // The files as the recorded sessions left them: written before their changes were recorded, so the
  // memory's check of each cited file finds it unchanged since.
  const before = new Date((options.now ?? Date.now()) - 60 * 86_400_000);
  for (const file of fs.readdirSync(path.join(project, 'src'), { recursive: true }))
    fs.utimesSync(path.join(project, 'src', String(file)), before, before);
  const realProject = options.recordedRoot
    ? demoFolders(options.recordedRoot).project
    : fs.realpathSync(project);
  appendEvents(home, demoEvents(realProject, options), 'demo.jsonl');
  // Its last response came two minutes ago: a session in progress.
  writeTranscript(
    transcriptPath(claudeDir, realProject, DEMO_SESSION),
    demoLiveSession(realProject, options.now ?? Date.now()),
  );
  // One torn write from a crashed tool, so the rejects view has something to explain.
  fs.appendFileSync(path.join(home, 'events', 'demo.jsonl'), '{"hook_event_name":"PostToolUse","cwd":\n');
  return { home, project: realProject, claudeDir };
}

/**
 * Build a new demo in `<root>.partial` and move it into place only when it is complete, so an interrupted
 * start never leaves a half-written demo behind. Its history ends now, so its session context is current.
 */
export function replaceDemo(root: string, options: DemoOptions = {}): DemoFolders {
  const staging = `${root}.partial`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(root), { recursive: true });
  const recordedRoot = path.join(fs.realpathSync(path.dirname(root)), path.basename(root));
  writeDemo(staging, { ...options, recordedRoot });
  fs.rmSync(root, { recursive: true, force: true });
  fs.renameSync(staging, root);
  return demoFolders(recordedRoot);
}
