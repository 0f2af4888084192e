import type { ContextForecast, Recommendation } from '../../src/shared/context';
import { forecastText, tippingText } from '../../src/shared/forecastText';
import type { AdviceActionKind, AdviceView } from '../../src/shared/protocol';
import { formatTokens, keepHyphenatedWords } from '../format';
import { post } from '../vscode';
import { Breakable } from './Breakable';
import './advice.css';

const PRIMARY_LABELS: Record<Recommendation['action'], { label: string; icon: string }> = {
  compact: { label: 'Compact', icon: 'fold' },
  closeFile: { label: 'Close editors', icon: 'close-all' },
  disableServer: { label: 'Disable server', icon: 'debug-disconnect' },
};

const TYPE_ICONS: Record<Recommendation['type'], string> = {
  file: 'file',
  skill: 'book',
  subagent: 'hubot',
  mcp_server: 'server',
  tool_result: 'output',
  session: 'comment-discussion',
};

function baseName(item: string): string {
  return item.split(/[\\/]/).pop() ?? item;
}

/** What to drop from the context, beside the gauge from 70% full; every button does something real. */
export function AdvicePanel({
  projectId,
  advice,
  forecast,
}: {
  projectId: string;
  advice: AdviceView;
  forecast: ContextForecast | null;
}) {
  const tipping = forecast?.stepsLeft != null ? tippingText(forecast.tipping) : null;
  const act = (itemId: string, action: AdviceActionKind) =>
    post({ type: 'adviceAction', projectId, itemId, action });
  return (
    <section
      class={`advice phase-${advice.phase}`}
      aria-labelledby={`advice-${projectId}`}
      data-testid="advice"
    >
      <div class="advice-head">
        <h3 id={`advice-${projectId}`}>
          <i class="codicon codicon-lightbulb" aria-hidden="true" /> What to drop
        </h3>
        {advice.totalSavingTokens > 0 && (
          <span class="muted">saves ~{formatTokens(advice.totalSavingTokens)} tokens</span>
        )}
      </div>
      {advice.warnings.map((warning) => (
        <p class="advice-warning" role="alert" key={warning}>
          <i class="codicon codicon-warning" aria-hidden="true" /> {warning}
        </p>
      ))}
      {forecast?.stepsLeft != null && (
        <p class="advice-forecast" data-testid="advice-forecast">
          <i class="codicon codicon-watch" aria-hidden="true" /> At this pace:{' '}
          {keepHyphenatedWords(forecastText(forecast))}.
          {tipping && ` What tips it: ${keepHyphenatedWords(tipping)}.`}
        </p>
      )}
      <div class="advice-compact">
        <button
          type="button"
          class="primary"
          data-testid="advice-compact"
          title={advice.compactCommand}
          onClick={() => act('session:compact', 'compact')}
        >
          <i class="codicon codicon-fold" aria-hidden="true" /> Compact with focus
        </button>
        <code class="advice-command" data-testid="advice-command">
          <Breakable text={advice.compactCommand} />
        </code>
      </div>
      {advice.recommendations.length > 0 && (
        <ol class="advice-list">
          {advice.recommendations
            .filter((rec) => rec.type !== 'session')
            .map((rec) => (
              <li
                key={rec.itemId}
                class={`advice-item priority-${rec.priority}`}
                data-testid="advice-item"
                data-item={rec.itemId}
              >
                <div class="advice-line">
                  <span class={`advice-priority ${rec.priority}`}>{rec.priority}</span>
                  <i class={`codicon codicon-${TYPE_ICONS[rec.type]}`} aria-hidden="true" />
                  <span
                    class={rec.type === 'tool_result' ? 'advice-name whole' : 'advice-name'}
                    title={rec.item}
                  >
                    {rec.type === 'file' ? baseName(rec.item) : <Breakable text={rec.item} />}
                  </span>
                  <span class="muted advice-figures" title={rec.savingDetail} data-testid="advice-saving">
                    saves {rec.savingMeasured ? '' : '≈'}
                    {formatTokens(rec.savingTokens)} tokens ({rec.savingMeasured ? 'measured' : 'estimated'})
                  </span>
                </div>
                <p class="advice-reason muted">{rec.reason}</p>
                {rec.score !== null && (
                  <p class="advice-score muted" data-testid="advice-score">
                    Score {rec.explanation}
                  </p>
                )}
                <div class="advice-actions">
                  <button
                    type="button"
                    class="link-button"
                    data-testid="advice-primary"
                    onClick={() => act(rec.itemId, rec.action)}
                  >
                    <i class={`codicon codicon-${PRIMARY_LABELS[rec.action].icon}`} aria-hidden="true" />{' '}
                    {PRIMARY_LABELS[rec.action].label}
                  </button>
                  <button
                    type="button"
                    class="link-button"
                    data-testid="advice-pin"
                    aria-label={`Pin ${rec.item}: never suggest it again`}
                    title="Never suggest this again"
                    onClick={() => act(rec.itemId, 'pin')}
                  >
                    <i class="codicon codicon-pin" aria-hidden="true" /> Pin
                  </button>
                  <button
                    type="button"
                    class="link-button"
                    data-testid="advice-dismiss"
                    aria-label={`Dismiss ${rec.item} until it changes`}
                    title="Hide until it changes"
                    onClick={() => act(rec.itemId, 'dismiss')}
                  >
                    <i class="codicon codicon-close" aria-hidden="true" /> Dismiss
                  </button>
                </div>
              </li>
            ))}
        </ol>
      )}
      {advice.undo && (
        <button
          type="button"
          class="link-button"
          data-testid="advice-undo"
          onClick={() => post({ type: 'adviceUndo', projectId })}
        >
          <i class="codicon codicon-discard" aria-hidden="true" /> Undo: {advice.undo.label}
        </button>
      )}
    </section>
  );
}
