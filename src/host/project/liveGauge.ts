import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type GaugeReading,
  type ProjectEngine,
  sessionFileStamp,
  sessionGauge,
  yieldToHost,
  type ContextTypes,
} from '../../engine';
import type { GaugeView } from '../../shared/protocol';
import type { AgentId } from '../../shared/agents';
import { gaugeView } from '../views/gaugeView';
import type { Log } from '../editor/log';
import { shortMessage } from '../views/errorText';
import { type Settings, contextWindowFor } from '../../shared/settings';

/**
 * Where a file cannot be watched (some network and container file systems), the session is looked for and its
 * file checked this often instead. While no session file is known, one is looked for this often.
 */
const FALLBACK_POLL_MS = 1000;
const DISCOVERY_POLL_MS = 10_000;

/**
 * The live context gauge of one project: follows the newest session file of the project, whichever agent
 * writes it (a new one after `/clear` takes over), as soon as it changes. Nothing is polled while watching
 * works: the session file and its folder are watched, and an ingest that read events says when sessions
 * may have changed. It needs nothing of VS Code's API (test/unit/liveGauge.test.ts runs it in Node).
 */
export class LiveGauge {
  private gauge: ContextTypes.SessionGauge | undefined;
  private sessionId: string | undefined;
  private storeLookup: { sessionId: string; file: string | undefined } | undefined;
  private watcher: fs.FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The session file's size and time when last read (undefined: not read yet). */
  private lastStamp: string | undefined;
  /** The followed file has been read once: until then there is no reading to show (not an empty one). */
  private read = false;
  private disposed = false;

  constructor(
    private readonly engine: ProjectEngine,
    private readonly log: Pick<Log, 'info' | 'warn'>,
    private readonly notify: () => void,
    private readonly settings: () => Settings,
  ) {
    // Not within the constructor's task: the project's other views start in it.
    void yieldToHost().then(() => this.tick());
  }

  /** Events were ingested: a session may have begun, or named its file or model. */
  sessionsChanged(): void {
    void this.tick();
  }

  /** The context window setting changed: read the session again with it. */
  settingsChanged(): void {
    if (!this.gauge) return;
    this.configure(this.gauge);
    this.notify();
  }

  private configure(gauge: ContextTypes.SessionGauge): void {
    gauge.configure({
      window: contextWindowFor(this.settings(), gauge.agent),
      modelHint: this.modelHint(),
    });
  }

  private activeSession(): ContextTypes.ActiveSession | undefined {
    return this.engine.activeSession({
      sharedStore: (agent, sessionId) => this.sharedStore(agent, sessionId),
    });
  }

  /**
   * The file of a session of an agent that names none in its events (opencode's database, Cline's task),
   * looked up once per session.
   */
  private sharedStore(agent: AgentId, sessionId: string): string | undefined {
    if (this.storeLookup?.sessionId !== sessionId) {
      const file = this.engine.sessionFileOf(agent, sessionId);
      this.storeLookup = { sessionId, file };
    }
    return this.storeLookup.file;
  }

  private isFollowing(active: ContextTypes.ActiveSession | undefined): boolean {
    return active?.file === this.gauge?.transcript && active?.sessionId === this.sessionId;
  }

  private modelHint(): string | undefined {
    return this.engine.sessions.latestModel();
  }

  /** Look for the active session (following a new one), then read its file if it changed. */
  private async tick(): Promise<void> {
    if (this.disposed) return;
    try {
      const active = this.activeSession();
      if (!this.isFollowing(active)) this.follow(active);
      await this.refresh();
    } catch (error) {
      this.log.warn(`context gauge: ${shortMessage(error)}`);
    }
  }

  /** Read the followed file again if it changed since the last read. */
  private async refresh(): Promise<void> {
    if (this.disposed) return;
    try {
      if (!this.gauge) return;
      this.configure(this.gauge);
      const stamp = sessionFileStamp(this.gauge.transcript)?.key;
      if (stamp === undefined || stamp === this.lastStamp) return;
      this.lastStamp = stamp;
      const gauge = this.gauge;
      const changed = await gauge.refresh();
      if (gauge !== this.gauge) return;
      this.read = true;
      if (changed) this.notify();
    } catch (error) {
      this.log.warn(`context gauge: ${shortMessage(error)}`);
    }
  }

  private follow(active: ContextTypes.ActiveSession | undefined): void {
    this.stopWatching();
    this.lastStamp = undefined;
    this.read = false;
    this.sessionId = active?.sessionId;
    this.gauge = active && sessionGauge(active, { projectRoot: this.engine.identity.mainRoot });
    const transcript = this.gauge?.transcript;
    if (transcript) {
      this.log.info(`context gauge follows ${transcript}`);
      // Its folder is watched rather than the file: the file grows with each turn (or is replaced by a
      // rename), and a newer session's file (after /clear) appears beside it.
      const name = path.basename(transcript);
      const watching = this.watch(
        path.dirname(transcript),
        (file) => void (file === name ? this.refresh() : this.tick()),
      );
      if (!watching) this.poll(FALLBACK_POLL_MS);
    } else {
      this.poll(DISCOVERY_POLL_MS);
    }
    this.notify();
  }

  private watch(target: string, onChange: (file: string | null) => void): boolean {
    try {
      const watcher = fs.watch(target, { persistent: false }, (_event, file) => onChange(file));
      watcher.on('error', () => {
        watcher.close();
        if (!this.disposed) this.poll(FALLBACK_POLL_MS);
      });
      this.watcher = watcher;
      return true;
    } catch {
      return false;
    }
  }

  private poll(ms: number): void {
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.tick(), ms);
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The full reading (with the context items), once the transcript has been read. */
  reading(): GaugeReading | null {
    return this.gauge && this.read ? this.gauge.reading() : null;
  }

  /** The agent of the session followed, once one is. */
  get agent(): AgentId | undefined {
    return this.gauge?.agent;
  }

  view(): GaugeView | null {
    return this.gauge && this.read ? gaugeView(this.gauge.agent, this.gauge.reading()) : null;
  }

  dispose(): void {
    this.disposed = true;
    this.stopWatching();
  }
}
