/**
 * The dashboard as a user meets it at the default sidebar width (300 px), in a dark and a light theme: no word
 * is broken mid-word, nothing important is cut, the counts match what is listed, sections fold and remember
 * it across a reload. Then a project whose only history is imported from Claude Code's transcripts.
 * Screenshots: test-output/e2e/layout-dark/, layout-light/, imported/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import {
  type DemoDashboard,
  importHistoryFromDashboard,
  launchWithHistory,
  openDemoDashboard,
} from '../support/demoDashboard';
import { REPO_ROOT } from '../support/processes';
import {
  placeFixtureTranscripts,
  transcriptLines,
  transcriptPath,
  writeTranscript,
} from '../support/transcripts';
import type { Workbench } from '../support/workbench';

const THEMES = { dark: 'Default Dark Modern', light: 'Default Light Modern' } as const;

/** Words (runs without spaces) of the dashboard's text that the browser broke across two lines. */
async function wordsBrokenAcrossLines(frame: Frame): Promise<string[]> {
  // Runs in the webview. This project compiles without the DOM library, so the page is reached through the
  // element Playwright hands over.
  return frame.locator('body').evaluate((body) => {
    const document = body.ownerDocument;
    const SHOW_TEXT = 4;
    const broken: string[] = [];
    const walker = document.createTreeWalker(body, SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set(
          [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)),
        );
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

/** Screenshots of the whole view, scrolled a screen at a time. */
async function screenshotView(workbench: Workbench, frame: Frame, dir: string, name: string): Promise<void> {
  const sidebar = workbench.page.locator('.part.sidebar');
  const page = frame.locator('html');
  const height = await page.evaluate((html) => html.scrollHeight);
  for (let y = 0, i = 1; y < height; y += 700, i++) {
    await page.evaluate((html, top) => html.ownerDocument.defaultView!.scrollTo(0, top), y);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await sidebar.screenshot({ path: path.join(dir, `${name}-${i}.png`) });
  }
  await page.evaluate((html) => html.ownerDocument.defaultView!.scrollTo(0, 0));
}

for (const [theme, colorTheme] of Object.entries(THEMES)) {
  describe(`the dashboard at 300 px, ${theme} theme`, () => {
    const screenshots = path.join(REPO_ROOT, 'test-output', 'e2e', `layout-${theme}`);
    let dashboard: DemoDashboard;
    let workbench: Workbench;
    let frame: Frame;

    before(async () => {
      dashboard = await openDemoDashboard(colorTheme, screenshots);
      ({ workbench, frame } = dashboard);
    });

    after(() => dashboard?.close());

    test('the sidebar is 300 px wide, nothing scrolls sideways and no word is broken mid-word', async () => {
      const width = (await workbench.page.locator('.part.sidebar').boundingBox())?.width;
      assert.equal(width, 300);
      const overflow = await frame.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
      assert.equal(overflow, 0, 'no horizontal scrolling');
      assert.deepEqual(await wordsBrokenAcrossLines(frame), []);
      await screenshotView(workbench, frame, screenshots, 'dashboard');
    });

    test('the compact command is shown whole, and the trend labels its threshold', async () => {
      const command = frame.locator('[data-testid="advice-command"]');
      const clipped = await command.evaluate(
        (el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
      );
      assert.equal(clipped, false);
      assert.match((await command.innerText()).replace(/\s+/g, ' '), /^\/compact Keep .+\.$/);
      assert.equal((await frame.locator('.trend-limit-label').innerText()).trim(), '70%');
    });

    test('the Tools heading counts the rows it lists, and numbers carry their units', async () => {
      const heading = await frame.locator('.tools-header .section-count').innerText();
      const rows = await frame.locator('[data-testid="tool-row"]:not(.tool-child)').count();
      assert.equal(Number(heading), rows);
      for (const uses of await frame.locator('[data-testid="tool-uses7d"]').allInnerTexts())
        assert.match(uses, /^\d+ calls? in 7 days$/);
    });

    test('a model nothing lists: the gauge says its window is a guess, and forecasts nothing', async () => {
      // A newer session than the demo's, on a model Claude Code's catalogue does not name.
      const { claudeDir, project } = dashboard.demo;
      const sessionId = `unknown-model-${theme}`;
      writeTranscript(
        transcriptPath(claudeDir, project, sessionId),
        transcriptLines({
          sessionId,
          cwd: project,
          startAt: Date.now() - 60_000,
          model: 'claude-next-9',
          turns: [{ input: 30_000 }, { input: 42_000 }],
        }),
      );
      const guessed = frame.locator('[data-testid="gauge-window-guessed"]');
      await guessed.waitFor({ timeout: 30_000 });
      assert.match(await frame.locator('[data-testid="gauge-tokens"]').innerText(), /\/ ~200,000 tokens/);
      assert.match((await guessed.getAttribute('title')) ?? '', /contextDeck\.contextWindow/);
      assert.deepEqual(await wordsBrokenAcrossLines(frame), []);
      await frame
        .locator('[data-testid="gauge"]')
        .screenshot({ path: path.join(screenshots, 'gauge-window-guessed.png') });
    });

    test('a folded section stays folded after the window reloads', async () => {
      const toggle = frame.locator('.activity .section-toggle');
      await toggle.click();
      assert.equal(await frame.locator('[data-testid="count-sessions"]').count(), 0);
      // As a user would: the command that reloads the window (it closes the workbench properly first).
      await workbench.runCommand('Developer: Reload Window');
      await workbench.page.waitForSelector('.part.activitybar .action-item', { timeout: 60_000 });
      // The reloaded workbench restores the open view; open it only where it did not (a click on an already
      // opening container would close it again).
      frame = await workbench.webviewFrame('.activity .section-toggle', 30_000).catch(async () => {
        await workbench.openContainer('Context Deck');
        return workbench.webviewFrame('.activity .section-toggle', 60_000);
      });
      await frame.waitForSelector('[data-testid="tool-row"]', { timeout: 30_000 });
      assert.equal(await frame.locator('.activity .section-toggle').getAttribute('aria-expanded'), 'false');
      assert.equal(await frame.locator('[data-testid="count-sessions"]').count(), 0);
      await frame.locator('.activity .section-toggle').click();
      await frame.waitForSelector('[data-testid="count-sessions"]');
    });
  });
}

describe('a project whose history is imported from Claude Code, not yet connected', () => {
  const screenshots = path.join(REPO_ROOT, 'test-output', 'e2e', 'imported');
  let root: string;
  let workbench: Workbench;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-imported-'));
    const project = path.join(root, 'project');
    fs.mkdirSync(project);
    const claudeDir = path.join(root, 'claude');
    placeFixtureTranscripts(claudeDir, fs.realpathSync(project));
    fs.rmSync(screenshots, { recursive: true, force: true });
    workbench = await launchWithHistory({ root, project, claudeDir, screenshotsDir: screenshots });
  });

  after(async () => {
    await workbench?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test('imported sessions count everywhere: the empty state speaks of connecting, memory has them', async () => {
    const frame = await importHistoryFromDashboard(workbench, 60_000);
    const empty = frame.locator('[data-testid="empty-state"]');
    await empty
      .locator('h3', { hasText: 'History imported, not recording yet' })
      .waitFor({ timeout: 15_000 });
    assert.match(await empty.innerText(), /\d+ sessions read from your agents' session files are below/);
    assert.ok(Number(await frame.locator('[data-testid="count-sessions"]').innerText()) > 0);
    const memory = frame.locator('[data-testid="memory-section"] .section-count');
    await memory.waitFor({ timeout: 15_000 });
    assert.ok(Number(await memory.innerText()) > 0, 'imported activity became memory');
    await workbench.screenshot('01-imported');
  });

  test('the gauge of a session long over says when it was last active, and gives no advice or warning', async () => {
    const frame = await workbench.webviewFrame('[data-testid="gauge"]');
    const inactive = (await frame.locator('[data-testid="gauge-inactive"]').innerText()).trim();
    assert.match(inactive, /^Last session, last active (\d+ (days|weeks) ago|yesterday)\./);
    assert.equal(await frame.locator('.gauge-note').count(), 0, 'no call to act on an old session');
    assert.equal(await frame.locator('[data-testid="advice-command"]').count(), 0);
    await workbench.page
      .locator('.statusbar-item', { hasText: 'ctx idle' })
      .first()
      .waitFor({ timeout: 15_000 });
    await workbench.screenshot('02-old-session-gauge');
  });
});
