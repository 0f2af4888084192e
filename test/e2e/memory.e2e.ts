/**
 * The project memory in a real VS Code (code-server): the demo's events and a saved decision become
 * observations; the dashboard's Memory section lists them, and its search box and type chips filter them;
 * "Context Deck: Search Memory" from the palette finds one as you type and opens it read-only; Forget hides
 * it with Undo in the notification; Show Timeline opens around it. Screenshots: test-output/e2e/memory/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Frame, Locator } from 'playwright-core';
import { saveToMemory, shortId } from '../../src/engine/memory';
import { writeDemo } from '../support/demoWorkspace';
import { appendEvents, sessionEvents } from '../support/events';
import { REPO_ROOT } from '../support/processes';
import { type Workbench, launchWorkbench } from '../support/workbench';

const SCREENSHOTS = path.join(REPO_ROOT, 'test-output', 'e2e', 'memory');
const VSIX = path.join(REPO_ROOT, 'dist', 'context-deck.vsix');
const DECISION =
  'Chose a token bucket for the API rate limiter: the gateway allows bursts of 20 requests, then 5 per second.';

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

/** An editor's visible text as plain words: Monaco renders spaces as no-break spaces and wraps long lines. */
async function editorText(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/[\s\u00a0]+/g, ' ');
}

async function texts(locator: Locator): Promise<string[]> {
  return locator.evaluateAll((elements) => elements.map((element) => (element.textContent ?? '').trim()));
}

describe('project memory in a real VS Code', () => {
  let root: string;
  let workbench: Workbench;
  let home: string;
  let project: string;
  let savedId: string;
  let frame: Frame;

  before(async () => {
    assert.ok(fs.existsSync(VSIX), `the packaged extension exists (${VSIX}); run npm run package`);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-memory-'));
    const demo = writeDemo(root);
    home = demo.home;
    project = demo.project;
    // A session that works on the rate limiter: edits, a new file and a passing test run become observations.
    const now = Date.now();
    appendEvents(
      home,
      sessionEvents({
        sessionId: 'memory-rate-limit',
        cwd: project,
        startAt: now - 50 * 60_000,
        stepMs: 60_000,
        prompts: ['Add a rate limiter to the API client'],
        tools: [
          {
            tool: 'Write',
            input: {
              file_path: path.join(project, 'src', 'rateLimiter.ts'),
              content: 'export class RateLimiter {\n  constructor(readonly perSecond: number) {}\n}\n',
            },
          },
          {
            tool: 'Edit',
            input: {
              file_path: path.join(project, 'src', 'api.ts'),
              old_string: 'export const retries = 3;',
              new_string: 'export const retries = 5;',
            },
          },
          {
            tool: 'Bash',
            input: { command: 'npm test -- rateLimiter', description: 'Run the limiter tests' },
          },
        ],
      }),
      'memory.jsonl',
    );
    savedId = saveToMemory(
      { home, root: project },
      { text: DECISION, type: 'decision', origin: 'cli' },
      new Date(now - 10 * 60_000),
    ).id;
    fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
    workbench = await launchWorkbench({
      vsix: VSIX,
      workspace: project,
      env: { CONTEXT_DECK_HOME: home, CLAUDE_CONFIG_DIR: demo.claudeDir },
      screenshotsDir: SCREENSHOTS,
    });
    await workbench.openContainer('Context Deck');
    await workbench.page.mouse.move(900, 500);
    frame = await workbench.webviewFrame('[data-testid="memory-section"]', 60_000);
  });

  after(async () => {
    await workbench?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test('the dashboard lists the latest observations, newest first, with counts by type', async () => {
    const rows = frame.locator('[data-testid="memory-row"]');
    // The saved decision and the rate limiter session sit in two log files, which may be read in turn.
    const listed = await waitFor('the saved decision and the new file to be listed', async () => {
      const all = await texts(rows);
      return all.some((text) => text.includes('token bucket')) &&
        all.some((text) => /rateLimiter\.ts/.test(text))
        ? all
        : undefined;
    });
    assert.equal(listed.length, 10, 'ten latest observations');
    assert.match(listed[0], /token bucket/, 'the newest (the saved decision) comes first');
    const decision = frame.locator('[data-testid="memory-type"][data-type="decision"]');
    assert.match(await decision.innerText(), /decision\s*1/);
    await frame.locator('[data-testid="memory-section"]').scrollIntoViewIfNeeded();
    await workbench.screenshot('01-dashboard-memory');
  });

  test('the search box and the type chips filter the list', async () => {
    const rows = frame.locator('[data-testid="memory-row"]');
    const search = frame.locator('[data-testid="memory-search"]');
    await search.fill('rateLimiter');
    const found = await waitFor('the search to narrow the list', async () => {
      const all = await texts(rows);
      return all.length > 0 && all.every((text) => /rate ?limiter/i.test(text)) ? all : undefined;
    });
    assert.ok(found.length < 10, `only matching observations (${found.length})`);
    await workbench.screenshot('02-dashboard-search');

    await search.fill('');
    const decision = frame.locator('[data-testid="memory-type"][data-type="decision"]');
    await decision.click();
    assert.equal(await decision.getAttribute('aria-pressed'), 'true');
    await waitFor('only decisions to be listed', async () => {
      const types = await rows.evaluateAll((elements) => elements.map((e) => e.getAttribute('data-type')));
      return types.length === 1 && types[0] === 'decision' ? true : undefined;
    });
    assert.match((await texts(rows))[0], /token bucket/);
    await workbench.screenshot('03-dashboard-type-filter');
    await decision.click();
    assert.equal(await decision.getAttribute('aria-pressed'), 'false');
  });

  test('Search Memory from the palette finds as you type and opens the observation read-only', async () => {
    const page = workbench.page;
    await workbench.runCommand('Context Deck: Search Memory');
    const widget = page.locator('.quick-input-widget');
    await widget.waitFor({ state: 'visible', timeout: 10_000 });
    await waitFor('the Search Memory picker', async () =>
      /Search Memory/.test((await widget.locator('.quick-input-title').textContent()) ?? '')
        ? true
        : undefined,
    );
    // Empty query: the latest observations.
    const rows = widget.locator('.quick-input-list .monaco-list-row');
    await waitFor('the latest observations', async () => ((await rows.count()) > 3 ? true : undefined));
    await widget.locator('input').first().pressSequentially('token buck', { delay: 40 });
    let seen: string[] = [];
    const match = await waitFor('the decision to be the only match', async () => {
      seen = await rows.evaluateAll((elements) => elements.map((e) => e.getAttribute('aria-label') ?? ''));
      return seen.length === 1 && seen[0].includes('token bucket') ? seen[0] : undefined;
    }).catch(async (error: unknown) => {
      await workbench.screenshot('failed-search');
      throw new Error(`${String(error)}; rows: ${JSON.stringify(seen)}`);
    });
    assert.match(match, new RegExp(shortId(savedId)), 'the short id is shown');
    assert.match(match, /decision/);
    assert.match(
      (await widget.locator('.quick-input-title').textContent()) ?? '',
      /1 matching of \d+/,
      'the title says how many match',
    );
    await workbench.screenshot('04-search-memory-quickpick');

    await page.keyboard.press('Enter');
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });
    const tab = page.locator('.tabs-container .tab.active');
    await waitFor('the observation to open', async () =>
      ((await tab.textContent()) ?? '').includes(`decision-${shortId(savedId)}`) ? true : undefined,
    );
    const editor = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    let shown = '';
    const content = await waitFor('its full text', async () => {
      shown = await editorText(editor);
      return shown.includes('then 5 per second.') ? shown : undefined;
    }).catch(async (error: unknown) => {
      await workbench.screenshot('failed-open');
      throw new Error(`${String(error)}; editor: ${JSON.stringify(shown)}`);
    });
    assert.match(content, /Type: decision/);
    assert.match(content, /Source: saved/);
    // Read-only: typing changes nothing.
    await editor.click();
    await page.keyboard.type('xyz');
    assert.ok(!(await editorText(editor)).includes('xyz'), 'the observation cannot be edited');
    await workbench.screenshot('05-observation-opened');
  });

  test('Forget hides the observation, and Undo in the notification brings it back', async () => {
    const page = workbench.page;
    await workbench.runCommand('Context Deck: Forget Observation');
    await workbench.waitForNotification(/Forgot .*token bucket/, 15_000);
    const rows = frame.locator('[data-testid="memory-row"]');
    await waitFor('the dashboard to drop it', async () =>
      (await texts(rows)).some((text) => text.includes('token bucket')) ? undefined : true,
    );
    const editor = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    await waitFor('the document to say it is forgotten', async () =>
      (await editorText(editor)).includes('is not in memory') ? true : undefined,
    );
    await workbench.screenshot('06-forgotten');
    await page
      .locator('.notifications-toasts .notification-toast-container')
      .filter({ hasText: 'Forgot' })
      .locator('a.monaco-button, .monaco-button', { hasText: 'Undo' })
      .first()
      .click();
    await waitFor('the dashboard to list it again', async () =>
      (await texts(rows)).some((text) => text.includes('token bucket')) ? true : undefined,
    );
    await waitFor('the document to show it again', async () =>
      (await editorText(editor)).includes('then 5 per second.') ? true : undefined,
    );
  });

  test('Show Timeline opens around the observation, with earlier entries one step away', async () => {
    const page = workbench.page;
    await workbench.runCommand('Context Deck: Show Timeline');
    const widget = page.locator('.quick-input-widget');
    const title = await waitFor('the timeline', async () => {
      const shown = (await widget.locator('.quick-input-title').textContent()) ?? '';
      return /Timeline: .* around /.test(shown) ? shown : undefined;
    });
    assert.match(title, new RegExp(`around ${shortId(savedId)}`));
    const rows = widget.locator('.quick-input-list .monaco-list-row');
    const labels = await waitFor('timeline entries', async () => {
      const all = await rows.evaluateAll((elements) =>
        elements.map((e) => e.getAttribute('aria-label') ?? ''),
      );
      return all.length > 3 ? all : undefined;
    });
    assert.match(labels[0], /Earlier/, 'earlier observations are one step away');
    assert.ok(labels.some((label) => label.includes('token bucket')));
    await workbench.screenshot('07-timeline');
    await page.keyboard.press('Escape');
  });

  test('Add Memory Server to an Agent (Claude Code) writes .mcp.json after consent, and the entry really serves', async () => {
    const page = workbench.page;
    const file = path.join(project, '.mcp.json');
    const before = fs.readFileSync(file, 'utf8');
    await workbench.runCommand('Context Deck: Add Memory Server to an Agent…');
    const agents = page.locator('.quick-input-widget .monaco-list-row');
    await agents.first().waitFor({ timeout: 15_000 });
    // Each row is the agent's name, then the file the server is added to.
    const rows = await agents.allInnerTexts();
    assert.deepEqual(
      rows.map((text) => ['Claude Code', 'Codex CLI', 'opencode'].find((name) => text.startsWith(name))),
      ['Claude Code', 'Codex CLI', 'opencode'],
      `VS Code's agent has the server from the extension itself: ${rows.join(' | ')}`,
    );
    await agents.filter({ hasText: 'Claude Code' }).click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    const detail = await dialog.innerText();
    assert.match(detail, /add the MCP server "context-deck"/);
    assert.match(detail, /mcp\.js --project/);
    await workbench.screenshot('08-add-server-consent');
    await dialog.locator('.monaco-button', { hasText: 'Add Server' }).click();
    const config = await waitFor('.mcp.json to hold the server', async () => {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
      };
      return parsed.mcpServers['context-deck'] ? parsed : undefined;
    });
    assert.ok(config.mcpServers.github && config.mcpServers.playwright, 'the other servers are kept');
    const entry = config.mcpServers['context-deck'];
    assert.deepEqual(entry.args, [path.join(home, 'bin', 'mcp.js'), '--project', project, '--home', home]);
    assert.ok(fs.existsSync(path.join(home, 'bin', 'sql-wasm.wasm')), 'the wasm sits beside the server');
    assert.ok(
      fs.readdirSync(path.join(home, 'backups')).some((name) => name.endsWith('-.mcp.json')),
      "a backup was written first, under Context Deck's home",
    );

    // Start the server exactly as Claude Code would, and search through it.
    const client = new Client({ name: 'memory-e2e', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: entry.command,
        args: entry.args,
        env: { ...(process.env as Record<string, string>), ...entry.env },
        cwd: project,
      }),
    );
    try {
      const result = (await client.callTool({
        name: 'search',
        arguments: { query: 'token bucket' },
      })) as CallToolResult;
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      assert.match(text, /token bucket/);
    } finally {
      await client.close();
    }

    // Only Claude Code has it now: no agent to choose.
    await workbench.runCommand('Context Deck: Remove Memory Server from an Agent…');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    await dialog.locator('.monaco-button', { hasText: 'Remove Server' }).click();
    // Removing is the exact inverse of adding: the file is as it was, byte for byte.
    await waitFor('the entry to be removed', async () =>
      fs.readFileSync(file, 'utf8') === before ? true : undefined,
    );
  });
});
