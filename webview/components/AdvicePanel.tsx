import type { ContextForecast, Recommendation } from '../../src/shared/context';
import type { AdviceActionKind, AdviceView } from '../../src/shared/protocol';
import { formatTokens } from '../format';
import { useEffect, useRef } from 'preact/hooks';
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
  const act = (itemId: string, action: AdviceActionKind) =>
    post({ type: 'adviceAction', projectId, itemId, action });
  const undoButton = useRef<HTMLButtonElement>(null);
  const undoLabel = advice.undo?.label;
  // A pinned or dismissed item leaves the list with the focus on its button: the focus goes to the Undo that
  // replaces it, not back to the top of the page.
  useEffect(() => {
    if (undoLabel && document.activeElement === document.body) undoButton.current?.focus();
  }, [undoLabel]);
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
        <p class="advice-forecast muted" data-testid="advice-forecast">
          <i class="codicon codicon-watch" aria-hidden="true" /> When it compacts, and what grows it:{' '}
          <a href="#gauge-forecast">the forecast under the gauge</a>.
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
        <code class="advice-command code-block" data-testid="advice-command">
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
                  <span class="advice-name" title={rec.item}>
                    {rec.type === 'file' ? baseName(rec.item) : <Breakable text={rec.item} />}
                  </span>
                </div>
                {/* Why and what it saves, in plain words first; the tiers and the saving's parts one click away. */}
                <p class="advice-reason" data-testid="advice-reason">
                  {rec.reason}
                </p>
                {rec.score !== null && (
                  <details class="advice-score muted" data-testid="advice-score">
                    <summary>How it is scored</summary>
                    <p>Score {rec.explanation}.</p>
                    <p data-testid="advice-saving">
                      {`Saves ${formatTokens(rec.savingTokens)} tokens, ${rec.savingMeasured ? 'measured' : 'estimated'}`}
                      {rec.savingDetail ? `: ${rec.savingDetail}.` : '.'}
                    </p>
                  </details>
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
          ref={undoButton}
          onClick={() => post({ type: 'adviceUndo', projectId })}
        >
          <i class="codicon codicon-discard" aria-hidden="true" /> Undo: {advice.undo.label}
        </button>
      )}
    </section>
  );
}
