import * as fs from 'node:fs';
import { Session } from 'node:inspector';
import type { Profiler } from 'node:inspector';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PAUSE_MS, describeCpuProfile, summariseCpuProfile } from './cpuProfileSummary';
import { type CommandId, type CommandTable, VSCODE_COMMANDS } from './editor/commandIds';
import { runCommand } from './editor/registerCommands';
import type { Log } from './editor/log';
import { hrtimeUs, watchPauses } from './editor/pauseWatch';

/** A sample each millisecond: fine enough for 50 ms tasks, light enough to leave the host's figures alone. */
const SAMPLING_INTERVAL_US = 1000;
const PROFILING_CONTEXT = 'contextDeck.profiling';

/**
 * "Profile the Extension Host (Developer)": records a CPU profile of the extension host in-process
 * (node:inspector, no port opened), writes it beside the extension's logs for DevTools, and says in the
 * Output channel how much of the host's time was ours. For a report of an editor that feels slow, and for
 * the footprint benchmark's idle figure.
 */
export class HostProfiler implements vscode.Disposable {
  private session: Session | undefined;
  private pauses: ReturnType<typeof watchPauses> | undefined;
  private readonly item = vscode.window.createStatusBarItem(
    'contextDeck.profiling',
    vscode.StatusBarAlignment.Left,
    -100,
  );

  constructor(
    private readonly extensionRoot: string,
    private readonly logDir: string,
    private readonly log: Log,
  ) {
    this.item.name = 'Context Deck: profiling';
    this.item.text = '$(record) Profiling extension host';
    this.item.tooltip = 'Context Deck is recording a CPU profile of the extension host. Click to stop.';
    this.item.command = 'contextDeck.stopProfilingHost' satisfies CommandId;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  }

  table(): CommandTable<'contextDeck.profileHost' | 'contextDeck.stopProfilingHost'> {
    return {
      'contextDeck.profileHost': () => this.start(),
      'contextDeck.stopProfilingHost': () => this.stop(),
    };
  }

  async start(): Promise<void> {
    if (this.session) return;
    const session = new Session();
    try {
      session.connect();
      await post(session, 'Profiler.enable');
      await post(session, 'Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
      await post(session, 'Profiler.start');
    } catch (error) {
      session.disconnect();
      this.log.error('starting the CPU profile failed', error);
      void vscode.window.showErrorMessage(`Context Deck: could not start profiling (${String(error)})`);
      return;
    }
    this.session = session;
    this.pauses = watchPauses(PAUSE_MS);
    this.item.show();
    await runCommand(VSCODE_COMMANDS.setContext, PROFILING_CONTEXT, true);
    this.log.info('recording a CPU profile of the extension host');
  }

  private async stop(): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.session = undefined;
    const pauses = this.pauses?.stop() ?? [];
    this.pauses = undefined;
    this.item.hide();
    await runCommand(VSCODE_COMMANDS.setContext, PROFILING_CONTEXT, false);
    try {
      const { profile } = (await post(session, 'Profiler.stop')) as Profiler.StopReturnType;
      const ours = path.resolve(this.extensionRoot) + path.sep;
      const summary = summariseCpuProfile(profile, (url) => urlPath(url).startsWith(ours), pauses);
      fs.mkdirSync(this.logDir, { recursive: true });
      const file = path.join(
        this.logDir,
        `extension-host-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`,
      );
      fs.writeFileSync(file, JSON.stringify(profile));
      // Profiles are timed on the monotonic clock (process.hrtime, in microseconds): when it started, by the wall.
      const startedAt = Date.now() - (hrtimeUs() - profile.startTime) / 1000;
      this.log.info(
        `CPU profile (started ${new Date(startedAt).toISOString()}): ${describeCpuProfile(summary)}; written to ${file}`,
      );
      const reveal = 'Show Log';
      const choice = await vscode.window.showInformationMessage(
        `Context Deck ran ${Math.round(summary.oursMs)} ms of the extension host's ${Math.round(summary.busyMs)} ms busy in ${(summary.ms / 1000).toFixed(0)} s. The profile is in the log folder.`,
        reveal,
      );
      if (choice === reveal) this.log.channel.show(true);
    } catch (error) {
      this.log.error('stopping the CPU profile failed', error);
    } finally {
      session.disconnect();
    }
  }

  dispose(): void {
    this.pauses?.stop();
    this.session?.disconnect();
    this.session = undefined;
    this.item.dispose();
  }
}

function post(session: Session, method: string, params?: object): Promise<unknown> {
  return new Promise((resolve, reject) =>
    session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

/** A frame's script as a path: V8 names bundled scripts by file URL or by plain path. */
function urlPath(url: string): string {
  if (!url.startsWith('file://')) return url;
  try {
    return vscode.Uri.parse(url).fsPath;
  } catch {
    return url;
  }
}
