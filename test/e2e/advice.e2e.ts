/**
 * Pruning advice in a real VS Code: a session at 85% of its window shows what to drop; pinning an item
 * removes it from the advice; compacting shows the exact one-line command first, and with no agent terminal
 * open copies it with a notice; a recommendation is dismissed with the keyboard alone. File names chosen by a repository (line breaks, a bidi override) stay names.
 * Screenshots: test-output/e2e/advice/.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeDemo } from '../support/demoWorkspace';
import { REPO_ROOT } from '../support/processes';
import {
  expectedPercent,
  promptLine,
  toolTurnLines,
  transcriptPath,
  writeTranscript,
} from '../support/transcripts';
import { type Workbench, launchWorkbench } from '../support/workbench';

const SCREENSHOTS = path.join(REPO_ROOT, 'test-output', 'e2e', 'advice');
const VSIX = path.join(REPO_ROOT, 'dist', 'context-deck.vsix');
const MIN = 60_000;
/** An edited file whose name would type two more prompts into the agent's terminal. */
const EDITED = 'notes\ntouch PWNED\nx.md';
/** A file read long ago whose name a bidi override shows reversed (`invoicestr.exe`). */
const REVERSED = 'invoice\u202ets.exe';

describe('pruning advice in a real VS Code', () => {
  let root: string;
  let workbench: Workbench;
  let home: string;

  before(async () => {
    assert.ok(fs.existsSync(VSIX), `the packaged extension exists (${VSIX}); run npm run package`);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-advice-'));
    const demo = writeDemo(root);
    home = demo.home;
    // A newer session than the demo's: it becomes the active one, at 85% of a 200k window.
    const now = Date.now();
    const base = { sessionId: 'busy-session', cwd: demo.project };
    const read = (file: string, minutesAgo: number, chars: number, tokens: number) => ({
      tool: 'Read',
      input: { file_path: path.join(demo.project, file) },
      resultChars: chars,
      tokens,
      at: now - minutesAgo * MIN,
    });
    const transcript = transcriptPath(demo.claudeDir, demo.project, 'busy-session');
    writeTranscript(transcript, [
      promptLine({ ...base, text: 'Start with the reporting module', at: now - 240 * MIN }),
      promptLine({ ...base, text: 'Now fix the retry logic in src/api.ts', at: now - 20 * MIN }),
      ...toolTurnLines({
        ...base,
        turns: [
          read('src/legacyReport.ts', 230, 36_000, 60_000),
          read('src/legacyExport.ts', 200, 24_000, 90_000),
          {
            tool: 'Skill',
            input: { skill: 'pdf-forms' },
            resultChars: 2_800,
            tokens: 120_000,
            at: now - 190 * MIN,
          },
          read(REVERSED, 188, 4_000, 125_000),
          read('src/api.ts', 3, 8_000, 165_000),
          {
            tool: 'Edit',
            input: { file_path: path.join(demo.project, EDITED), old_string: 'a', new_string: 'b' },
            resultChars: 100,
            tokens: 170_000,
            at: now - 2 * MIN,
          },
        ],
      }),
    ]);
    assert.equal(expectedPercent(transcript), 85);
    fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
    workbench = await launchWorkbench({
      vsix: VSIX,
      workspace: demo.project,
      env: { CONTEXT_DECK_HOME: home, CLAUDE_CONFIG_DIR: demo.claudeDir },
      screenshotsDir: SCREENSHOTS,
    });
    await workbench.openContainer('Context Deck');
    await workbench.page.mouse.move(900, 500);
  });

  after(async () => {
    await workbench?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test('at 85% the dashboard advises what to drop, with savings and reasons', async () => {
    const frame = await workbench.webviewFrame('[data-testid="advice"]', 60_000);
    const legacy = frame.locator('[data-testid="advice-item"][data-item$="legacyReport.ts"]');
    await legacy.waitFor({ timeout: 15_000 });
    const text = await legacy.innerText();
    assert.match(text, /HIGH/);
    // Right under its name, why in plain words and what it saves. Measured (no ≈): the context grew from 60k to
    // 90k tokens between the call that read it and the next one.
    assert.match(
      text,
      /legacyReport\.ts\n+unused for 3 h after one use, unrelated to your latest prompt; saves 30k\n/,
    );
    // The scoring tiers and the saving's parts are one click away.
    assert.doesNotMatch(text, /Score \d+ of 30/);
    await legacy.locator('[data-testid="advice-score"] summary').click();
    const details = await legacy.locator('[data-testid="advice-score"]').innerText();
    assert.match(
      details,
      /Score \d+ of 30, prune now \(0-8\): recency \d+ .* \+ frequency \d+ .* \+ relevance \d+/,
    );
    assert.match(details, /Saves 30k tokens, measured: /);
    // Said once: the advice points to the forecast under the gauge instead of repeating it.
    assert.equal(await frame.locator('[data-testid="gauge-forecast"]').count(), 1);
    assert.doesNotMatch(await frame.locator('[data-testid="advice"]').innerText(), /steps? \(\d+-\d+\)/);
    assert.equal(
      await frame.locator('[data-testid="advice-item"][data-item$="src/api.ts"]').count(),
      0,
      'the file of the current task is not suggested',
    );
    await workbench.screenshot('01-advice');
  });

  test('pin removes an item from the advice, and undo brings it back', async () => {
    const frame = await workbench.webviewFrame('[data-testid="advice"]');
    const legacy = frame.locator('[data-testid="advice-item"][data-item$="legacyReport.ts"]');
    await legacy.locator('[data-testid="advice-pin"]').click();
    await legacy.waitFor({ state: 'detached', timeout: 15_000 });
    const projects = path.join(home, 'projects');
    const state = JSON.parse(
      fs.readFileSync(path.join(projects, fs.readdirSync(projects)[0], 'advice.json'), 'utf8'),
    );
    assert.ok(state.pinned.some((id: string) => id.endsWith('legacyReport.ts')));
    await workbench.screenshot('02-pinned');
    await frame.locator('[data-testid="advice-undo"]').click();
    await legacy.waitFor({ timeout: 15_000 });
  });

  test('a name with a bidi override is shown as it reads, not reversed', async () => {
    const frame = await workbench.webviewFrame('[data-testid="advice"]');
    const item = frame.locator('[data-testid="advice-item"][data-item$="ts.exe"]');
    await item.waitFor({ timeout: 15_000 });
    const text = await item.innerText();
    assert.match(text, /invoice ts\.exe/);
    assert.doesNotMatch(text, /\u202e/);
  });

  test('with the keyboard only, Tab reaches a recommendation, its focus shows, and Space dismisses it', async () => {
    const frame = await workbench.webviewFrame('[data-testid="advice"]');
    const item = frame.locator('[data-testid="advice-item"][data-item$="legacyExport.ts"]');
    const dismiss = item.locator('[data-testid="advice-dismiss"]');
    await dismiss.waitFor({ timeout: 15_000 });
    await workbench.runCommand('Context Deck: Focus on Dashboard View');
    // The key that moves the focus toward the button: the view gives back the focus where it last was, which may
    // be past it. Bounded by the number of things on the page that can take focus.
    const keyToward = () =>
      dismiss.evaluate((button) => {
        const active = button.ownerDocument.activeElement;
        if (active === button) return null;
        const PRECEDING = 2;
        const before =
          !active ||
          active === button.ownerDocument.body ||
          button.compareDocumentPosition(active) & PRECEDING;
        return before ? 'Tab' : 'Shift+Tab';
      });
    const stops = await frame.locator('button, a[href], summary, input, [tabindex="0"]').count();
    for (
      let presses = 0, key = await keyToward();
      key && presses <= stops;
      presses++, key = await keyToward()
    )
      await workbench.page.keyboard.press(key);
    const focused = () => dismiss.evaluate((button) => button === button.ownerDocument.activeElement);
    assert.ok(await focused(), 'Tab reaches the Dismiss button of the recommendation');
    assert.ok(await dismiss.evaluate((button) => button.matches(':focus-visible')), 'the focus is shown');
    await workbench.page.keyboard.press('Space');
    await item.waitFor({ state: 'detached', timeout: 15_000 });
    // The focus moves to Undo, not back to the top of the page.
    await frame.locator('[data-testid="advice-undo"]:focus').waitFor({ timeout: 15_000 });
    await workbench.screenshot('04-dismissed-by-keyboard');
  });

  test('compact shows the exact one-line command first; with no agent terminal open, Enter copies it', async () => {
    const frame = await workbench.webviewFrame('[data-testid="advice-compact"]');
    await frame.locator('[data-testid="advice-compact"]').click();
    const box = workbench.page.locator('.quick-input-widget input').first();
    await box.waitFor({ state: 'visible', timeout: 15_000 });
    const shown = await box.inputValue();
    assert.match(
      shown,
      /^\/compact Keep what matters for the current task: .*files being edited: "notes touch PWNED x\.md"/,
    );
    assert.doesNotMatch(shown, /[\n\r\u202e]/);
    await workbench.screenshot('03-compact-confirm');
    await workbench.page.keyboard.press('Enter');
    // The outcome first, then why.
    await workbench.waitForNotification(
      /^Copied \/compact to the clipboard: no terminal running Claude Code was found\./,
      15_000,
    );
    await workbench.screenshot('05-compact-copied');
  });
});
