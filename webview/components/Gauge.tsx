import { agentName } from '../../src/shared/agents';
import { forecastText, forecastTarget, tippingText } from '../../src/shared/forecastText';
import type { GaugeView } from '../../src/shared/protocol';
import { isSessionActive } from '../../src/shared/sessionActivity';
import { formatCount, formatTokens, keepHyphenatedWords, relativeTime } from '../format';
import { useNow } from '../hooks';
import { Breakdown } from './Breakdown';

const LEVEL_NOTES: Record<GaugeView['level'], string | null> = {
  ok: null,
  elevated: 'Filling up: over 70% of the window is in use.',
  high: 'Over 80%: time to drop what the agent no longer needs.',
  critical: 'Over 90%: the context is critical.',
  compact: 'Nearly full: compact the conversation now.',
};

/**
 * How full the active session's context window is, with its trend and compactions. A session that is no
 * longer active is shown as what it was, with when it was last active, and no call to act.
 */
export function Gauge({ projectId, gauge }: { projectId: string; gauge: GaugeView }) {
  const now = useNow();
  const active = isSessionActive(gauge.updatedAt, now);
  const note = active ? LEVEL_NOTES[gauge.level] : null;
  return (
    <section class={`gauge level-${gauge.level}`} aria-labelledby="gauge-title" data-testid="gauge">
      <div class="gauge-head">
        <h3 id="gauge-title">
          <i class="codicon codicon-pulse" aria-hidden="true" /> Context window
        </h3>
        <span class="gauge-percent" data-testid="gauge-percent">
          {gauge.percent}%
        </span>
      </div>
      {!gauge.breakdown && (
        <meter
          min={0}
          max={gauge.window}
          low={gauge.window * 0.7}
          high={gauge.window * 0.9}
          optimum={0}
          value={Math.min(gauge.tokens, gauge.window)}
          aria-label={`Context window ${gauge.percent}% full`}
        />
      )}
      <div class="gauge-figures muted">
        <span data-testid="gauge-tokens">
          {formatCount(gauge.tokens)} / {gauge.windowGuessed ? '~' : ''}
          {formatCount(gauge.window)} tokens
        </span>
        {gauge.windowGuessed && (
          <span
            data-testid="gauge-window-guessed"
            title="Nothing states this model's context window: the usual 200k is assumed. Set contextDeck.contextWindow to the real size."
          >
            window guessed
          </span>
        )}
        <span title="Agent" data-testid="gauge-agent">
          {agentName(gauge.agent)}
        </span>
        {gauge.model && <span title="Model">{gauge.model}</span>}
      </div>
      {!active && (
        <p class="muted" data-testid="gauge-inactive">
          <i class="codicon codicon-clock" aria-hidden="true" /> Last session, last active{' '}
          {gauge.updatedAt === null ? 'at an unknown time' : relativeTime(gauge.updatedAt, now)}. Start a
          session to follow it live.
        </p>
      )}
      {gauge.breakdown && (
        <Breakdown
          projectId={projectId}
          breakdown={gauge.breakdown}
          window={gauge.window}
          agent={agentName(gauge.agent)}
        />
      )}
      {gauge.trend.length > 1 && <Trend gauge={gauge} />}
      {active && <Forecast gauge={gauge} />}
      {/* Always there, so its text changing (only with the level, never with a tick) is announced, politely. */}
      <div role="status" data-testid="gauge-level">
        {note && (
          <p class="gauge-note">
            <i class="codicon codicon-warning" aria-hidden="true" /> {note}
          </p>
        )}
      </div>
      {gauge.compactedSinceUsage && (
        <p class="muted">
          {active
            ? 'Just compacted: the next response shows the new size.'
            : 'Compacted as the session ended: the size shown is from before.'}
        </p>
      )}
      {gauge.compactions.length > 0 && (
        <p class="muted" data-testid="gauge-compactions">
          Compacted {gauge.compactions.length}× this session
          {gauge.compactions.at(-1)?.preTokens != null &&
            ` (last at ${formatCount(gauge.compactions.at(-1)!.preTokens!)} tokens` +
              (gauge.compactions.at(-1)?.at != null
                ? `, ${relativeTime(gauge.compactions.at(-1)!.at!, now)})`
                : ')')}
        </p>
      )}
    </section>
  );
}

/** The projection takes at most this share of the trend's width, however far off the compaction is. */
const MAX_PROJECTED_SHARE = 0.5;

/**
 * The forecast drawn past the trend's last point: toward the compact (or full) point, over the steps left,
 * cut at MAX_PROJECTED_SHARE of the width (then short of the point).
 */
function projectionOf(
  gauge: GaugeView,
): { steps: number; atPercent: number; endPercent: number; text: string } | null {
  const { forecast } = gauge;
  if (!forecast.stepsLeft || gauge.trend.length < 2) return null;
  const past = gauge.trend.length - 1;
  const steps = Math.min(
    forecast.stepsLeft,
    Math.round((past * MAX_PROJECTED_SHARE) / (1 - MAX_PROJECTED_SHARE)) || 1,
  );
  const last = gauge.trend.at(-1)!;
  const atPercent = (100 * forecast.at) / gauge.window;
  return {
    steps,
    atPercent,
    endPercent: last + ((atPercent - last) * steps) / forecast.stepsLeft,
    text: forecastText(forecast),
  };
}

/** A line under the gauge: when it will compact and what grows it, or why that cannot be told. */
function Forecast({ gauge }: { gauge: GaugeView }) {
  const { forecast } = gauge;
  const tipping = forecast.stepsLeft === null ? null : tippingText(forecast.tipping);
  return (
    <p class="gauge-forecast muted" id="gauge-forecast" data-testid="gauge-forecast">
      <i class="codicon codicon-watch" aria-hidden="true" />{' '}
      {keepHyphenatedWords(
        forecast.stepsLeft === null
          ? `No ${forecastTarget(forecast)} forecast: ${forecast.reason}.`
          : `${capitalized(forecastText(forecast))}.`,
      )}
      {tipping && <span class="gauge-tipping"> Growing it: {keepHyphenatedWords(tipping)}.</span>}
    </p>
  );
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Items this large get a mark on the trend where they came in. */
const MARKED_ITEMS = 3;

/** Where `at` falls on the trend's time axis (0-100), or null when it cannot be placed. */
function trendX(at: number, times: Array<number | null>): number | null {
  const known = times.map((time, i) => ({ time, x: (100 * i) / (times.length - 1) }));
  const after = known.findIndex((point) => point.time !== null && point.time >= at);
  if (after < 0) return null;
  return known[after].x;
}

/**
 * The session's usage over time as a small line; 100% is the top edge, the dashed line is 70%. The largest
 * items are marked where they came in.
 */
function Trend({ gauge }: { gauge: GaugeView }) {
  const points = gauge.trend;
  const projection = projectionOf(gauge);
  const step = 100 / (points.length - 1 + (projection?.steps ?? 0));
  const y = (pct: number) => 30 - (Math.min(pct, 100) / 100) * 30;
  const line = points.map((pct, i) => `${(i * step).toFixed(1)},${y(pct).toFixed(1)}`);
  const lastX = (points.length - 1) * step;
  const marks = (gauge.breakdown?.items ?? [])
    .filter((item) => item.at !== null && item.kind !== 'prompt' && item.kind !== 'assistant')
    .slice(0, MARKED_ITEMS)
    .flatMap((item) => {
      const x = trendX(item.at!, gauge.trendAt);
      return x === null ? [] : [{ item, x }];
    });
  return (
    <div class="trend">
      <svg
        viewBox="0 0 100 30"
        preserveAspectRatio="none"
        role="img"
        aria-label={`Usage over the session: from ${points[0]}% to ${points.at(-1)}%; advice starts at 70%`}
      >
        <line class="trend-limit" x1="0" x2="100" y1="9" y2="9" />
        <polyline class="trend-line" points={line.join(' ')} />
        {projection && (
          <g data-testid="trend-projection">
            <title>{`Projected: ${projection.text}`}</title>
            <line
              class="trend-compact-at"
              x1={lastX}
              x2="100"
              y1={y(projection.atPercent)}
              y2={y(projection.atPercent)}
            />
            <line
              class="trend-projection"
              x1={lastX}
              x2="100"
              y1={y(points.at(-1)!)}
              y2={y(projection.endPercent)}
            />
          </g>
        )}
        {marks.map(({ item, x }) => (
          <line key={item.id} class="trend-item" x1={x} x2={x} y1={0} y2={30} data-testid="trend-item">
            <title>{`${item.label}: ${formatTokens(item.tokens)} tokens came in here`}</title>
          </line>
        ))}
      </svg>
      <span class="trend-limit-label" aria-hidden="true">
        70%
      </span>
    </div>
  );
}
