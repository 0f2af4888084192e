import { useState } from 'preact/hooks';
import type { BreakdownItemView, BreakdownView } from '../../src/shared/protocol';
import type { BreakdownCategory } from '../../src/shared/context';
import { formatCount, formatTokens } from '../format';
import { post } from '../vscode';
import { Breakable } from './Breakable';
import './breakdown.css';

const CATEGORY_NAMES: Record<BreakdownCategory['name'], string> = {
  system_prompt: 'System prompt',
  system_tools: 'System tools',
  mcp_tools: 'MCP tools',
  mcp_schemas: 'MCP schemas loaded',
  custom_agents: 'Custom agents',
  memory_files: 'Memory files',
  skills: 'Skills',
  messages: 'Messages',
  free_space: 'Free space',
  autocompact_buffer: 'Autocompact buffer',
};

const ITEM_ICONS: Record<BreakdownItemView['kind'], string> = {
  file_read: 'file',
  tool_result: 'output',
  prompt: 'comment',
  assistant: 'hubot',
  hook_context: 'plug',
  subagent_result: 'organization',
  compaction_summary: 'fold',
  mcp_server: 'server',
  memory_file: 'book',
  skill: 'mortar-board',
  agent: 'person',
};

/** Items listed before "Show more". */
const ITEMS_SHOWN = 6;

function share(tokens: number, window: number): string {
  const pct = (100 * tokens) / window;
  return pct >= 1 || pct === 0 ? `${Math.round(pct)}%` : '<1%';
}

/** A figure with its provenance in words, not only a mark: "≈" and the tooltip say it is estimated. */
function Tokens({ tokens, measured }: { tokens: number; measured: boolean }) {
  return (
    <span
      class="tokens"
      title={`${formatCount(tokens)} tokens, ${measured ? 'measured from the API usage' : 'estimated'}`}
    >
      {measured ? '' : '≈'}
      {formatTokens(tokens)}
    </span>
  );
}

/** The window as one bar of its categories, with where the agent compacts on its own. */
function StackedBar({ breakdown, window }: { breakdown: BreakdownView; window: number }) {
  let x = 0;
  const marker = (1000 * breakdown.autocompactAt) / window;
  return (
    <svg
      class="breakdown-bar"
      viewBox="0 0 1000 10"
      preserveAspectRatio="none"
      role="img"
      aria-label={breakdown.categories
        .map((category) => `${CATEGORY_NAMES[category.name]} ${formatTokens(category.tokens)}`)
        .join(', ')}
      data-testid="breakdown-bar"
    >
      {breakdown.categories.map((category) => {
        const width = (1000 * category.tokens) / window;
        const rect = (
          <rect key={category.name} class={`cat-${category.name}`} x={x} y={0} width={width} height={10} />
        );
        x += width;
        return rect;
      })}
      <line class="autocompact-mark" x1={marker} x2={marker} y1={0} y2={10} />
    </svg>
  );
}

function ItemRow({
  projectId,
  item,
  window,
}: {
  projectId: string;
  item: BreakdownItemView;
  window: number;
}) {
  const body = (
    <>
      <i class={`codicon codicon-${ITEM_ICONS[item.kind]}`} aria-hidden="true" />
      <span class="item-label">
        <Breakable text={item.label} />
        {item.tool && (
          <span class="muted">
            {' · '}
            <Breakable text={item.tool} />
          </span>
        )}
      </span>
      <span class="item-figures">
        <Tokens tokens={item.tokens} measured={item.measured} />
        <span class="muted"> {share(item.tokens, window)}</span>
      </span>
    </>
  );
  return (
    <li data-testid="breakdown-item" data-kind={item.kind}>
      {item.openable ? (
        <button
          type="button"
          class="breakdown-item"
          title={`Open ${item.label}`}
          onClick={() => post({ type: 'openContextItem', projectId, itemId: item.id })}
        >
          {body}
        </button>
      ) : (
        <div class="breakdown-item">{body}</div>
      )}
    </li>
  );
}

/** What fills the context window: categories as a bar and a legend, then the largest items. */
export function Breakdown({
  projectId,
  breakdown,
  window,
  agent,
}: {
  projectId: string;
  breakdown: BreakdownView;
  window: number;
  /** The agent whose session this is, by name. */
  agent: string;
}) {
  const [more, setMore] = useState(false);
  const shown = more ? breakdown.items : breakdown.items.slice(0, ITEMS_SHOWN);
  return (
    <div class="breakdown" data-testid="breakdown">
      <StackedBar breakdown={breakdown} window={window} />
      {breakdown.autocompactAt < window && (
        <p class="muted breakdown-autocompact">
          {agent} compacts on its own at {formatTokens(breakdown.autocompactAt)} tokens
          {breakdown.fromContextCommand && ' · categories from your last /context'}
        </p>
      )}
      <ul class="breakdown-legend" aria-label="What fills the context window">
        {breakdown.categories
          .filter((category) => category.tokens > 0)
          .map((category) => (
            <li key={category.name} data-testid="breakdown-category" data-name={category.name}>
              <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">
                <rect class={`cat-${category.name}`} width="10" height="10" />
              </svg>
              <span class="legend-name">{CATEGORY_NAMES[category.name]}</span>
              <Tokens tokens={category.tokens} measured={category.measured} />
              <span class="muted legend-share">{share(category.tokens, window)}</span>
            </li>
          ))}
      </ul>
      {breakdown.items.length > 0 && (
        <>
          <h4 class="breakdown-items-title">Largest in the conversation</h4>
          <ol class="breakdown-items" data-testid="breakdown-items">
            {shown.map((item) => (
              <ItemRow key={item.id} projectId={projectId} item={item} window={window} />
            ))}
          </ol>
          {breakdown.items.length > ITEMS_SHOWN && (
            <button type="button" class="link-button" onClick={() => setMore(!more)}>
              {more ? 'Show fewer' : `Show ${formatCount(breakdown.items.length - ITEMS_SHOWN)} more`}
            </button>
          )}
          {more && breakdown.itemCount > breakdown.items.length && (
            <p class="muted">
              The {formatCount(breakdown.items.length)} largest of {formatCount(breakdown.itemCount)} items.
            </p>
          )}
        </>
      )}
      <p class="muted breakdown-note">≈ estimated; other figures are measured from the API usage.</p>
    </div>
  );
}
