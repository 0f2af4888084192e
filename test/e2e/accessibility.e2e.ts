/**
 * axe-core in the real workbench: the demo's dashboard at 300 px in Dark Modern, Light Modern and both
 * high-contrast themes has no serious or critical violation. Contrast is computed from each theme's own
 * colours, so every theme is a separate run. Screenshots and the full axe report: test-output/e2e/a11y-<theme>/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axeViolations, describeViolations } from '../support/axe';
import { type DemoDashboard, openDemoDashboard } from '../support/demoDashboard';
import { REPO_ROOT } from '../support/processes';

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

    test('axe-core finds no serious or critical violation', async () => {
      const { workbench, frame } = dashboard;
      await workbench.page
        .locator('.part.sidebar')
        .screenshot({ path: path.join(screenshots, 'dashboard.png') });
      const violations = await axeViolations(frame);
      fs.writeFileSync(path.join(screenshots, 'axe.json'), JSON.stringify(violations, null, 2));
      const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.equal(grave.length, 0, describeViolations(grave));
    });
  });
}
