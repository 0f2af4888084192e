/**
 * A workspace that only Codex CLI has touched, in a real VS Code: the extension activates on its `.codex`
 * folder (no Claude Code file, no sidebar opened) and the status bar shows the live session's context, read
 * from the rollout Codex's hooks named. Screenshot: test-output/e2e/agent-workspaces/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FIXTURES_DIR } from '../support/events';
import { REPO_ROOT } from '../support/processes';
import { type Workbench, extensionOutput, launchWorkbench } from '../support/workbench';

const SCREENSHOTS = path.join(REPO_ROOT, 'test-output', 'e2e', 'agent-workspaces');
const VSIX = path.join(REPO_ROOT, 'dist', 'context-deck.vsix');
/** A real Codex CLI rollout (test/fixtures/codex/README.md): 132,006 tokens of a 258,400-token window. */
const ROLLOUT = 'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.excerpt.jsonl';
const SESSION = '019e1625-789d-76c0-80ab-3724b5ddb799';

/** The rollout with its times moved so that its last line is a minute old: a session still running. */
function recentRollout(file: string): string {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  const times = lines.map((line) => Date.parse((JSON.parse(line) as { timestamp: string }).timestamp));
  const shift = Date.now() - 60_000 - Math.max(...times);
  return lines
    .map((line, index) => {
      const record = JSON.parse(line) as { timestamp: string };
      return JSON.stringify({ ...record, timestamp: new Date(times[index] + shift).toISOString() });
    })
    .join('\n')
    .concat('\n');
}

describe('a Codex-only workspace in a real VS Code', () => {
  let root: string;
  let workbench: Workbench;

  before(async () => {
    assert.ok(fs.existsSync(VSIX), `the packaged extension exists (${VSIX}); run npm run package`);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-codex-'));
    const project = path.join(root, 'service');
    const home = path.join(root, 'context-deck');
    const codexHome = path.join(root, 'codex-home');
    fs.mkdirSync(path.join(project, '.codex'), { recursive: true });
    fs.writeFileSync(path.join(project, 'README.md'), '# service\n');
    const rollout = path.join(codexHome, 'sessions', '2026', '05', '11', ROLLOUT.replace('.excerpt', ''));
    fs.mkdirSync(path.dirname(rollout), { recursive: true });
    fs.writeFileSync(rollout, recentRollout(path.join(FIXTURES_DIR, 'codex', ROLLOUT)));
    // What the recorder wrote for Codex's SessionStart hook: the payload, stamped and tagged.
    const hook = JSON.parse(
      fs.readFileSync(path.join(FIXTURES_DIR, 'codex', 'hook-payloads', 'SessionStart.input.json'), 'utf8'),
    ) as Record<string, unknown>;
    fs.mkdirSync(path.join(home, 'events'), { recursive: true });
    fs.writeFileSync(
      path.join(home, 'events', 'codex.jsonl'),
      `${JSON.stringify({
        ...hook,
        session_id: SESSION,
        cwd: project,
        transcript_path: rollout,
        _cd: { ts: new Date().toISOString(), agent: 'codex', v: 'test' },
      })}\n`,
    );
    fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
    workbench = await launchWorkbench({
      vsix: VSIX,
      workspace: project,
      env: {
        CONTEXT_DECK_HOME: home,
        CODEX_HOME: codexHome,
        CLAUDE_CONFIG_DIR: path.join(root, 'no-claude'),
      },
      screenshotsDir: SCREENSHOTS,
    });
  });

  after(async () => {
    await workbench?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test('activates on .codex and shows the Codex session’s context in the status bar, sidebar closed', async () => {
    const status = workbench.page.locator('.statusbar-item', { hasText: /ctx \d+%/ }).first();
    await status.waitFor({ state: 'visible', timeout: 60_000 }).catch(async (error: unknown) => {
      await workbench.screenshot('00-no-gauge');
      assert.fail(
        `no gauge in the status bar (${String(error)}); the extension said:\n${extensionOutput(workbench)}`,
      );
    });
    assert.match((await status.textContent()) ?? '', /ctx 51%/);
    await workbench.screenshot('01-codex-only-status-bar');
  });
});
