import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { expandTilde } from '../engine/paths';
import type { ProjectEngine } from '../engine/projectEngine';
import {
  type ContextBreakdown,
  ContextGauge,
  type GaugeReading,
  findActiveTranscript,
} from '../engine/transcripts';
import { usageLevel } from '../engine/usageLevel';
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

function mtimeOf(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * The live context gauge of one project: follows the newest transcript of the project (a new one after
 * `/clear` takes over), reading only what was appended, within a second of each change.
 */
export class LiveGauge implements vscode.Disposable {
  private gauge: ContextGauge | undefined;
  private watcher: fs.FSWatcher | undefined;
  private timer: NodeJS.Timeout;
  private lastSize = -1;
  private disposed = false;

  constructor(
    private readonly engine: ProjectEngine,
    private readonly log: Log,
    private readonly notify: () => void,
  ) {
    this.timer = setInterval(() => void this.tick(), POLL_MS);
    void this.tick();
  }

  /** The newest of: the transcript the hooks last named, and the newest one in Claude Code's folder. */
  private activeTranscript(): string | undefined {
    const candidates: string[] = [];
    const fromHooks = this.engine.db.get(
      'SELECT transcript_path FROM sessions WHERE transcript_path IS NOT NULL ORDER BY last_event_at DESC LIMIT 1',
    )?.transcript_path;
    if (typeof fromHooks === 'string') candidates.push(expandTilde(fromHooks));
    const found = findActiveTranscript(this.engine.identity.mainRoot);
    if (found) candidates.push(found);
    return candidates.filter((file) => mtimeOf(file) >= 0).sort((a, b) => mtimeOf(b) - mtimeOf(a))[0];
  }

  private modelHint(): string | undefined {
    const model = this.engine.db.get(
      'SELECT model FROM sessions WHERE model IS NOT NULL ORDER BY last_event_at DESC LIMIT 1',
    )?.model;
    return typeof model === 'string' ? model : undefined;
  }

  private windowSetting(): number | undefined {
    const window = vscode.workspace.getConfiguration('contextDeck').get<number>('contextWindow', 0);
    return window > 0 ? window : undefined;
  }

  private async tick(): Promise<void> {
    if (this.disposed) return;
    try {
      const transcript = this.activeTranscript();
      if (transcript !== this.gauge?.transcript) this.follow(transcript);
      if (!this.gauge) return;
      this.gauge.configure({ window: this.windowSetting(), modelHint: this.modelHint() });
      const size = fs.statSync(this.gauge.transcript).size;
      if (size === this.lastSize) return;
      this.lastSize = size;
      if (await this.gauge.refresh()) this.notify();
    } catch (error) {
      this.log.warn(`context gauge: ${shortMessage(error)}`);
    }
  }

  private follow(transcript: string | undefined): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.lastSize = -1;
    this.gauge = transcript
      ? new ContextGauge(transcript, { projectRoot: this.engine.identity.mainRoot })
      : undefined;
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
    return this.gauge && this.lastSize >= 0 ? this.gauge.reading() : null;
  }

  view(): GaugeView | null {
    if (!this.gauge || this.lastSize < 0) return null;
    const reading = this.gauge.reading();
    const trend = reading.trend.slice(-TREND_POINTS);
    return {
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
