/**
 * The compaction forecast in a real VS Code: the status bar's tooltip and the dashboard say when the live
 * session will compact; a transcript that grows past the warning threshold raises one notification, whose
 * "Compact now with focus" sends the focused /compact to the agent's terminal; a further step raises nothing.
 * The agent is a stand-in named `claude` that writes what it is sent to a file. Screenshots:
 * test-output/e2e/forecast/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeDemo } from '../support/demoWorkspace';
import { REPO_ROOT } from '../support/processes';
import { promptLine, toolTurnLines, transcriptPath, writeTranscript } from '../support/transcripts';
import { type Workbench, extensionOutput, launchWorkbench } from '../support/workbench';

const SCREENSHOTS = path.join(REPO_ROOT, 'test-output', 'e2e', 'forecast');
const VSIX = path.join(REPO_ROOT, 'dist', 'context-deck.vsix');
const MIN = 60_000;
const SESSION = 'forecast-session';
const WARNING = /^Context \d+% full: about \d+ steps \(\d+-\d+\), 2 prompts, \d+ min to auto-compact\./;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, for at most `ms`; what it returned last. */
async function until<T>(
  check: () => Promise<T | undefined> | T | undefined,
  ms: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`${what} within ${ms} ms`);
    await sleep(200);
  }
}

describe('the compaction forecast in a real VS Code', () => {
  let root: string;
  let workbench: Workbench;
  let transcript: string;
  let project: string;
  let sent: string;
  let agent: string;
  let size = 60_000;
  let step = 0;

  /** `count` steps of file reads, a minute apart up to `endAt`, growing the context by 4k and 2k in turn. */
  const steps = (count: number, endAt: number) =>
    toolTurnLines({
      sessionId: SESSION,
      cwd: project,
      turns: Array.from({ length: count }, (_, k) => {
        size += step++ % 2 ? 2_000 : 4_000;
        return {
          tool: 'Read',
          input: { file_path: path.join(project, `src/module${step}.ts`) },
          resultChars: 8_000,
          tokens: size,
          at: endAt - (count - 1 - k) * MIN,
        };
      }),
    });

  const compactWarnings = () => extensionOutput(workbench).match(/compact warning \(/g)?.length ?? 0;

  before(async () => {
    assert.ok(fs.existsSync(VSIX), `the packaged extension exists (${VSIX}); run npm run package`);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-forecast-'));
    const demo = writeDemo(root);
    project = demo.project;
    // The agent: a program named claude reading the lines typed into its terminal.
    sent = path.join(root, 'sent.txt');
    agent = path.join(root, 'agent', 'claude');
    fs.mkdirSync(path.dirname(agent));
    fs.writeFileSync(
      agent,
      `echo ready > '${sent}.ready'\nwhile IFS= read -r line; do printf '%s\\n' "$line" >> '${sent}'; done\n`,
    );
    // A newer session than the demo's, 60k to 120k over 20 steps for 3 prompts: about 2.4 prompts left.
    const now = Date.now();
    const base = { sessionId: SESSION, cwd: project };
    transcript = transcriptPath(demo.claudeDir, project, SESSION);
    writeTranscript(transcript, [
      promptLine({ ...base, text: 'Plan the retry logic', at: now - 40 * MIN }),
      promptLine({ ...base, text: 'Now the tests for it', at: now - 32 * MIN }),
      promptLine({ ...base, text: 'Refactor the exporter in src/export.ts', at: now - 25 * MIN }),
      ...steps(20, now - 5 * MIN),
    ]);
    fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
    workbench = await launchWorkbench({
      vsix: VSIX,
      workspace: project,
      env: { CONTEXT_DECK_HOME: demo.home, CLAUDE_CONFIG_DIR: demo.claudeDir },
      screenshotsDir: SCREENSHOTS,
    });
    await workbench.openContainer('Context Deck');
    await workbench.runCommand('Terminal: Create New Terminal');
    // Type only once the terminal is there and has the focus.
    const terminal = workbench.page.locator('.part.panel .xterm').first();
    await terminal.waitFor({ state: 'visible', timeout: 15_000 });
    await sleep(1000);
    await terminal.click();
    await workbench.page.keyboard.type(`sh '${agent}'`);
    await workbench.page.keyboard.press('Enter');
    await until(() => (fs.existsSync(`${sent}.ready`) ? true : undefined), 30_000, 'the agent started');
  });

  after(async () => {
    await workbench?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test('the status bar tooltip and the dashboard show the forecast; no warning above the threshold', async () => {
    const frame = await workbench.webviewFrame('[data-testid="gauge-forecast"]', 60_000);
    const line = await until(
      async () => {
        // The dashboard keeps hyphenated words whole with U+2011, the non-breaking hyphen.
        const shown = await frame.locator('[data-testid="gauge-forecast"]').innerText();
        const text = shown.replace(/\u2011/g, '-').trim();
        return /^About \d+ steps/.test(text) ? text : undefined;
      },
      15_000,
      'the forecast under the gauge',
    );
    assert.match(
      line,
      /^About \d+ steps \(\d+-\d+\), 2 prompts, \d+ min to auto-compact\. Growing it: file reads \+/,
    );
    assert.equal(await frame.locator('[data-testid="trend-projection"]').count(), 1);
    await frame.locator('[data-testid="gauge-forecast"]').scrollIntoViewIfNeeded();
    await workbench.screenshot('01-forecast');

    await workbench.page
      .locator('.statusbar-item', { hasText: /ctx \d+%/ })
      .first()
      .hover();
    const hover = workbench.page
      .locator('.monaco-hover, .workbench-hover')
      .filter({ hasText: /auto-compact/ });
    await hover.first().waitFor({ timeout: 15_000 });
    assert.match(
      (await hover.first().innerText()).replace(/\u00a0/g, ' '),
      /about \d+ steps \(\d+-\d+\), 2 prompts, \d+ min to auto-compact/,
    );
    await workbench.screenshot('02-tooltip');
    await workbench.page.mouse.move(600, 400);
    assert.equal(compactWarnings(), 0);
  });

  test('growing past the threshold raises one warning; Compact now sends the focused /compact', async () => {
    // 4 more steps: 132k, about 1.5 prompts left.
    writeTranscript(transcript, steps(4, Date.now()));
    await workbench.waitForNotification(WARNING, 30_000);
    await workbench.screenshot('03-warning');
    const toast = workbench.page.locator('.notification-toast-container', {
      hasText: /Context \d+% full: about/,
    });
    await toast.getByRole('button', { name: 'Compact now with focus' }).click();
    // The exact line is shown before anything is typed into the agent's terminal; Enter sends it.
    const box = workbench.page.locator('.quick-input-widget input').first();
    await box.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await box.inputValue(), /^\/compact Keep what matters for the current task: /);
    await workbench.page.keyboard.press('Enter');
    const command = await until(
      () => (fs.existsSync(sent) ? fs.readFileSync(sent, 'utf8').trim() || undefined : undefined),
      15_000,
      'the agent received the command',
    );
    assert.match(command, /^\/compact Keep what matters for the current task: /);
    await workbench.screenshot('04-compact-sent');
    assert.equal(compactWarnings(), 1);
  });

  test('a further growth step raises nothing more', async () => {
    writeTranscript(transcript, steps(1, Date.now()));
    // The status bar shows the new size once the change is read; the warning is decided on the same change.
    await until(
      async () => {
        const text = await workbench.page
          .locator('.statusbar-item', { hasText: /ctx \d+%/ })
          .first()
          .innerText();
        return text.includes('ctx 68%') ? true : undefined;
      },
      15_000,
      'the status bar shows 68%',
    );
    assert.equal(compactWarnings(), 1);
    assert.ok(!(await workbench.notifications()).some((text) => WARNING.test(text)));
    await workbench.screenshot('05-no-second-warning');
  });
});
