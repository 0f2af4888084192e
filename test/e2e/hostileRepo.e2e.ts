/**
 * A hostile repository opened in a real VS Code (code-server) driven by headless Chromium: two links to `.`
 * in `.claude/commands` (an exponential walk before), `.mcp.json` linked to /dev/zero (a read without end)
 * and `.claude/settings.local.json` as a FIFO (a wait without end). The dashboard's Tools section appears with the other files' tools and a warning naming each file.
 * Screenshots: test-output/e2e/hostile-repo/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { writeDemo } from '../support/demoWorkspace';
import { REPO_ROOT } from '../support/processes';
import { type Workbench, launchWorkbench } from '../support/workbench';

const SCREENSHOTS = path.join(REPO_ROOT, 'test-output', 'e2e', 'hostile-repo');
const VSIX = path.join(REPO_ROOT, 'dist', 'context-deck.vsix');

const row = (name: string) => `[data-testid="tool-row"][data-name="${name}"]`;

describe('a hostile repository in a real VS Code', () => {
  let root: string;
  let workbench: Workbench;
  let frame: Frame;

  before(async () => {
    assert.ok(fs.existsSync(VSIX), `the packaged extension exists (${VSIX}); run npm run package`);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-hostile-'));
    const { home, project, claudeDir } = writeDemo(root, { now: Date.now() });
    fs.writeFileSync(path.join(claudeDir, '.claude.json'), '{ "numStartups": 3 }\n');
    const commands = path.join(project, '.claude', 'commands');
    fs.symlinkSync('.', path.join(commands, 'a'));
    fs.symlinkSync('.', path.join(commands, 'b'));
    fs.rmSync(path.join(project, '.mcp.json'), { force: true });
    fs.symlinkSync('/dev/zero', path.join(project, '.mcp.json'));
    // Read for the dashboard's connection status: a FIFO there used to block the host for good.
    const fifo = path.join(project, '.claude', 'settings.local.json');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, `mkfifo ${fifo}`);
    fs.mkdirSync(path.join(project, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(project, '.vscode', 'mcp.json'),
      '{ "servers": { "docs": { "type": "http", "url": "https://docs.example.invalid/mcp" } } }\n',
    );

    fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
    workbench = await launchWorkbench({
      vsix: VSIX,
      workspace: project,
      env: { CONTEXT_DECK_HOME: home, CLAUDE_CONFIG_DIR: claudeDir },
      screenshotsDir: SCREENSHOTS,
      userSettings: { 'workbench.colorTheme': 'Default Dark Modern' },
    });
    await workbench.openContainer('Context Deck');
    frame = await workbench.webviewFrame('[data-testid="tools-section"]', 60_000);
  });

  after(async () => {
    await workbench?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test('the Tools section shows the other tools and a warning for each hostile file', async () => {
    await frame.locator(row('mcp_docs_*')).waitFor({ timeout: 30_000 });
    await frame.locator(row('/review')).waitFor({ timeout: 30_000 });
    const problems = frame.locator('[data-testid="tool-problem"]');
    await problems.nth(1).waitFor({ timeout: 30_000 });
    const texts = (await problems.allTextContents()).map((text) => text.trim());
    assert.ok(
      texts.some((text) => /\.mcp\.json: is a device, not a regular file: not read/.test(text)),
      texts.join('\n'),
    );
    assert.ok(
      texts.some((text) => /\.claude\/commands: has links to folders it holds \([ab]\)/.test(text)),
      texts.join('\n'),
    );
    await problems.first().scrollIntoViewIfNeeded();
    await workbench.screenshot('01-warnings');
  });
});
