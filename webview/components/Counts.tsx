import type { IngestCounts } from '../../src/shared/ingest';
import { agentName } from '../../src/shared/agents';
import { formatCount } from '../format';

interface Props {
  counts: IngestCounts;
  projectId: string;
  rejectsOpen: boolean;
  onRejectsClick: () => void;
}

/**
 * What the agent did, then the event log's own numbers. Each number element has a stable data-testid whose text is exactly the number.
 */
export function Counts({ counts, projectId, rejectsOpen, onRejectsClick }: Props) {
  const agents = Object.entries(counts.agents);
  return (
    <>
      <div class="counts" role="group" aria-label="Ingestion status">
        <Tile icon="history" label="Sessions" testId="count-sessions" value={counts.sessions} />
        <Tile icon="comment" label="Prompts" testId="count-prompts" value={counts.prompts} />
        <div class="tile">
          <span class="tile-label">
            <i class="codicon codicon-tools" aria-hidden="true" /> Tool calls
          </span>
          <span class="tile-value" data-testid="count-toolCalls">
            {formatCount(counts.toolCalls)}
          </span>
          <span class={counts.toolFailures > 0 ? 'tile-note failing' : 'tile-note'}>
            <span data-testid="count-toolFailures">{formatCount(counts.toolFailures)}</span> failed
          </span>
        </div>
        <Tile icon="pulse" label="Events" testId="count-events" value={counts.events} />
        <button
          type="button"
          class={counts.rejected > 0 ? 'tile tile-button has-rejects' : 'tile tile-button'}
          aria-expanded={rejectsOpen}
          aria-controls={`rejects-${projectId}`}
          onClick={onRejectsClick}
        >
          <span class="tile-label">
            <i class="codicon codicon-circle-slash" aria-hidden="true" /> Rejected
          </span>
          <span class="tile-value" data-testid="count-rejected">
            {formatCount(counts.rejected)}
          </span>
          <span class="tile-note">{rejectsOpen ? 'hide' : 'show why'}</span>
        </button>
      </div>
      {agents.length > 0 && (
        <p class="agents-line muted" data-testid="count-agents">
          <i class="codicon codicon-hubot" aria-hidden="true" /> Events from{' '}
          {agents.map(([agent, events], index) => (
            <span class="agent-count" key={agent}>
              {index > 0 && ', '}
              {agentName(agent)} ({formatCount(events)})
            </span>
          ))}
        </p>
      )}
    </>
  );
}

function Tile({
  icon,
  label,
  testId,
  value,
}: {
  icon: string;
  label: string;
  testId: string;
  value: number;
}) {
  return (
    <div class="tile">
      <span class="tile-label">
        <i class={`codicon codicon-${icon}`} aria-hidden="true" /> {label}
      </span>
      <span class="tile-value" data-testid={testId}>
        {formatCount(value)}
      </span>
    </div>
  );
}
