/**
 * A demo project and home with realistic agent activity: used by `npm start` and the real VS Code test.
 * Sessions over the last days with prompts, built-in and MCP tool calls, failures, and a few bad lines.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Payload, type ToolStep, appendEvents, sessionEvents } from './events';
import { transcriptLines, transcriptPath, writeTranscript } from './transcripts';

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
  return events;
}

/** The demo's live session: its context climbs to 72% of a 200k window over eight responses. */
export const DEMO_SESSION = 'demo-live-7f3a';

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
  fs.writeFileSync(
    path.join(project, 'README.md'),
    '# Demo project\n\nA workspace with recorded Claude Code activity for Context Deck.\n',
  );
  const realProject = options.recordedRoot
    ? demoFolders(options.recordedRoot).project
    : fs.realpathSync(project);
  appendEvents(home, demoEvents(realProject, options), 'demo.jsonl');
  const turns = [18_000, 31_000, 52_000, 70_000, 88_000, 104_000, 126_000, 144_000].map((tokens) => ({
    input: 1_200,
    cacheCreation: 4_000,
    cacheRead: tokens - 5_200,
  }));
  writeTranscript(
    transcriptPath(claudeDir, realProject, DEMO_SESSION),
    transcriptLines({
      sessionId: DEMO_SESSION,
      cwd: realProject,
      // Its last response came two minutes ago: a session in progress.
      startAt: (options.now ?? Date.now()) - 10 * 60_000,
      turns,
    }),
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
