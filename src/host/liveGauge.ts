import * as fs from 'node:fs';
import * as vscode from 'vscode';
import {
  type ActiveSession,
  type AgentId,
  type ContextBreakdown,
  findActiveSession,
  type GaugeReading,
  latestModel,
  newestStore,
  type ProjectEngine,
  type SessionGauge,
  sessionFileStamp,
  sessionGauge,
  usageLevel,
} from '../engine';
import type { BreakdownView, GaugeView } from '../shared/protocol';
import { canOpen } from './contextItemOpener';
import { type Log, shortMessage } from './log';

/** The largest items sent to the dashboard (the engine keeps more, for the advice). */
const ITEMS_SENT = 20;

function breakdownView(breakdown: ContextBreakdown): BreakdownView {
  return {
    categories: breakdown.categories,
    autocompactAt: breakdown.autocompactAt,
    items: breakdown.items.slice(0, ITEMS_SENT).map((item) => ({
      id: item.id,
      kind: item.kind,
      label: item.label,
      tool: item.ref.tool ?? null,
      tokens: item.tokens,
      measured: item.measured,
      at: item.at,
      openable: canOpen(item),
    })),
    itemCount: breakdown.itemCount,
    fromContextCommand: breakdown.fromContextCommand,
  };
}

/** Transcript growth is checked this often (fs.watch also triggers at once where it works). */
const POLL_MS = 1000;
/** Trend points sent to the dashboard. */
const TREND_POINTS = 60;

/**
 * The live context gauge of one project: follows the newest session file of the project, whichever agent
 * writes it (a new one after `/clear` takes over), within a second of each change.
 */
export class LiveGauge implements vscode.Disposable {
  private gauge: SessionGauge | undefined;
  private sessionId: string | undefined;
  private storeLookup: { sessionId: string; file: string | undefined } | undefined;
  private watcher: fs.FSWatcher | undefined;
  private timer: NodeJS.Timeout;
  /** The session file's size and time when last read (undefined: not read yet). */
  private lastStamp: string | undefined;
  /** The followed file has been read once: until then there is no reading to show (not an empty one). */
  private read = false;
  private disposed = false;

  constructor(
    private readonly engine: ProjectEngine,
    private readonly log: Log,
    private readonly notify: () => void,
  ) {
    this.timer = setInterval(() => void this.tick(), POLL_MS);
    void this.tick();
  }

  private activeSession(): ActiveSession | undefined {
    return findActiveSession(this.engine.db, this.engine.identity.mainRoot, {
      sharedStore: (agent, sessionId) => this.sharedStore(agent, sessionId),
    });
  }

  /**
   * The store of an agent that keeps every session in one file and names none in its events (opencode's
   * database), looked up once per session.
   */
  private sharedStore(agent: AgentId, sessionId: string): string | undefined {
    if (this.storeLookup?.sessionId !== sessionId) {
      const file = newestStore(agent, this.engine.identity.mainRoot);
      this.storeLookup = { sessionId, file };
    }
    return this.storeLookup.file;
  }

  private isFollowing(active: ActiveSession | undefined): boolean {
    return active?.file === this.gauge?.transcript && active?.sessionId === this.sessionId;
  }

  private modelHint(): string | undefined {
    return latestModel(this.engine.db);
  }

  private windowSetting(): number | undefined {
    const window = vscode.workspace.getConfiguration('contextDeck').get<number>('contextWindow', 0);
    return window > 0 ? window : undefined;
  }

  private async tick(): Promise<void> {
    if (this.disposed) return;
    try {
      const active = this.activeSession();
      if (!this.isFollowing(active)) this.follow(active);
      if (!this.gauge) return;
      this.gauge.configure({ window: this.windowSetting(), modelHint: this.modelHint() });
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

  private follow(active: ActiveSession | undefined): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.lastStamp = undefined;
    this.read = false;
    this.sessionId = active?.sessionId;
    this.gauge = active && sessionGauge(active, { projectRoot: this.engine.identity.mainRoot });
    const transcript = this.gauge?.transcript;
    if (transcript) {
      this.log.info(`context gauge follows ${transcript}`);
      try {
        this.watcher = fs.watch(transcript, () => void this.tick());
        this.watcher.on('error', () => this.watcher?.close());
      } catch {
        // Polling covers it.
      }
    }
    this.notify();
  }

  /** The full reading (with the context items), once the transcript has been read. */
  reading(): GaugeReading | null {
    return this.gauge && this.read ? this.gauge.reading() : null;
  }

  view(): GaugeView | null {
    if (!this.gauge || !this.read) return null;
    const reading = this.gauge.reading();
    const trend = reading.trend.slice(-TREND_POINTS);
    return {
      agent: this.gauge.agent,
      sessionId: reading.sessionId,
      model: reading.model,
      transcript: reading.transcript,
      tokens: reading.tokens,
      window: reading.window,
      percent: reading.percent,
      level: usageLevel(reading.percent),
      compactions: reading.compactions,
      compactedSinceUsage: reading.compactedSinceUsage,
      trend: trend.map((point) => Math.round((point.tokens / reading.window) * 1000) / 10),
      trendAt: trend.map((point) => point.at),
      updatedAt: reading.updatedAt,
      breakdown: breakdownView(reading.breakdown),
    };
  }

  dispose(): void {
    this.disposed = true;
    clearInterval(this.timer);
    this.watcher?.close();
  }
}
