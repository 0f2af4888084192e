/**
 * The dashboard with the user's own sizes, in a real VS Code: at 200% zoom the 300 px sidebar is 150 CSS px
 * wide and the dashboard reflows into it (WCAG 1.4.10: nothing scrolls sideways, nothing is cut off); it takes
 * the theme's font size and the editor's for code; and the control that has the focus keeps it while live
 * updates arrive. Dark and light themes. Screenshots: test-output/e2e/zoom-<theme>/.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { type DemoDashboard, openDemoDashboard } from '../support/demoDashboard';
import { DEMO_SESSION } from '../support/demoWorkspace';
import { appendEvents, sessionEvents } from '../support/events';
import { REPO_ROOT } from '../support/processes';
import { assistantTextLine, expectedPercent, transcriptPath, writeTranscript } from '../support/transcripts';
import type { Workbench } from '../support/workbench';

const THEMES = { dark: 'Default Dark Modern', light: 'Default Light Modern' } as const;
/** The user's editor font size, larger than the default 14 px. */
const EDITOR_FONT_SIZE = 20;

/**
 * What sticks out of the view or is cut: the page scrolling sideways, an element whose right edge is past the
 * view, a box whose content is wider than it (hidden or scrolled). In the view's own pixels, zoom included.
 */
async function sidewaysOverflow(frame: Frame): Promise<string[]> {
  // Runs in the webview; this project compiles without the DOM library, so the page is reached through the
  // element Playwright hands over.
  return frame.locator('body').evaluate((body) => {
    const document = body.ownerDocument;
    const view = document.defaultView!;
    const root = document.scrollingElement!;
    const found: string[] = [];
    if (root.scrollWidth > root.clientWidth)
      found.push(`the page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth} px`);
    for (const el of body.querySelectorAll('*')) {
      // Read by screen readers only: 1 px, clipped on purpose.
      if (el.closest('.visually-hidden')) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) continue;
      // Inline, not a helper: a named function would not survive being sent to the page.
      const name = `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}"> "${(el.textContent ?? '').slice(0, 40)}"`;
      if (rect.right > view.innerWidth + 0.5)
        found.push(`${name} ends at ${Math.round(rect.right)} of ${view.innerWidth} px`);
      const overflowX = view.getComputedStyle(el).overflowX;
      if (overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1)
        found.push(
          `${name} hides or scrolls ${el.scrollWidth - el.clientWidth} px (overflow-x ${overflowX})`,
        );
    }
    return found;
  });
}

/** Screenshots of the whole view, scrolled a screen at a time. */
async function screenshotView(workbench: Workbench, frame: Frame, dir: string, name: string): Promise<void> {
  const sidebar = workbench.page.locator('.part.sidebar');
  const html = frame.locator('html');
  const height = await html.evaluate((el) => el.ownerDocument.scrollingElement!.scrollHeight);
  for (let y = 0, i = 1; y < height; y += 700, i++) {
    await html.evaluate((el, top) => el.ownerDocument.defaultView!.scrollTo(0, top), y);
    await sidebar.screenshot({ path: path.join(dir, `${name}-${i}.png`) });
  }
  await html.evaluate((el) => el.ownerDocument.defaultView!.scrollTo(0, 0));
}

/** The computed font size, in px, of the first element matching `selector`. */
async function fontSize(frame: Frame, selector: string): Promise<number> {
  return frame
    .locator(selector)
    .first()
    .evaluate((el) => parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).fontSize));
}

for (const [theme, colorTheme] of Object.entries(THEMES)) {
  describe(`the dashboard at the user's zoom and font sizes, ${theme} theme`, () => {
    const screenshots = path.join(REPO_ROOT, 'test-output', 'e2e', `zoom-${theme}`);
    let dashboard: DemoDashboard;
    let frame: Frame;

    before(async () => {
      dashboard = await openDemoDashboard(colorTheme, screenshots, { 'editor.fontSize': EDITOR_FONT_SIZE });
      ({ frame } = dashboard);
    });

    after(() => dashboard?.close());

    test('at 200% zoom the 300 px sidebar is 150 CSS px: everything reflows, nothing scrolls sideways or is cut', async () => {
      const html = frame.locator('html');
      // As the browser's zoom does: twice the size, half the CSS pixels across.
      await html.evaluate((el) => el.style.setProperty('zoom', '2'));
      try {
        const cssWidth = await html.evaluate(
          (el) =>
            el.ownerDocument.defaultView!.innerWidth /
            Number(el.ownerDocument.defaultView!.getComputedStyle(el).zoom),
        );
        assert.ok(cssWidth <= 150, `the view is ${cssWidth} CSS px wide`);
        // Every section open, with its details, so all of it is checked.
        await frame.locator('details:not([open]) > summary').evaluateAll((summaries) => {
          for (const summary of summaries) summary.parentElement!.setAttribute('open', '');
        });
        await screenshotView(dashboard.workbench, frame, screenshots, 'zoom-200');
        assert.deepEqual(await sidewaysOverflow(frame), []);
      } finally {
        await html.evaluate((el) => el.style.removeProperty('zoom'));
      }
    });

    test('text follows the theme’s font size, and code the editor’s', async () => {
      const html = frame.locator('html');
      // Code is shown at the editor's font size, which the user set.
      assert.equal(await fontSize(frame, '[data-testid="advice-command"]'), EDITOR_FONT_SIZE);
      // Every text of the page grows with the font size the workbench gives it (nothing is fixed in px).
      const textSizes = () =>
        frame.locator('body *').evaluateAll((els) =>
          els
            .filter((el) =>
              [...el.childNodes].some((node) => node.nodeType === 3 && node.textContent!.trim()),
            )
            .filter((el) => !el.closest('code, pre'))
            .map((el) => parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).fontSize)),
        );
      const base = await textSizes();
      const size = await html.evaluate((el) =>
        parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).getPropertyValue('--vscode-font-size')),
      );
      await html.evaluate((el, px) => el.style.setProperty('--vscode-font-size', `${px}px`), size * 1.5);
      try {
        const grown = await textSizes();
        assert.equal(grown.length, base.length);
        const fixed = grown.filter((px, i) => Math.abs(px - base[i] * 1.5) > 0.5);
        assert.deepEqual(fixed, [], 'every text is 1.5 times larger');
        await screenshotView(dashboard.workbench, frame, screenshots, 'font-150');
        assert.deepEqual(await sidewaysOverflow(frame), []);
      } finally {
        await html.evaluate((el, px) => el.style.setProperty('--vscode-font-size', `${px}px`), size);
      }
    });

    if (theme === 'dark') {
      test('the focused control keeps the focus while live updates arrive', async () => {
        const { demo } = dashboard;
        // The focus on a tool's button; new activity arrives from the hooks: the counts and the ranking change.
        await frame.locator('[data-testid="tool-row"] button.tool-name').nth(1).focus();
        const keep = () =>
          frame.locator('body').evaluate((body) => {
            const view = body.ownerDocument.defaultView as unknown as { kept: unknown };
            view.kept = body.ownerDocument.activeElement;
          });
        const stillFocused = () =>
          frame.locator('body').evaluate((body) => {
            const view = body.ownerDocument.defaultView as unknown as { kept: { isConnected: boolean } };
            return view.kept.isConnected && body.ownerDocument.activeElement === view.kept;
          });
        await keep();
        const sessions = Number(await frame.locator('[data-testid="count-sessions"]').innerText());
        appendEvents(
          demo.home,
          sessionEvents({
            sessionId: 'focus-live',
            cwd: demo.project,
            startAt: Date.now(),
            prompts: ['Search the issues again'],
            tools: Array.from({ length: 12 }, () => ({ tool: 'mcp__github__search_issues' })),
          }),
          'focus-live.jsonl',
        );
        await frame
          .locator('[data-testid="count-sessions"]', { hasText: String(sessions + 1) })
          .waitFor({ timeout: 30_000 });
        assert.equal(await stillFocused(), true, 'the tool button kept the focus');

        // The focus on a recommendation's Pin; the live session's next response moves the gauge and the advice.
        const item = frame.locator('[data-testid="advice-item"]').first();
        const itemId = await item.getAttribute('data-item');
        await item.locator('[data-testid="advice-pin"]').focus();
        await keep();
        const transcript = transcriptPath(demo.claudeDir, demo.project, DEMO_SESSION);
        writeTranscript(transcript, [
          assistantTextLine({
            sessionId: DEMO_SESSION,
            cwd: demo.project,
            text: 'Now the refresh keeps the cookie too.',
            tokens: 160_000,
            at: Date.now(),
          }),
        ]);
        await frame
          .locator('[data-testid="gauge-percent"]', { hasText: `${expectedPercent(transcript)}%` })
          .waitFor({ timeout: 30_000 });
        assert.equal(
          await frame.locator(`[data-testid="advice-item"][data-item="${itemId}"]`).count(),
          1,
          'the item is still advised',
        );
        assert.equal(await stillFocused(), true, "the recommendation's Pin kept the focus");
      });
    }
  });
}
