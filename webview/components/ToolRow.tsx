import { agentName } from '../../src/shared/agents';
import type { ToolView } from '../../src/shared/protocol';
import type { ScoreParts, ToolType } from '../../src/shared/tools';
import { formatCount, relativeTime } from '../format';
import { post } from '../vscode';

/** One line of the list: a tool, or an MCP tool under its server. */
export interface ToolLine {
  tool: ToolView;
  parent?: ToolView;
  /** Set on server rows that have tools: whether those are shown. */
  expanded?: boolean;
}

const TYPE_ICONS: Record<ToolType, string> = {
  mcp_server: 'server',
  mcp_tool: 'tools',
  slash_command: 'terminal',
  skill: 'book',
  subagent: 'hubot',
  plugin: 'extensions',
  builtin: 'gear',
};

const TYPE_NAMES: Record<ToolType, string> = {
  mcp_server: 'MCP server',
  mcp_tool: 'MCP tool',
  slash_command: 'slash command',
  skill: 'skill',
  subagent: 'subagent',
  plugin: 'plugin',
  builtin: 'built-in tool',
};

/** A row's identity: a name can be declared in several scopes, and a server's tool is listed under it. */
export function toolKey(tool: ToolView, parent?: ToolView): string {
  return `${parent ? `${parent.scope}:${parent.name}>` : ''}${tool.scope}:${tool.name}`;
}

/** `github` for `mcp__github__*`, `search_issues` under it: the prefix is already in the server row. */
function shortName(tool: ToolView, parent: ToolView | undefined): string {
  if (tool.type === 'mcp_server') return tool.server ?? tool.name;
  const prefix = parent?.name.endsWith('*') ? parent.name.slice(0, -1) : undefined;
  return prefix && tool.name.startsWith(prefix) ? tool.name.slice(prefix.length) : tool.name;
}

function percentText(value: number): string {
  return `${Math.round(value * 100)}%`;
}

function fixed(value: number): string {
  return value.toFixed(value > 0 && value < 0.01 ? 4 : 3);
}

/** The badge of a tool that is stale or demoted, or unused for so long that it ranks lower. */
function statusOf(tool: ToolView): { badge: 'stale' | 'demoted'; reason: string } | undefined {
  if (tool.status === 'demoted')
    return { badge: 'demoted', reason: tool.statusReason ?? 'its last calls failed' };
  if (tool.status === 'stale') return { badge: 'stale', reason: tool.statusReason ?? 'no longer declared' };
  if (tool.scoreParts.unseenFactor < 1)
    return { badge: 'stale', reason: `unused for ${formatCount(tool.unseenDays)} days` };
  return undefined;
}

interface Props {
  projectId: string;
  line: ToolLine;
  now: number;
  detailsOpen: boolean;
  onToggleDetails: () => void;
  onToggleExpanded: () => void;
  filtering: boolean;
}

export function ToolRow({
  projectId,
  line,
  now,
  detailsOpen,
  onToggleDetails,
  onToggleExpanded,
  filtering,
}: Props) {
  const { tool, parent, expanded } = line;
  const key = toolKey(tool, parent);
  const detailsId = `tool-details-${projectId}-${key}`.replace(/[^\w-]/g, '_');
  const name = shortName(tool, parent);
  const status = statusOf(tool);
  const children = tool.children ?? [];
  const canOpen = tool.source !== null || parent?.source != null;
  const hiddenProblems = expanded === false ? childProblems(children) : [];

  return (
    <li
      class={`tool-row status-${tool.status}${parent ? ' tool-child' : ''}${detailsOpen ? ' open' : ''}`}
      data-testid="tool-row"
      data-name={tool.name}
      data-status={status?.badge ?? tool.status}
    >
      <div
        class="tool-main"
        onClick={(event) => {
          // Buttons in the row do their own thing; a click anywhere else opens the details.
          if ((event.target as HTMLElement).closest('button, a, input')) return;
          onToggleDetails();
        }}
      >
        {expanded !== undefined ? (
          <button
            type="button"
            class="icon-button tool-expander"
            aria-expanded={expanded}
            aria-label={`${expanded ? 'Hide' : 'Show'} the ${children.length} tools of ${name}`}
            title={filtering ? 'Tools matching the filter are shown' : undefined}
            disabled={filtering}
            data-testid="tool-expander"
            onClick={onToggleExpanded}
          >
            <i class={`codicon codicon-chevron-${expanded ? 'down' : 'right'}`} aria-hidden="true" />
          </button>
        ) : (
          <span class="tool-expander-space" aria-hidden="true" />
        )}
        <i
          class={`codicon codicon-${TYPE_ICONS[tool.type]} tool-icon`}
          title={TYPE_NAMES[tool.type]}
          aria-hidden="true"
        />
        <button
          type="button"
          class="tool-name"
          aria-expanded={detailsOpen}
          aria-controls={detailsId}
          title={`${tool.name}${tool.description ? `\n${tool.description}` : ''}`}
          onClick={onToggleDetails}
        >
          <span class="visually-hidden">{TYPE_NAMES[tool.type]} </span>
          {name}
        </button>
        {status && (
          <span class={`tool-badge ${status.badge}`} data-testid={`badge-${status.badge}`}>
            {status.badge}
          </span>
        )}
        {tool.disabled && (
          <span
            class="tool-badge disabled"
            data-testid="badge-disabled"
            title="Switched off in the agent's settings"
          >
            disabled
          </span>
        )}
        {hiddenProblems.map(({ badge, count }) => (
          <span key={badge} class={`tool-badge subtle ${badge}`} title={`${count} of its tools are ${badge}`}>
            {count} {badge}
          </span>
        ))}
        <span class="tool-actions">
          {canOpen && (
            <button
              type="button"
              class="icon-button"
              aria-label={`Open the file that declares ${tool.name}`}
              title={`Open ${tool.source ?? parent?.source ?? 'its config file'}`}
              data-testid="tool-open"
              onClick={() => post({ type: 'openToolSource', projectId, name: tool.name, scope: tool.scope })}
            >
              <i class="codicon codicon-go-to-file" aria-hidden="true" />
            </button>
          )}
          {tool.type === 'mcp_server' && tool.server !== null && (
            <button
              type="button"
              class="icon-button"
              aria-label={`${tool.disabled ? 'Re-enable' : 'Disable'} the MCP server ${tool.server} for this project`}
              title={`${tool.disabled ? 'Re-enable' : 'Disable'} ${tool.server} for this project…`}
              data-testid="tool-toggle-server"
              data-action={tool.disabled ? 'enable' : 'disable'}
              onClick={() =>
                post({ type: 'setServerEnabled', projectId, server: tool.server!, enabled: tool.disabled })
              }
            >
              <i
                class={`codicon codicon-${tool.disabled ? 'play-circle' : 'circle-slash'}`}
                aria-hidden="true"
              />
            </button>
          )}
          <button
            type="button"
            class="icon-button"
            aria-label={`Copy the name ${tool.name}`}
            title="Copy the name"
            data-testid="tool-copy"
            onClick={() => post({ type: 'copyText', text: tool.name })}
          >
            <i class="codicon codicon-copy" aria-hidden="true" />
          </button>
        </span>
      </div>
      <div class="tool-stats">
        <span data-testid="tool-uses7d">
          {formatCount(tool.uses7d)} {tool.uses7d === 1 ? 'call' : 'calls'} in 7 days
        </span>
        {tool.successRate !== null && (
          <span
            class={tool.successRate < 0.5 ? 'failing' : undefined}
            data-testid="tool-success"
            title="Successful calls among the last 50"
          >
            {percentText(tool.successRate)} succeeded
          </span>
        )}
        <span
          data-testid="tool-last-used"
          title={
            tool.lastUsedAt === null ? undefined : `Last used ${new Date(tool.lastUsedAt).toLocaleString()}`
          }
        >
          {tool.lastUsedAt === null ? 'not used yet' : `last used ${relativeTime(tool.lastUsedAt, now)}`}
        </span>
      </div>
      {status && (
        <div class={`tool-reason ${status.badge}`} data-testid="tool-reason">
          {status.reason}
        </div>
      )}
      {detailsOpen && <ToolDetails id={detailsId} tool={tool} parent={parent} />}
    </li>
  );
}

function childProblems(children: ToolView[]): Array<{ badge: 'stale' | 'demoted'; count: number }> {
  const demoted = children.filter((child) => child.status === 'demoted').length;
  const stale = children.filter((child) => child.status === 'stale').length;
  return [
    ...(demoted ? [{ badge: 'demoted' as const, count: demoted }] : []),
    ...(stale ? [{ badge: 'stale' as const, count: stale }] : []),
  ];
}

function ToolDetails({ id, tool, parent }: { id: string; tool: ToolView; parent: ToolView | undefined }) {
  const declared =
    tool.source !== null
      ? `${tool.source}${tool.line !== null ? `:${tool.line}` : ''}`
      : `found in use (${tool.origin === 'hook' ? 'recorded by the hooks' : 'read from transcripts'})${
          parent?.source ? `; its server is declared in ${parent.source}` : ''
        }`;
  return (
    <dl class="tool-details" id={id} data-testid="tool-details">
      <dt>Name</dt>
      <dd>
        <code>{tool.name}</code>
      </dd>
      <dt>Kind</dt>
      <dd>
        {TYPE_NAMES[tool.type]}, {tool.scope} scope
      </dd>
      <dt>Source</dt>
      <dd class="tool-source">{declared}</dd>
      {tool.agents.length > 0 && (
        <>
          <dt>Agents</dt>
          <dd data-testid="tool-agents">{tool.agents.map(agentName).join(', ')}</dd>
        </>
      )}
      {tool.description && (
        <>
          <dt>About</dt>
          <dd>{tool.description}</dd>
        </>
      )}
      <dt>Score</dt>
      <dd data-testid="tool-score">
        {fixed(tool.score)} = <ScoreFormula parts={tool.scoreParts} tool={tool} />
      </dd>
      <dt>Calls</dt>
      <dd>
        {formatCount(tool.usesTotal)} in all, {formatCount(tool.failures)} failed
      </dd>
    </dl>
  );
}

/** How the score is made, in the strategy's own terms. */
function ScoreFormula({ parts, tool }: { parts: ScoreParts; tool: ToolView }) {
  const factors: string[] = [];
  if (parts.statusFactor !== 1) factors.push(`× ${parts.statusFactor} (${tool.status})`);
  if (parts.unseenFactor !== 1)
    factors.push(`× ${parts.unseenFactor} (not seen for ${formatCount(tool.unseenDays)} days)`);
  const penalties = factors.length ? ` ${factors.join(' ')}` : '';
  if (parts.strategy === 'frequency-share')
    return (
      <span>
        share {formatCount(parts.recentUses)} of the last {formatCount(parts.recentCalls)} calls (
        {percentText(parts.share)}){penalties}
      </span>
    );
  return (
    <span>
      0.7 × frequency {formatCount(parts.uses7d)}/{formatCount(parts.maxUses7d)} ({fixed(parts.frequency)}) +
      0.3 × recency {fixed(parts.recency)}
      {parts.ageDays === null ? ' (unused in 7 days)' : ` (last use ${parts.ageDays.toFixed(1)} days ago)`}
      {penalties}
    </span>
  );
}
