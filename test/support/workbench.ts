/**
 * Harness that runs the extension in a real VS Code workbench: code-server 4.139.1 (VS Code OSS) installed
 * by scripts/setup-code-server.mjs, driven by headless Chromium through playwright-core.
 *
 * - startCodeServer(): server only (used by `npm start`), returns { url, port, stop }.
 * - launchWorkbench(): server + browser page on the workbench, with helpers for the e2e tests.
 *
 * Every launch gets a fresh temporary user-data-dir and extensions-dir. code-server runs in its own process
 * group; stop() kills the whole group (and does so on failure paths and at process exit too).
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  type WriteStream,
} from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

export const CODE_SERVER_VERSION = '4.139.1';

export interface CodeServerPaths {
  /** Node 24 binary used to run code-server (the project itself runs on Node 20). */
  node24: string;
  /** code-server's out/node/entry.js. */
  entry: string;
  /** Chromium executable (Debian package). */
  chromium: string;
}

export interface CodeServerOptions {
  /** VSIX file(s) to install into the fresh extensions-dir before starting. */
  vsix?: string | string[];
  /** Folder opened in the workbench. */
  workspace: string;
  /** Extra environment for code-server and therefore its extension host (merged over process.env). */
  env?: Record<string, string>;
  /** Written to <user-data-dir>/User/settings.json (merged over the harness defaults). */
  userSettings?: Record<string, unknown>;
  /** Where code-server's stdout/stderr go; default: a file in the temp user-data-dir. */
  logFile?: string;
  /** Fixed port; default: a free loopback port. */
  port?: number;
  /** Keep the temp user-data-dir/extensions-dir after stop() (for debugging). Default false. */
  keepTempDirs?: boolean;
  /** How long to wait for the HTTP server. Default 60 s. */
  startTimeoutMs?: number;
}

export interface CodeServer {
  url: string;
  port: number;
  pid: number;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  stop(): Promise<void>;
}

export interface WorkbenchOptions {
  vsix: string;
  workspace: string;
  env?: Record<string, string>;
  userSettings?: Record<string, unknown>;
  screenshotsDir: string;
  /** Keep the temp user-data-dir (it holds VS Code's logs, including the extension host's). */
  keepTempDirs?: boolean;
  /** How long to wait for `.monaco-workbench`. Default 60 s. */
  workbenchTimeoutMs?: number;
}

export interface Workbench {
  page: Page;
  browser: Browser;
  url: string;
  port: number;
  userDataDir: string;
  /** Where the VSIX was installed: the extension's files as users get them. */
  extensionsDir: string;
  logFile: string;
  screenshot(name: string): Promise<string>;
  openContainer(title: string): Promise<void>;
  webviewFrame(selector: string, timeoutMs?: number): Promise<Frame>;
  runCommand(title: string): Promise<void>;
  notifications(): Promise<string[]>;
  /** Waits until a visible notification toast contains `text`; returns all visible toast texts. */
  waitForNotification(text: string | RegExp, timeoutMs?: number): Promise<string[]>;
  stop(): Promise<void>;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const DEFAULT_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'git.enabled': false,
};

/** Cache folder of scripts/setup-code-server.mjs. */
/** What the extension has written to its Output channel ("Context Deck") so far, as VS Code logged it. */
export function extensionOutput(workbench: Pick<Workbench, 'userDataDir'>): string {
  const logsDir = join(workbench.userDataDir, 'logs');
  if (!existsSync(logsDir)) return '';
  return readdirSync(logsDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('Context Deck.log'))
    .map((name) => readFileSync(join(logsDir, name), 'utf8'))
    .join('');
}

export function codeServerCacheDir(): string {
  const root = process.env.CONTEXT_DECK_CACHE || join(homedir(), '.cache', 'context-deck');
  return join(root, `code-server-${CODE_SERVER_VERSION}`);
}

/** Reads <cache>/paths.json written by scripts/setup-code-server.mjs. */
export function codeServerPaths(): CodeServerPaths {
  const dir = codeServerCacheDir();
  const file = join(dir, 'paths.json');
  if (!existsSync(join(dir, '.complete')) || !existsSync(file)) {
    throw new Error(
      `code-server is not installed in ${dir}: run \`node scripts/setup-code-server.mjs\` first`,
    );
  }
  const paths = JSON.parse(readFileSync(file, 'utf8')) as CodeServerPaths;
  for (const key of ['node24', 'entry', 'chromium'] as const) {
    if (!existsSync(paths[key])) {
      throw new Error(
        `${key} (${paths[key]}) from ${file} is missing: re-run \`node scripts/setup-code-server.mjs\``,
      );
    }
  }
  return paths;
}

/** A free TCP port on 127.0.0.1 (listen on :0, read, close). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      if (addr === null || typeof addr === 'string') {
        srv.close();
        reject(new Error('could not read the port of a loopback listener'));
        return;
      }
      const { port } = addr;
      srv.close(() => resolvePort(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function tail(text: string, lines = 30): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

function readTail(file: string, lines = 30): string {
  try {
    return tail(readFileSync(file, 'utf8'), lines);
  } catch {
    return '';
  }
}

function execNode(
  node: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((res) => {
    execFile(node, args, { env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const output = `${stdout}\n${stderr}`.trim();
      if (err && typeof (err as NodeJS.ErrnoException).code !== 'number' && err.killed !== true) {
        // spawn failure (ENOENT etc.)
        res({ code: null, output: `${output}\n${err.message}`.trim() });
        return;
      }
      res({ code: err ? ((err as { code?: number }).code ?? null) : 0, output });
    });
  });
}

/** Kills a process group; ignores "no such process". */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Servers still running when this process exits (or gets SIGINT/SIGTERM/SIGHUP without a handler of its own,
// e.g. Ctrl+C on `npm start`) are killed synchronously and their temp dirs removed: code-server runs in its own
// process group, so it would not get the terminal's Ctrl+C and would outlive us.
const liveServers = new Map<number, string | undefined>(); // process-group id -> temp dir to remove
let exitHooksInstalled = false;
function cleanupAllSync(): void {
  for (const [pgid, dir] of liveServers) {
    killGroup(pgid, 'SIGKILL');
    if (dir !== undefined) {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      } catch {
        /* best effort */
      }
    }
  }
  liveServers.clear();
}
function trackServer(pgid: number, tempDir: string | undefined): void {
  liveServers.set(pgid, tempDir);
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on('exit', cleanupAllSync);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    if (process.listenerCount(sig) > 0) continue; // the host program handles it (and should call stop())
    process.once(sig, () => {
      cleanupAllSync();
      process.kill(process.pid, sig); // listener gone: default action (terminate) now applies
    });
  }
}

async function waitForHttp(
  url: string,
  child: ChildProcess,
  logFile: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastErr = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `code-server exited (${child.exitCode ?? child.signalCode}) before answering HTTP; log ${logFile}:\n${readTail(logFile)}`,
      );
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status < 500) return;
      lastErr = `HTTP ${res.status}`;
    } catch (err) {
      lastErr = err instanceof Error ? err.message : String(err);
    }
    await sleep(250);
  }
  throw new Error(
    `code-server did not answer on ${url} within ${timeoutMs} ms (${lastErr}); log ${logFile}:\n${readTail(logFile)}`,
  );
}

/** Starts code-server (no browser). Used by the e2e tests through launchWorkbench() and by `npm start`. */
export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  const paths = codeServerPaths();
  const workspace = resolve(opts.workspace);
  if (!existsSync(workspace)) throw new Error(`workspace folder ${workspace} does not exist`);

  const tempRoot = await mkdtemp(join(tmpdir(), 'context-deck-vscode-'));
  const userDataDir = join(tempRoot, 'user-data');
  const extensionsDir = join(tempRoot, 'extensions');
  const cleanup = async (): Promise<void> => {
    if (!opts.keepTempDirs) {
      await rm(tempRoot, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    }
  };

  try {
    await mkdir(join(userDataDir, 'User'), { recursive: true });
    await mkdir(extensionsDir, { recursive: true });
    await writeFile(
      join(userDataDir, 'User', 'settings.json'),
      JSON.stringify({ ...DEFAULT_SETTINGS, ...(opts.userSettings ?? {}) }, null, 2) + '\n',
    );

    const env: NodeJS.ProcessEnv = { ...process.env, ...(opts.env ?? {}) };
    // code-server must not think it runs inside another code-server / VS Code terminal.
    delete env.VSCODE_IPC_HOOK_CLI;
    delete env.CODE_SERVER_PARENT_PID;
    delete env.VSCODE_PROXY_URI;
    delete env.ELECTRON_RUN_AS_NODE;
    delete env.NODE_OPTIONS; // tsx's loader must not leak into Node 24 / the extension host
    // No extension gallery: code-server would query open-vsx.org (not reachable here, and not loopback).
    if (env.EXTENSIONS_GALLERY === undefined) env.EXTENSIONS_GALLERY = '{}';

    // Own --config: otherwise code-server reads/writes ~/.config/code-server/config.yaml.
    const common = [
      '--config',
      join(tempRoot, 'config.yaml'),
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
    ];
    const vsixes = opts.vsix === undefined ? [] : Array.isArray(opts.vsix) ? opts.vsix : [opts.vsix];
    for (const vsix of vsixes) {
      const abs = resolve(vsix);
      if (!existsSync(abs)) throw new Error(`VSIX ${abs} does not exist`);
      const { code, output } = await execNode(
        paths.node24,
        [paths.entry, ...common, '--install-extension', abs],
        env,
        120_000,
      );
      if (code !== 0 || !/successfully installed/i.test(output)) {
        throw new Error(`installing ${abs} failed (exit ${code}):\n${tail(output)}`);
      }
    }

    const port = opts.port ?? (await freePort());
    const url = `http://127.0.0.1:${port}`;
    const logFile = opts.logFile ? resolve(opts.logFile) : join(tempRoot, 'code-server.log');
    mkdirSync(join(logFile, '..'), { recursive: true });
    const log: WriteStream = createWriteStream(logFile, { flags: 'w' });
    await new Promise<void>((r, j) => {
      log.once('open', () => r());
      log.once('error', j);
    });

    const child = spawn(
      paths.node24,
      [
        paths.entry,
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        ...common,
        workspace,
      ],
      { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (child.pid === undefined) {
      log.end();
      await new Promise<void>((r) => child.once('error', () => r()));
      throw new Error(`could not spawn ${paths.node24}`);
    }
    const pid = child.pid;
    trackServer(pid, opts.keepTempDirs ? undefined : tempRoot);
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));

    let stopped = false;
    const stop = async (): Promise<void> => {
      if (stopped) return;
      stopped = true;
      killGroup(pid, 'SIGTERM');
      const deadline = Date.now() + 5000;
      while (groupAlive(pid) && Date.now() < deadline) await sleep(100);
      if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
      await Promise.race([exited, sleep(2000)]);
      liveServers.delete(pid);
      await new Promise<void>((r) => log.end(() => r()));
      await cleanup();
    };

    try {
      await waitForHttp(url, child, logFile, opts.startTimeoutMs ?? 60_000);
    } catch (err) {
      await stop();
      throw err;
    }
    return { url, port, pid, userDataDir, extensionsDir, logFile, stop };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

function cssString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Starts code-server with the VSIX installed, opens the workbench in headless Chromium. */
export async function launchWorkbench(opts: WorkbenchOptions): Promise<Workbench> {
  const paths = codeServerPaths();
  const screenshotsDir = resolve(opts.screenshotsDir);
  await mkdir(screenshotsDir, { recursive: true });
  const workspace = resolve(opts.workspace);

  const server = await startCodeServer({
    vsix: opts.vsix,
    workspace,
    env: opts.env,
    userSettings: opts.userSettings,
    logFile: join(screenshotsDir, 'code-server.log'),
    keepTempDirs: opts.keepTempDirs,
  });

  let browser: Browser | undefined;
  let consoleLog: WriteStream | undefined;
  const stop = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    browser = undefined;
    await server.stop();
    consoleLog?.end();
    consoleLog = undefined;
  };

  try {
    browser = await chromium.launch({ executablePath: paths.chromium, headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    // Browser console errors and page crashes go next to the screenshots, for debugging.
    const log = createWriteStream(join(screenshotsDir, 'browser-console.log'), { flags: 'w' });
    consoleLog = log;
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') log.write(`[${msg.type()}] ${msg.text()}\n`);
    });
    page.on('pageerror', (err) => log.write(`[pageerror] ${err.message}\n`));
    page.on('crash', () => log.write('[crash] page crashed\n'));
    const url = `${server.url}/?folder=${encodeURIComponent(workspace).replace(/%2F/g, '/')}`;
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.monaco-workbench', { timeout: opts.workbenchTimeoutMs ?? 60_000 });
    // The activity bar is filled once extensions are registered; wait for it before handing over.
    await page.waitForSelector('.part.activitybar .action-item', { timeout: 30_000 });

    const screenshot = async (name: string): Promise<string> => {
      const file = join(screenshotsDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
      await page.screenshot({ path: file });
      return file;
    };

    const openContainer = async (title: string): Promise<void> => {
      // code-server 4.139 / VS Code 1.139 markup: <li class="action-item [checked]" role="tab"
      // aria-selected="true|false"><a class="action-label" aria-label="<title>[ (<keybinding>)]">.
      const q = cssString(title);
      const label = page.locator(`.part.activitybar li.action-item a.action-label[aria-label^=${q}]`).first();
      const tab = page
        .locator('.part.activitybar li.action-item')
        .filter({ has: page.locator(`a.action-label[aria-label^=${q}]`) })
        .first();
      try {
        await label.waitFor({ state: 'visible', timeout: 30_000 });
      } catch {
        const labels = await page
          .locator('.part.activitybar a.action-label')
          .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
        throw new Error(`no activity-bar item "${title}" (items: ${JSON.stringify(labels)})`);
      }
      // Clicking the active container hides the side bar: only click when it is not already open.
      const isOpen = async (): Promise<boolean> =>
        (await tab.getAttribute('aria-selected')) === 'true' &&
        (await page.locator('.part.sidebar').isVisible());
      if (!(await isOpen())) await label.click();
      const deadline = Date.now() + 15_000;
      while (!(await isOpen())) {
        if (Date.now() > deadline) throw new Error(`activity-bar container "${title}" did not open`);
        await sleep(200);
      }
    };

    const webviewFrame = async (selector: string, timeoutMs = 30_000): Promise<Frame> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        for (const frame of page.frames()) {
          if (frame === page.mainFrame() || frame.isDetached()) continue;
          try {
            if ((await frame.$(selector)) !== null) return frame;
          } catch {
            /* frame navigated or detached while we looked */
          }
        }
        if (Date.now() > deadline) {
          throw new Error(
            `no webview frame contains "${selector}" after ${timeoutMs} ms (${page.frames().length} frames)`,
          );
        }
        await sleep(250);
      }
    };

    const runCommand = async (title: string): Promise<void> => {
      const widget = page.locator('.quick-input-widget');
      const input = widget.locator('input[type="text"], input.input').first();
      // F1 normally reaches the workbench even from inside a webview (webviews forward keybindings). The
      // palette can also close again at once when a view that is still loading takes the focus: then focus
      // the editor area and open it again.
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('F1');
        try {
          await widget.waitFor({ state: 'visible', timeout: 3000 });
          await input.fill(`>${title}`, { timeout: 5000 });
          break;
        } catch (error) {
          if (attempt === 4) throw error;
          await page.keyboard.press('Escape').catch(() => undefined);
          await page
            .locator('.part.editor')
            .click({ position: { x: 200, y: 200 } })
            .catch(() => undefined);
        }
      }
      const rows = widget.locator('.monaco-list-row');
      const deadline = Date.now() + 15_000;
      let index = -1;
      while (index < 0) {
        const labels = await rows.evaluateAll((els) =>
          els.map((el) =>
            (el.querySelector('.label-name')?.textContent ?? el.getAttribute('aria-label') ?? '').trim(),
          ),
        );
        index = labels.findIndex((l) => l === title);
        if (index < 0) index = labels.findIndex((l) => l.startsWith(title));
        if (index >= 0) break;
        if (Date.now() > deadline) {
          await page.keyboard.press('Escape');
          throw new Error(
            `command "${title}" not found in the palette (rows: ${JSON.stringify(labels.slice(0, 10))})`,
          );
        }
        await sleep(200);
      }
      if (index === 0) await page.keyboard.press('Enter');
      else await rows.nth(index).click();
      // The palette closes; a command that opens its own QuickPick shows the widget again at once, with
      // something other than the `>` command query in it.
      const closeDeadline = Date.now() + 10_000;
      while ((await widget.isVisible()) && (await input.inputValue().catch(() => '')).startsWith('>')) {
        if (Date.now() > closeDeadline) throw new Error(`the palette did not close after running "${title}"`);
        await sleep(100);
      }
    };

    const notifications = async (): Promise<string[]> => {
      const toasts = page.locator(
        '.notifications-toasts .notification-toast-container .notification-list-item-message',
      );
      const texts: string[] = [];
      for (const t of await toasts.all()) {
        if (await t.isVisible()) texts.push((await t.innerText()).trim());
      }
      return texts;
    };

    const waitForNotification = async (text: string | RegExp, timeoutMs = 15_000): Promise<string[]> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const texts = await notifications();
        if (texts.some((t) => (typeof text === 'string' ? t.includes(text) : text.test(t)))) return texts;
        if (Date.now() > deadline) {
          throw new Error(
            `no notification matching ${String(text)} within ${timeoutMs} ms (visible: ${JSON.stringify(texts)})`,
          );
        }
        await sleep(200);
      }
    };

    return {
      page,
      browser,
      url,
      port: server.port,
      userDataDir: server.userDataDir,
      extensionsDir: server.extensionsDir,
      logFile: server.logFile,
      screenshot,
      openContainer,
      webviewFrame,
      runCommand,
      notifications,
      waitForNotification,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
