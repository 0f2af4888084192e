/**
 * Workspaces that only one agent other than Claude Code has touched, in a real VS Code: the extension
 * activates on that agent's trace (no Claude Code file, no sidebar opened) and the status bar shows the live
 * session's context, read from the session file the agent's hooks named. Screenshots:
 * test-output/e2e/agent-workspaces/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadSqlJs } from '../../src/engine/kernel/sqlJs';
import { FIXTURES_DIR } from '../support/events';
import { REPO_ROOT } from '../support/processes';
import { type Workbench, extensionOutput, launchWorkbench } from '../support/workbench';

const SCREENSHOTS = path.join(REPO_ROOT, 'test-output', 'e2e', 'agent-workspaces');
const VSIX = path.join(REPO_ROOT, 'dist', 'context-deck.vsix');

/** A session file with its times moved so that its last line is a minute old: a session still running. */
function recentCopy(fixture: string, to: string): string {
  const lines = fs.readFileSync(path.join(FIXTURES_DIR, fixture), 'utf8').trim().split('\n');
  const times = lines.map((line) => Date.parse((JSON.parse(line) as { timestamp: string }).timestamp));
  const shift = Date.now() - 60_000 - Math.max(...times);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.writeFileSync(
    to,
    lines
      .map((line, index) => {
        const record = JSON.parse(line) as { timestamp: string };
        return JSON.stringify({ ...record, timestamp: new Date(times[index] + shift).toISOString() });
      })
      .join('\n')
      .concat('\n'),
  );
  return to;
}

/**
 * opencode's store (test/fixtures/opencode/README.md: a real run of opencode 1.18.33) at
 * `$XDG_DATA_HOME/opencode/opencode.db`, its session run in `project`, its times (epoch ms) moved as above.
 */
async function recentOpencodeStore(root: string, project: string): Promise<string> {
  const dump = fs.readFileSync(
    path.join(FIXTURES_DIR, 'opencode/opencode-1.18.33.lazyagents.excerpt.sql'),
    'utf8',
  );
  const times = [...dump.matchAll(/\b17\d{11}\b/g)].map(([time]) => Number(time));
  const shift = Date.now() - 60_000 - Math.max(...times);
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  db.exec(
    dump.replaceAll('/work/proj', project).replace(/\b17\d{11}\b/g, (time) => String(Number(time) + shift)),
  );
  const store = path.join(root, 'data', 'opencode', 'opencode.db');
  fs.mkdirSync(path.dirname(store), { recursive: true });
  fs.writeFileSync(store, db.export());
  db.close();
  return store;
}

interface AgentWorkspace {
  name: string;
  /** The one trace of the agent in the project (a folder ends in `/`). */
  trace: string;
  /** Writes the agent's session file where the agent keeps it, under the test's root; returns its path. */
  writeSession: (root: string, project: string) => string | Promise<string>;
  /**
   * The hook payload the recorder logged for the session's start (a fixture, or its line in a fixture of
   * lines), the agent it tagged, and whether the payload names the session file (opencode's names none).
   */
  hook: { fixture: string; line?: number; agent: string; sessionId: string; namesFile: boolean };
  /** The environment that points the agent's folders into the test's root. */
  env: (root: string) => Record<string, string>;
  /** What the status bar shows. */
  shows: RegExp;
}

const WORKSPACES: AgentWorkspace[] = [
  {
    name: 'Codex CLI',
    trace: '.codex/',
    // A real Codex CLI rollout (test/fixtures/codex/README.md): 132,006 tokens of a 258,400-token window.
    writeSession: (root) =>
      recentCopy(
        'codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.excerpt.jsonl',
        path.join(
          root,
          'codex-home/sessions/2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
        ),
      ),
    hook: {
      fixture: 'codex/hook-payloads/SessionStart.input.json',
      agent: 'codex',
      sessionId: '019e1625-789d-76c0-80ab-3724b5ddb799',
      namesFile: true,
    },
    env: (root) => ({ CODEX_HOME: path.join(root, 'codex-home') }),
    shows: /ctx 51%/,
  },
  {
    name: "VS Code's agent",
    trace: '.vscode/mcp.json',
    // A transcript that records usage (test/fixtures/vscode/README.md): 21,985 tokens of 200,000.
    writeSession: (root) =>
      recentCopy(
        'vscode/transcripts/usage-session.jsonl',
        path.join(
          root,
          'Code/User/workspaceStorage/0a1b/GitHub.copilot-chat/transcripts/c4d5e6f7-1a2b-4c3d-9e4f-5a6b7c8d9e0f.jsonl',
        ),
      ),
    hook: {
      fixture: 'vscode/local/SessionStart.json',
      agent: 'vscode',
      sessionId: 'c4d5e6f7-1a2b-4c3d-9e4f-5a6b7c8d9e0f',
      namesFile: true,
    },
    env: (root) => ({ VSCODE_USER_DATA_DIRS: path.join(root, 'Code') }),
    shows: /ctx 11%/,
  },
  {
    name: 'opencode',
    trace: 'opencode.json',
    writeSession: recentOpencodeStore,
    // Its plugin's SessionStart (a real run's payloads): the session's id, no file.
    hook: {
      fixture: 'opencode/opencode-1.18.33.run.plugin-payloads.jsonl',
      line: 0,
      agent: 'opencode',
      sessionId: 'ses_f0de500f8ffeXvsiYJDOg5JtrU',
      namesFile: false,
    },
    env: (root) => ({ XDG_DATA_HOME: path.join(root, 'data') }),
    // The run's test model reported 156 tokens of a 200,000-token window.
    shows: /ctx 0%/,
  },
];

for (const agent of WORKSPACES)
  describe(`a workspace only ${agent.name} has touched, in a real VS Code`, () => {
    let root: string;
    let workbench: Workbench;

    before(async () => {
      assert.ok(fs.existsSync(VSIX), `the packaged extension exists (${VSIX}); run npm run package`);
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-agent-'));
      const project = path.join(root, 'service');
      const home = path.join(root, 'context-deck');
      const trace = path.join(project, agent.trace);
      if (agent.trace.endsWith('/')) fs.mkdirSync(trace, { recursive: true });
      else {
        fs.mkdirSync(path.dirname(trace), { recursive: true });
        fs.writeFileSync(trace, '{}\n');
      }
      fs.writeFileSync(path.join(project, 'README.md'), '# service\n');
      const sessionFile = await agent.writeSession(root, project);
      // What the recorder wrote for the agent's SessionStart hook: the payload, stamped and tagged.
      const text = fs.readFileSync(path.join(FIXTURES_DIR, agent.hook.fixture), 'utf8');
      const hook = JSON.parse(
        agent.hook.line === undefined ? text : text.split('\n')[agent.hook.line],
      ) as Record<string, unknown>;
      fs.mkdirSync(path.join(home, 'events'), { recursive: true });
      fs.writeFileSync(
        path.join(home, 'events', `${agent.hook.agent}.jsonl`),
        `${JSON.stringify({
          ...hook,
          session_id: agent.hook.sessionId,
          cwd: project,
          ...(agent.hook.namesFile ? { transcript_path: sessionFile } : {}),
          _cd: { ts: new Date().toISOString(), agent: agent.hook.agent, v: 'test' },
        })}\n`,
      );
      workbench = await launchWorkbench({
        vsix: VSIX,
        workspace: project,
        env: { CONTEXT_DECK_HOME: home, CLAUDE_CONFIG_DIR: path.join(root, 'no-claude'), ...agent.env(root) },
        screenshotsDir: SCREENSHOTS,
      });
    });

    after(async () => {
      await workbench?.stop();
      if (root) fs.rmSync(root, { recursive: true, force: true });
    });

    test(`activates on ${agent.trace} and shows the session’s context in the status bar, sidebar closed`, async () => {
      const status = workbench.page.locator('.statusbar-item', { hasText: /ctx \d+%/ }).first();
      await status.waitFor({ state: 'visible', timeout: 60_000 }).catch(async (error: unknown) => {
        await workbench.screenshot(`${agent.hook.agent}-no-gauge`);
        assert.fail(
          `no gauge in the status bar (${String(error)}); the extension said:\n${extensionOutput(workbench)}`,
        );
      });
      assert.match((await status.textContent()) ?? '', agent.shows);
      await workbench.screenshot(`${agent.hook.agent}-only-status-bar`);
    });
  });
