/**
 * axe-core in the real workbench: the demo's dashboard at 300 px in Dark Modern, Light Modern and both
 * high-contrast themes has no serious or critical violation, nor has a long imported history (many sessions
 * and tools, long names, failures) in Dark Modern and Light Modern. Contrast is computed from each theme's own
 * colours, so every theme is a separate run. Screenshots and the full axe report:
 * test-output/e2e/a11y-<theme>/ and a11y-long-<theme>/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { axeViolations, describeViolations } from '../support/axe';
import {
  type DemoDashboard,
  importHistoryFromDashboard,
  launchWithHistory,
  openDemoDashboard,
} from '../support/demoDashboard';
import { writeLongHistory } from '../support/longHistory';
import { REPO_ROOT } from '../support/processes';
import type { Workbench } from '../support/workbench';

const THEMES = {
  dark: 'Default Dark Modern',
  light: 'Default Light Modern',
  'hc-dark': 'Default High Contrast',
  'hc-light': 'Default High Contrast Light',
} as const;

for (const [theme, colorTheme] of Object.entries(THEMES)) {
  describe(`accessibility of the dashboard, ${theme} theme`, () => {
    const screenshots = path.join(REPO_ROOT, 'test-output', 'e2e', `a11y-${theme}`);
    let dashboard: DemoDashboard;

    before(async () => {
      dashboard = await openDemoDashboard(colorTheme, screenshots);
    });

    after(() => dashboard?.close());

    test('axe-core finds no serious or critical violation', () =>
      assertNoGraveViolation(dashboard.workbench, dashboard.frame, screenshots));
  });
}

/** Screenshot of the sidebar and axe's report beside it; fails on any serious or critical violation. */
async function assertNoGraveViolation(
  workbench: Workbench,
  frame: Frame,
  screenshots: string,
): Promise<void> {
  await workbench.page.locator('.part.sidebar').screenshot({ path: path.join(screenshots, 'dashboard.png') });
  const violations = await axeViolations(frame);
  fs.writeFileSync(path.join(screenshots, 'axe.json'), JSON.stringify(violations, null, 2));
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.equal(grave.length, 0, describeViolations(grave));
}

for (const theme of ['dark', 'light'] as const) {
  describe(`accessibility of a long imported history, ${theme} theme`, () => {
    const screenshots = path.join(REPO_ROOT, 'test-output', 'e2e', `a11y-long-${theme}`);
    let root: string;
    let workbench: Workbench;

    before(async () => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-a11y-long-'));
      // A project named as long as real ones are.
      const project = path.join(root, 'customer-billing-platform-services-monorepo');
      fs.mkdirSync(project);
      const claudeDir = path.join(root, 'claude');
      writeLongHistory(claudeDir, fs.realpathSync(project));
      fs.rmSync(screenshots, { recursive: true, force: true });
      workbench = await launchWithHistory({
        root,
        project,
        claudeDir,
        screenshotsDir: screenshots,
        userSettings: { 'workbench.colorTheme': THEMES[theme] },
      });
    });

    after(async () => {
      await workbench?.stop();
      if (root) fs.rmSync(root, { recursive: true, force: true });
    });

    test('axe-core finds no serious or critical violation once the history is imported', async () => {
      const frame = await importHistoryFromDashboard(workbench, 120_000);
      // Everything the history fills: its tools with their failures, its memory, the advice on the live session.
      await frame.waitForSelector('[data-testid="tool-row"]', { timeout: 30_000 });
      await frame.waitForSelector('.memory-text', { timeout: 30_000 });
      await frame.waitForSelector('[data-testid="advice-item"]', { timeout: 30_000 });
      assert.ok(Number(await frame.locator('[data-testid="count-sessions"]').innerText()) >= 40);
      await assertNoGraveViolation(workbench, frame, screenshots);
    });
  });
}
