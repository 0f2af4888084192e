/** axe-core run inside a webview frame of the real workbench, for the accessibility e2e tests. */
import * as fs from 'node:fs';
import type { Frame } from 'playwright-core';

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Every axe violation in the frame's document. Evaluated as a script, so the webview's CSP does not apply. */
export async function axeViolations(frame: Frame): Promise<AxeViolation[]> {
  if (!(await frame.evaluate('typeof axe !== "undefined"'))) await frame.evaluate(`${AXE_SOURCE};0`);
  return frame.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
       id: v.id, impact: v.impact, help: v.help,
       nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
     })))`,
  ) as Promise<AxeViolation[]>;
}

/** One line per violation, for an assertion's message: rule, impact, node count and the first nodes. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}, ${v.nodes.length}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join('; ')}`,
    )
    .join('\n');
}
