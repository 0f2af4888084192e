/**
 * The Tools section in a real VS Code (code-server) driven by headless Chromium: an MCP tool whose last
 * calls failed is demoted with its last error, a server removed from .mcp.json while VS Code runs goes
 * stale through the file watcher, an unreadable config file is reported, and a server is disabled and
 * re-enabled for the project through Claude Code's settings file after a confirmation.
 * A registry of 2,000 tools renders 150 rows at a time and filters quickly.
 * Screenshots: test-output/e2e/tools/ (CONTEXT_DECK_E2E_THEME=light: test-output/e2e/tools-light/).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame, Locator } from 'playwright-core';
import { demoEvents, writeDemo } from '../support/demoWorkspace';
import { type Payload, type ToolStep, appendEvents, sessionEvents } from '../support/events';
import { REPO_ROOT } from '../support/processes';
import { type Workbench, launchWorkbench } from '../support/workbench';

/** Dark by default; CONTEXT_DECK_E2E_THEME=light for the light theme's screenshots. */
const LIGHT = process.env.CONTEXT_DECK_E2E_THEME === 'light';
const SCREENSHOTS = path.join(REPO_ROOT, 'test-output', 'e2e', LIGHT ? 'tools-light' : 'tools');
const VSIX = path.join(REPO_ROOT, 'dist', 'context-deck.vsix');
const NAVIGATE = 'mcp__playwright__browser_navigate';
const LAST_ERROR = 'Timeout 30000ms exceeded waiting for http://localhost:5173/login';
const DAY_MS = 86_400_000;

const row = (name: string) => `[data-testid="tool-row"][data-name="${name}"]`;

/** The tool calls of the seeded log, in time order, read from the raw events rather than the engine. */
function toolCalls(events: Payload[]) {
  return events
    .filter(
      (event) => event.hook_event_name === 'PostToolUse' || event.hook_event_name === 'PostToolUseFailure',
    )
    .map((event) => ({
      tool: String(event.tool_name),
      failed: event.hook_event_name === 'PostToolUseFailure',
      error: typeof event.error === 'string' ? event.error : null,
      at: Date.parse(String((event._cd as { ts: string }).ts)),
    }))
    .sort((a, b) => a.at - b.at);
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`${what} did not happen within ${timeoutMs} ms${last ? ` (${String(last)})` : ''}`);
}

async function text(locator: Locator): Promise<string> {
  return ((await locator.first().textContent()) ?? '').trim();
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
}

describe('Tools section in a real VS Code', () => {
  let root: string;
  let workbench: Workbench;
  let home: string;
  let project: string;
  let seeded: Payload[];
  let frame: Frame;

  before(async () => {
    assert.ok(fs.existsSync(VSIX), `the packaged extension exists (${VSIX}); run npm run package`);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-tools-'));
    const now = Date.now();
    let claudeDir: string;
    ({ home, project, claudeDir } = writeDemo(root, { now }));
    // The user's Claude Code state file inside CLAUDE_CONFIG_DIR: the scan never reads the real ~/.claude.json.
    fs.writeFileSync(path.join(claudeDir, '.claude.json'), '{ "numStartups": 3 }\n');
    fs.writeFileSync(
      path.join(project, '.mcp.json'),
      `${JSON.stringify(
        {
          mcpServers: {
            github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] },
            playwright: { command: 'npx', args: ['@playwright/mcp@latest'] },
            sentry: { type: 'http', url: 'https://mcp.sentry.dev/mcp' },
          },
        },
        null,
        2,
      )}\n`,
    );
    fs.mkdirSync(path.join(project, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(project, '.vscode', 'mcp.json'),
      '{\n  // VS Code\'s own agent\n  "servers": { "docs": { "type": "http", "url": "https://docs.example.invalid/mcp" } }\n}\n',
    );
    fs.mkdirSync(path.join(project, '.cursor'), { recursive: true });
    fs.writeFileSync(path.join(project, '.cursor', 'mcp.json'), '{ "mcpServers": { "broken": { } \n');

    // Half an hour ago the browser server kept timing out: 3 of the navigate tool's last 5 calls failed.
    const failing: ToolStep[] = [
      { tool: NAVIGATE, error: 'MCP error -32000: Connection closed' },
      { tool: NAVIGATE },
      { tool: NAVIGATE, error: 'Timeout 30000ms exceeded' },
      { tool: 'mcp__github__get_issue' },
      { tool: NAVIGATE, error: LAST_ERROR },
    ];
    const session = sessionEvents({
      sessionId: 'tools-e2e',
      cwd: project,
      startAt: now - 30 * 60_000,
      prompts: ['Check the login page in the browser'],
      tools: failing,
    });
    appendEvents(home, session, 'tools.jsonl');
    seeded = [...demoEvents(project, { now }), ...session];

    fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
    workbench = await launchWorkbench({
      vsix: VSIX,
      workspace: project,
      env: { CONTEXT_DECK_HOME: home, CLAUDE_CONFIG_DIR: claudeDir },
      screenshotsDir: SCREENSHOTS,
      userSettings: { 'workbench.colorTheme': LIGHT ? 'Default Light Modern' : 'Default Dark Modern' },
    });
    await workbench.openContainer('Context Deck');
    await workbench.page.mouse.move(900, 500);
    frame = await workbench.webviewFrame('[data-testid="tools-section"]', 60_000);
  });

  after(async () => {
    await workbench?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test('an MCP tool whose last calls failed is demoted, with its last error, under its server', async () => {
    const calls = toolCalls(seeded).filter((call) => call.tool === NAVIGATE);
    const lastFive = calls.slice(-5);
    assert.ok(lastFive.filter((call) => call.failed).length >= 3, 'the seed fails 3 of the last 5 calls');
    const expectedReason = [...calls].reverse().find((call) => call.failed)!.error;
    assert.equal(expectedReason, LAST_ERROR);

    const server = frame.locator(row('mcp__playwright__*'));
    await server.waitFor({ timeout: 30_000 });
    // Collapsed, the server says one of its tools is demoted.
    await waitFor('the collapsed server to count its demoted tool', async () =>
      /1 demoted/.test(await text(server.locator('.tool-main'))) ? true : undefined,
    );
    await server.locator('[data-testid="tool-expander"]').click();
    const navigate = frame.locator(row(NAVIGATE));
    await waitFor('the navigate tool to be demoted', async () =>
      (await navigate.getAttribute('data-status')) === 'demoted' ? true : undefined,
    );
    assert.equal(await text(navigate.locator('[data-testid="badge-demoted"]')), 'demoted');
    assert.equal(await text(navigate.locator('[data-testid="tool-reason"]')), expectedReason);
    const window = calls.slice(-50);
    const ok = window.filter((call) => !call.failed).length / window.length;
    assert.equal(
      await text(navigate.locator('[data-testid="tool-success"]')),
      `${Math.round(ok * 100)}% succeeded`,
    );

    // The server counts its tools' calls of the last 7 days.
    const weekAgo = Date.now() - 7 * DAY_MS;
    const githubUses = toolCalls(seeded).filter(
      (call) => call.tool.startsWith('mcp__github__') && call.at >= weekAgo,
    ).length;
    assert.ok(githubUses > 0);
    assert.equal(
      await text(frame.locator(row('mcp__github__*')).locator('[data-testid="tool-uses7d"]')),
      `${githubUses} ${githubUses === 1 ? 'call' : 'calls'} in 7 days`,
    );

    // The unreadable Cursor file is reported, and its tools are not taken as removed.
    const problem = await text(frame.locator('[data-testid="tool-problem"]'));
    assert.match(
      problem,
      /^Could not read \.cursor\/mcp\.json: .+; the tools it declared are kept as they were\.$/,
    );

    // Its details explain the score: the demotion divides it by 4.
    await navigate.locator('.tool-name').click();
    const details = navigate.locator('[data-testid="tool-details"]');
    await details.waitFor({ timeout: 5_000 });
    assert.match(await text(details.locator('[data-testid="tool-score"]')), /× 0\.25 \(demoted\)/);
    await frame.locator('[data-testid="tools-section"]').scrollIntoViewIfNeeded();
    await navigate.scrollIntoViewIfNeeded();
    await workbench.screenshot('01-demoted');
  });

  test('a server removed from .mcp.json while VS Code runs goes stale, with the file it left', async () => {
    const sentry = frame.locator(row('mcp__sentry__*'));
    await sentry.waitFor({ timeout: 15_000 });
    assert.equal(await sentry.getAttribute('data-status'), 'active');
    const mcpJson = path.join(project, '.mcp.json');
    const config = readJson(mcpJson) as { mcpServers: Record<string, unknown> };
    delete config.mcpServers.sentry;
    fs.writeFileSync(mcpJson, `${JSON.stringify(config, null, 2)}\n`);

    await waitFor('the removed server to go stale', async () =>
      (await sentry.getAttribute('data-status')) === 'stale' ? true : undefined,
    );
    assert.equal(await text(sentry.locator('[data-testid="badge-stale"]')), 'stale');
    assert.equal(await text(sentry.locator('[data-testid="tool-reason"]')), 'removed from .mcp.json');
    // Stale tools rank after every active one.
    const statuses = await frame
      .locator('[data-testid="tool-list"] > [data-testid="tool-row"]:not(.tool-child)')
      .evaluateAll((rows) => rows.map((element) => element.className.match(/status-(\w+)/)?.[1] ?? ''));
    const order = { active: 0, stale: 1, demoted: 2 } as Record<string, number>;
    assert.deepEqual(
      statuses,
      [...statuses].sort((a, b) => order[a] - order[b]),
      `listed active, stale, demoted: ${statuses.join(', ')}`,
    );
    await sentry.scrollIntoViewIfNeeded();
    await workbench.screenshot('02-stale');
  });

  test('disabling a server asks first, writes disabledMcpjsonServers, and re-enabling removes it', async () => {
    const settingsFile = path.join(project, '.claude', 'settings.local.json');
    const github = frame.locator(row('mcp__github__*'));
    const toggle = github.locator('[data-testid="tool-toggle-server"]');
    const dialog = workbench.page.locator('.monaco-dialog-box');
    const confirm = async (button: string, expected: RegExp, screenshot: string) => {
      await dialog.waitFor({ timeout: 15_000 });
      assert.match(await dialog.innerText(), expected);
      await workbench.screenshot(screenshot);
      await dialog
        .locator('a.monaco-button, button', { hasText: new RegExp(`^${button}$`) })
        .first()
        .click();
      await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    };

    await github.hover();
    assert.equal(await toggle.getAttribute('aria-label'), 'Disable the MCP server github for this project');
    await toggle.click();
    await confirm(
      'Disable',
      /Add "github" to disabledMcpjsonServers in \.claude\/settings\.local\.json/,
      '03-disable-confirm',
    );
    const disabled = await waitFor('the settings file to disable github', async () => {
      if (!fs.existsSync(settingsFile)) return undefined;
      const list = readJson(settingsFile).disabledMcpjsonServers;
      return Array.isArray(list) && list.includes('github') ? list : undefined;
    });
    assert.deepEqual(disabled, ['github']);
    await github.locator('[data-testid="badge-disabled"]').waitFor({ timeout: 15_000 });
    assert.equal(await toggle.getAttribute('data-action'), 'enable');
    await github.scrollIntoViewIfNeeded();
    await workbench.screenshot('04-disabled');

    await github.hover();
    await toggle.click();
    await confirm(
      'Enable',
      /Remove "github" from disabledMcpjsonServers in \.claude\/settings\.local\.json/,
      '05-enable-confirm',
    );
    await waitFor('the settings file to enable github again', async () =>
      'disabledMcpjsonServers' in readJson(settingsFile) ? undefined : true,
    );
    await waitFor('the disabled badge to go', async () =>
      (await github.locator('[data-testid="badge-disabled"]').count()) === 0 ? true : undefined,
    );
    assert.equal(await toggle.getAttribute('data-action'), 'disable');
  });

  test('a server of .vscode/mcp.json cannot be disabled per project, and the reason says what to do', async () => {
    const docs = frame.locator(row('mcp_docs_*'));
    await docs.hover();
    await docs.locator('[data-testid="tool-toggle-server"]').click();
    await workbench.waitForNotification(/VS Code has no per-project list of disabled servers/);
    assert.ok(!readJson(path.join(project, '.claude', 'settings.local.json')).disabledMcpjsonServers);
    await workbench.screenshot('06-unsupported');
  });

  test('the filter narrows the list, and a tool opens its declaring file at the entry', async () => {
    const filter = frame.locator('[data-testid="tools-filter"]');
    await filter.fill('navigate');
    await waitFor('the filter to apply', async () => {
      const names = await frame
        .locator('[data-testid="tool-row"]')
        .evaluateAll((rows) => rows.map((element) => element.getAttribute('data-name')));
      return names.join(',') === `mcp__playwright__*,${NAVIGATE}` ? names : undefined;
    });
    await workbench.screenshot('07-filtered');
    await filter.press('Escape');
    await frame.locator(row('mcp__github__*')).waitFor({ timeout: 5_000 });

    // The navigate tool was only seen in use: it opens its server's entry in .mcp.json.
    await filter.fill('navigate');
    const navigate = frame.locator(row(NAVIGATE));
    await navigate.hover();
    await navigate.locator('[data-testid="tool-open"]').click();
    const tab = workbench.page.locator('.tabs-container .tab.active');
    await waitFor('.mcp.json to open', async () =>
      (await text(tab)).includes('.mcp.json') ? true : undefined,
    );
    const expectedLine =
      fs
        .readFileSync(path.join(project, '.mcp.json'), 'utf8')
        .split('\n')
        .findIndex((line) => line.includes('"playwright"')) + 1;
    const position = workbench.page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ });
    await waitFor(`the cursor to be on line ${expectedLine}`, async () =>
      new RegExp(`Ln ${expectedLine},`).test(await text(position)) ? true : undefined,
    );
    await workbench.screenshot('08-opened-source');
    await filter.fill('');
  });
  test('2,000 tools stay smooth: 150 rows at once, the rest behind "show more" or the filter', async () => {
    const dir = path.join(project, '.claude', 'commands', 'bulk');
    fs.mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 2000; i++) {
      const name = `task-${String(i).padStart(4, '0')}`;
      fs.writeFileSync(path.join(dir, `${name}.md`), `---\ndescription: Bulk step ${i}\n---\nDo ${name}.\n`);
    }
    const rows = frame.locator('[data-testid="tool-row"]');
    const more = frame.locator('[data-testid="tools-more"]');
    await waitFor(
      'the 2,000 new commands to be listed',
      async () => (/^Showing 150 of 2,0\d\d\./.test(await text(more)) ? true : undefined),
      60_000,
    );
    assert.equal(await rows.count(), 150);
    await more.locator('button').click();
    await waitFor('150 more rows', async () => ((await rows.count()) === 300 ? true : undefined), 5_000);

    const filter = frame.locator('[data-testid="tools-filter"]');
    const started = Date.now();
    await filter.fill('task-1234');
    // In the page, polled every 20 ms: the time measured is the webview's, not this test's polling.
    await frame.waitForFunction(
      `(() => {
        const rows = document.querySelectorAll('[data-testid="tool-row"]');
        return rows.length === 1 && rows[0].getAttribute('data-name') === '/bulk:task-1234';
      })()`,
      undefined,
      { timeout: 5_000, polling: 20 },
    );
    const elapsed = Date.now() - started;
    console.log(`filtering 2,000+ tools rendered in ${elapsed} ms`);
    assert.ok(elapsed < 2_000, `filtering took ${elapsed} ms`);
    await workbench.screenshot('09-large-filtered');
    await filter.fill('');
    await more.scrollIntoViewIfNeeded();
    await workbench.screenshot('10-large');
  });
});
