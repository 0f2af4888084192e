import { agentName } from '../../src/shared/agents';
import { useEffect, useRef } from 'preact/hooks';
import { MEMORY_TYPES, type MemoryType, memoryTypeIcon } from '../../src/shared/memory';
import type { MemoryRowView } from '../../src/shared/protocol';
import { formatCount, relativeTime } from '../format';
import { projectViews, useNow } from '../hooks';
import { post, useVsCodeState } from '../vscode';
import { Breakable } from './Breakable';
import { SearchBox } from './SearchBox';
import { SectionToggle } from './SectionToggle';
import './memory.css';

/** Keystrokes are sent to the host after this quiet time. */
const SEARCH_DEBOUNCE_MS = 200;

let nextRequest = 1;

/**
 * The host answers each `memorySearch` with a `memory` message, and again whenever the answer changes (the
 * agent worked, something was forgotten).
 */
const useMemory = projectViews(
  'memory',
  // An answer to an older keystroke that arrives late is dropped; updates of the current one are kept.
  (previous, next) => next.request >= previous.request,
);

/** The project memory: latest observations, a search box and type filters; a row opens the observation. */
export function MemorySection({ projectId }: { projectId: string }) {
  const view = useMemory(projectId);
  const [open, setOpen] = useVsCodeState(`memoryOpen:${projectId}`, true);
  const [query, setQuery] = useVsCodeState(`memoryQuery:${projectId}`, '');
  const [types, setTypes] = useVsCodeState<MemoryType[]>(`memoryTypes:${projectId}`, []);
  const now = useNow(60_000);
  const first = useRef(true);

  // Ask at once on mount (and when filters change), after a short pause while typing.
  useEffect(() => {
    const send = () => {
      const request = nextRequest++;
      post({ type: 'memorySearch', projectId, request, query, types });
    };
    if (first.current) {
      first.current = false;
      send();
      return undefined;
    }
    const timer = setTimeout(send, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [projectId, query, types.join(',')]);

  const toggleType = (type: MemoryType) =>
    setTypes((previous) =>
      previous.includes(type) ? previous.filter((t) => t !== type) : [...previous, type],
    );

  const headingId = `memory-title-${projectId}`;
  const bodyId = `memory-body-${projectId}`;
  const filtering = query.trim() !== '' || types.length > 0;

  return (
    <section class="memory" aria-labelledby={headingId} data-testid="memory-section">
      <h3 class="memory-header" id={headingId}>
        <SectionToggle
          open={open}
          onToggle={() => setOpen(!open)}
          controls={bodyId}
          title="Memory"
          count={view ? view.total : undefined}
        />
        {view && view.total > 0 && (
          <button
            type="button"
            class="icon-button memory-search-all"
            title="Search Memory in the command palette"
            aria-label="Search Memory in the command palette"
            onClick={() => post({ type: 'searchMemory', projectId, query })}
          >
            <i class="codicon codicon-search" aria-hidden="true" />
          </button>
        )}
      </h3>
      {open && (
        <div class="memory-body" id={bodyId}>
          {!view ? (
            <p class="muted">
              <i class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> Reading the
              memory…
            </p>
          ) : view.total === 0 ? (
            <MemoryEmpty />
          ) : (
            <>
              <SearchBox
                icon="search"
                placeholder='Search: words, "a phrase", prefix*'
                label="Search the memory"
                testId="memory-search"
                value={query}
                onChange={setQuery}
              />
              <div class="memory-types" role="group" aria-label="Filter by type">
                {MEMORY_TYPES.filter((type) => (view.byType[type] ?? 0) > 0 || types.includes(type)).map(
                  (type) => (
                    <button
                      key={type}
                      type="button"
                      class="memory-chip"
                      aria-pressed={types.includes(type)}
                      data-testid="memory-type"
                      data-type={type}
                      title={`Show only ${type} observations`}
                      onClick={() => toggleType(type)}
                    >
                      <i class={`codicon codicon-${memoryTypeIcon(type)}`} aria-hidden="true" />
                      {type}
                      <span class="memory-chip-count">{formatCount(view.byType[type] ?? 0)}</span>
                    </button>
                  ),
                )}
              </div>
              {view.rows.length === 0 ? (
                <p class="muted" role="status" data-testid="memory-no-match">
                  No observation matches{query.trim() ? ` “${query.trim()}”` : ''}
                  {types.length > 0 ? ` among ${types.join(', ')}` : ''}.
                </p>
              ) : (
                <ul
                  class="memory-list"
                  aria-label={filtering ? 'Matching observations, best first' : 'Latest observations'}
                  data-testid="memory-list"
                >
                  {view.rows.map((row) => (
                    <MemoryRow
                      key={row.id}
                      projectId={projectId}
                      row={row}
                      now={now}
                      showAgent={view.agents > 1}
                    />
                  ))}
                </ul>
              )}
              {view.more && (
                <button
                  type="button"
                  class="link-button"
                  onClick={() => post({ type: 'searchMemory', projectId, query })}
                >
                  <i class="codicon codicon-search" aria-hidden="true" /> More in Search Memory…
                </button>
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}

function MemoryRow({
  projectId,
  row,
  now,
  showAgent,
}: {
  projectId: string;
  row: MemoryRowView;
  now: number;
  showAgent: boolean;
}) {
  const agent = row.agent === null ? null : agentName(row.agent);
  return (
    <li class="memory-row">
      <button
        type="button"
        class="memory-open"
        data-testid="memory-row"
        data-id={row.shortId}
        data-type={row.type}
        title={`${row.type} · ${row.shortId}${agent ? ` · ${agent}` : ''}${row.notes.map((note) => ` · ${note}`).join('')} · ${new Date(row.at).toLocaleString()}: open the full observation`}
        onClick={() => post({ type: 'openObservation', projectId, id: row.id })}
      >
        <i
          class={`codicon codicon-${memoryTypeIcon(row.type)} memory-icon type-${row.type}`}
          aria-hidden="true"
        />
        <span class="visually-hidden">
          {row.type}
          {showAgent && agent ? ` from ${agent}` : ''}:{' '}
        </span>
        <span class="memory-text">
          {/* First, so the two lines the text is cut to never hide them. */}
          {row.notes.map((note) => (
            <span key={note} class="memory-note" data-testid="memory-note">
              {note}
            </span>
          ))}
          <Breakable text={row.text} />
        </span>
        <time class="memory-time muted" dateTime={new Date(row.at).toISOString()}>
          {relativeTime(row.at, now)}
        </time>
      </button>
    </li>
  );
}

function MemoryEmpty() {
  return (
    <div class="memory-empty" data-testid="memory-empty">
      <p>
        Nothing remembered yet. As the agent works, each change, command outcome, error and question becomes a
        one-line observation here, typed as a decision, problem, fix and so on.
      </p>
      <p class="muted">
        Keep a note yourself with <strong>Save Selection to Memory</strong> in the editor’s context menu. The
        agent searches this memory through the Context Deck MCP server (search, timeline, get_observations).
      </p>
    </div>
  );
}
