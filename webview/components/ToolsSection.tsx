import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ToolView } from '../../src/shared/protocol';
import { formatCount } from '../format';
import { projectViews, useNow } from '../hooks';
import { useVsCodeState } from '../vscode';
import { SearchBox } from './SearchBox';
import { SectionToggle } from './SectionToggle';
import { type ToolLine, ToolRow, toolKey } from './ToolRow';
import './tools.css';

/** Rows rendered at once; the rest wait for "show more" or a narrower filter, so 2,000 tools stay smooth. */
const ROWS_SHOWN = 150;

/** The host sends each project's ranked tools on their own message, only when the ranking changed. */
const useTools = projectViews('tools');

const STRATEGY_NAMES = { 'frequency-share': 'share of recent calls', decay: 'recent use (decay)' };
const STRATEGY_TITLES = {
  'frequency-share':
    "Score: each tool's share of the project's last 200 tool calls; stale or demoted x0.25, unseen for 30+ days x0.5 (setting contextDeck.ranking)",
  decay:
    'Score: 0.7 x uses in 7 days / most uses + 0.3 x recency (halves every 7 days); stale or demoted x0.25, unseen for 30+ days x0.5 (setting contextDeck.ranking)',
};

function matches(tool: ToolView, query: string): boolean {
  return (
    tool.name.toLowerCase().includes(query) ||
    (tool.description?.toLowerCase().includes(query) ?? false) ||
    (tool.server?.toLowerCase().includes(query) ?? false)
  );
}

/** The ranked list as lines: servers' tools follow their server when it is expanded or the filter finds them. */
function linesOf(tools: ToolView[], query: string, expanded: Record<string, boolean>): ToolLine[] {
  const lines: ToolLine[] = [];
  for (const tool of tools) {
    const children = tool.children ?? [];
    const own = !query || matches(tool, query);
    const shownChildren = query && !own ? children.filter((child) => matches(child, query)) : children;
    if (!own && shownChildren.length === 0) continue;
    const open = children.length > 0 && (Boolean(query) || expanded[toolKey(tool)] === true);
    lines.push({ tool, expanded: children.length > 0 ? open : undefined });
    if (open) for (const child of shownChildren) lines.push({ tool: child, parent: tool });
  }
  return lines;
}

/** The agent's tools ranked by real use, with stale and failing ones marked and one click from a fix. */
export function ToolsSection({ projectId }: { projectId: string }) {
  const view = useTools(projectId);
  const [open, setOpen] = useVsCodeState(`toolsOpen:${projectId}`, true);
  const [filter, setFilter] = useVsCodeState(`toolsFilter:${projectId}`, '');
  const [expanded, setExpanded] = useVsCodeState<Record<string, boolean>>(`toolsExpanded:${projectId}`, {});
  const [details, setDetails] = useState<Record<string, boolean>>({});
  const [limit, setLimit] = useState(ROWS_SHOWN);
  const now = useNow(60_000);
  const query = filter.trim().toLowerCase();

  useEffect(() => setLimit(ROWS_SHOWN), [query]);
  const lines = useMemo(() => (view ? linesOf(view.tools, query, expanded) : []), [view, query, expanded]);
  // The heading counts the rows of the list; a server's own tools are counted on its row.
  const total = view?.tools.length ?? 0;

  const headingId = `tools-title-${projectId}`;
  const bodyId = `tools-body-${projectId}`;
  const filterId = `tools-filter-${projectId}`;
  const shown = lines.slice(0, limit);

  return (
    <section class="tools" aria-labelledby={headingId} data-testid="tools-section">
      <h3 class="tools-header" id={headingId}>
        <SectionToggle
          open={open}
          onToggle={() => setOpen(!open)}
          controls={bodyId}
          title="Tools"
          count={view ? total : undefined}
        />
        {view && (
          <span class="tools-strategy muted" title={STRATEGY_TITLES[view.strategy]}>
            ranked by {STRATEGY_NAMES[view.strategy]}
          </span>
        )}
      </h3>
      {open && (
        <div class="tools-body" id={bodyId}>
          {!view ? (
            <p class="muted">
              <i class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> Reading the
              agent&apos;s tools…
            </p>
          ) : (
            <>
              {view.problems.length > 0 && (
                <ul class="warnings tool-problems" aria-label="Config files that could not be read">
                  {view.problems.map((problem) => (
                    <li key={`${problem.file}\0${problem.message}`} data-testid="tool-problem">
                      <i class="codicon codicon-warning" aria-hidden="true" />
                      {problem.readWhole ? (
                        <span>
                          <code>{problem.file}</code>: {problem.message}.
                        </span>
                      ) : (
                        <span>
                          Could not read <code>{problem.file}</code>: {problem.message}; the tools it declared
                          are kept as they were.
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              {total === 0 ? (
                <ToolsEmpty builtinsHidden={view.builtinsHidden} />
              ) : (
                <>
                  <SearchBox
                    id={filterId}
                    icon="filter"
                    placeholder="Filter by name or description"
                    label="Filter tools by name or description"
                    testId="tools-filter"
                    value={filter}
                    onChange={setFilter}
                  />
                  {lines.length === 0 ? (
                    <p class="muted" role="status">
                      No tool matches “{filter.trim()}”.
                    </p>
                  ) : (
                    <ul class="tool-list" aria-label="Tools, most useful first" data-testid="tool-list">
                      {shown.map((line) => {
                        const key = toolKey(line.tool, line.parent);
                        return (
                          <ToolRow
                            key={key}
                            projectId={projectId}
                            line={line}
                            now={now}
                            detailsOpen={details[key] === true}
                            onToggleDetails={() =>
                              setDetails((previous) => ({ ...previous, [key]: !previous[key] }))
                            }
                            onToggleExpanded={() =>
                              setExpanded((previous) => {
                                const next = { ...previous };
                                if (next[toolKey(line.tool)]) delete next[toolKey(line.tool)];
                                else next[toolKey(line.tool)] = true;
                                return next;
                              })
                            }
                            filtering={Boolean(query)}
                          />
                        );
                      })}
                    </ul>
                  )}
                  {lines.length > shown.length && (
                    <p class="tools-more" role="status" data-testid="tools-more">
                      Showing {formatCount(shown.length)} of {formatCount(lines.length)}.{' '}
                      <button
                        type="button"
                        class="link-button"
                        onClick={() => setLimit((current) => current + ROWS_SHOWN)}
                      >
                        Show {formatCount(Math.min(ROWS_SHOWN, lines.length - shown.length))} more
                      </button>{' '}
                      or refine the filter.
                    </p>
                  )}
                  {view.builtinsHidden && (
                    <p class="muted tools-note">
                      Built-in tools (Read, Edit, Bash, …) are hidden: setting{' '}
                      <code>contextDeck.tools.showBuiltins</code>.
                    </p>
                  )}
                </>
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}

function ToolsEmpty({ builtinsHidden }: { builtinsHidden: boolean }) {
  return (
    <div class="tools-empty" data-testid="tools-empty">
      <p>No tools known yet.</p>
      <p class="muted">
        MCP servers, skills, slash commands, subagents and plugins appear here as soon as a config file
        declares them (<code>.mcp.json</code>, <code>.claude/</code>, <code>~/.claude.json</code>,{' '}
        <code>~/.claude/</code>, <code>.vscode/mcp.json</code>), and every tool the agent calls once Claude
        Code is connected, ranked by how much it is really used.
        {builtinsHidden && ' Built-in tools are hidden (setting contextDeck.tools.showBuiltins).'}
      </p>
    </div>
  );
}
