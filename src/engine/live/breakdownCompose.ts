/**
 * The breakdown as the dashboard and the CLI show it, composed from what the tracker measured: the fixed
 * overhead split into its categories, the measured parts, and the categories adding up to the total and,
 * with free space and the autocompact buffer, to the window.
 */
import type { BreakdownCategory, BreakdownCategoryName } from '../../shared/context';
import { type BreakdownItem, type ContextBreakdown, MAX_BREAKDOWN_ITEMS } from './breakdownTypes';
import { clip } from './breakdownLabels';
import type { ContextCommandFigures } from './contextCommandOutput';
import { largestRemainder } from './tokenShares';

const CHARS_PER_TOKEN = 4;
export const estimate = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

/**
 * The system prompt's share of what the fixed overhead holds beyond the files and listings that can be
 * counted, from public `/context` outputs: system prompt 3.2k against system tools 17.2k
 * (anthropics/claude-code#23409), 3.0k against 17.0k (dev.to, "Claude Code MCPSearch").
 */
const SYSTEM_PROMPT_SHARE = 0.16;

/** The used categories, in `/context`'s order; free space and the autocompact buffer follow. */
const USED: readonly BreakdownCategoryName[] = [
  'system_prompt',
  'system_tools',
  'mcp_tools',
  'mcp_schemas',
  'custom_agents',
  'memory_files',
  'skills',
  'messages',
];

/** The categories a `/context` output gives for the fixed overhead. */
const FROM_CONTEXT_COMMAND = [
  'system_prompt',
  'system_tools',
  'custom_agents',
  'memory_files',
  'skills',
] as const;

/** Something the context took in after the first call, with the tokens the tracker measured for it. */
export interface Part {
  item: BreakdownItem;
  /** Characters it adds; undefined for a schema loaded by ToolSearch (its size shows only in the growth). */
  chars?: number;
  /** Responses: their thinking characters, recorded output tokens, and whether their label is their text. */
  thinkingChars: number;
  outputTokens: number;
  labelledByText?: boolean;
  /** Tokens of thinking it still holds: a later turn may leave them out. */
  thinking: number;
  /** Counted into the fixed item with this id (a server's late tool names, its loaded schemas). */
  foldInto?: string;
  /** Counted in its category only (schemas of built-in tools). */
  hidden?: boolean;
  /** The tools it names (calls of a response, a loaded schema). */
  tools?: string[];
  /** A hook's context: the event it came at, which every line recording that context names. */
  hookEvent?: string;
}

/** A part of the fixed overhead that can be counted: a memory file, a skill, an agent, a server's names. */
export interface FixedEntry {
  item: BreakdownItem;
  chars: number;
  /** Counted in its category only (the names of deferred built-in tools). */
  hidden?: boolean;
}

export interface Measured {
  /** The first call's input less what preceded it; undefined before the first call. */
  overhead: number | undefined;
  parts: Iterable<Part>;
  fixed: FixedEntry[];
  figures: ContextCommandFigures | undefined;
  /** MCP tool names were announced: tool search is on and `/context`'s MCP figure is only loaded schemas. */
  toolSearch: boolean;
}

/**
 * The breakdown of `total` tokens in `window`, the buffer before the agent compacts at `compactAt` as
 * `/context` measured it, else as the agent's adapter says.
 */
export function composeBreakdown(
  measured: Measured,
  total: number,
  window: number,
  compactAt: number,
): ContextBreakdown {
  const buffer = Math.min(measured.figures?.autocompact_buffer ?? Math.max(0, window - compactAt), window);
  const used = new Map<BreakdownCategoryName, { tokens: number; measured: boolean }>();
  const items = measured.overhead !== undefined && total > 0 ? composeUsed(measured, total, used) : [];
  const categories: BreakdownCategory[] = USED.map((name) => ({
    name,
    tokens: used.get(name)?.tokens ?? 0,
    measured: used.get(name)?.measured ?? false,
  }));
  categories.push(
    { name: 'free_space', tokens: Math.max(0, window - total - buffer), measured: total > 0 },
    {
      name: 'autocompact_buffer',
      tokens: Math.min(buffer, Math.max(0, window - total)),
      measured: measured.figures?.autocompact_buffer !== undefined,
    },
  );
  const listed = items.filter((item) => item.tokens > 0).sort((a, b) => b.tokens - a.tokens);
  return {
    total,
    window,
    autocompactAt: window - buffer,
    categories,
    items: listed.slice(0, MAX_BREAKDOWN_ITEMS),
    itemCount: listed.length,
    fromContextCommand: measured.figures !== undefined,
  };
}

/** The fixed overhead by category: `/context`'s figures, else the counted estimates and the rest shared. */
function fixedShares(
  measured: Measured,
  overhead: number,
): Map<BreakdownCategoryName, { tokens: number; measured: boolean }> {
  const counted = new Map<BreakdownCategoryName, number>();
  for (const entry of measured.fixed)
    counted.set(entry.item.category, (counted.get(entry.item.category) ?? 0) + estimate(entry.chars));
  const shares = new Map<BreakdownCategoryName, { tokens: number; measured: boolean }>();
  const { figures } = measured;
  if (figures) {
    for (const name of FROM_CONTEXT_COMMAND) shares.set(name, { tokens: figures[name] ?? 0, measured: true });
    // With tool search `/context` counts only the schemas loaded so far, which are measured as they load.
    shares.set(
      'mcp_tools',
      measured.toolSearch
        ? { tokens: counted.get('mcp_tools') ?? 0, measured: false }
        : { tokens: figures.mcp_tools ?? 0, measured: true },
    );
    return shares;
  }
  const sum = [...counted.values()].reduce((acc, tokens) => acc + tokens, 0);
  const scale = sum > overhead ? overhead / sum : 1;
  for (const [name, tokens] of counted)
    shares.set(name, { tokens: Math.floor(tokens * scale), measured: false });
  const rest = overhead - [...shares.values()].reduce((acc, share) => acc + share.tokens, 0);
  const prompt = Math.round(rest * SYSTEM_PROMPT_SHARE);
  shares.set('system_prompt', { tokens: prompt, measured: false });
  shares.set('system_tools', {
    tokens: (shares.get('system_tools')?.tokens ?? 0) + rest - prompt,
    measured: false,
  });
  return shares;
}

/** Fills the used categories (adding up to `total`) and returns every item with its tokens. */
function composeUsed(
  measured: Measured,
  total: number,
  used: Map<BreakdownCategoryName, { tokens: number; measured: boolean }>,
): BreakdownItem[] {
  const fixed = fixedShares(measured, Math.min(measured.overhead!, total));
  // Fixed items share their category's figure by their estimates; later additions fold into them.
  const byId = new Map<string, BreakdownItem>();
  const listed = measured.fixed.filter((entry) => !entry.hidden);
  for (const name of new Set(listed.map((entry) => entry.item.category))) {
    const entries = listed.filter((entry) => entry.item.category === name);
    const shares = largestRemainder(
      fixed.get(name)?.tokens ?? 0,
      entries.map((entry) => estimate(entry.chars)),
    );
    entries.forEach((entry, i) => byId.set(entry.item.id, { ...entry.item, tokens: shares[i] }));
  }
  const items: BreakdownItem[] = [];
  const schemaTools = new Map<string, string[]>();
  const growth = new Map<BreakdownCategoryName, { tokens: number; measured: boolean }>();
  for (const part of measured.parts) {
    const { category, tokens } = part.item;
    const sum = growth.get(category) ?? { tokens: 0, measured: true };
    growth.set(category, { tokens: sum.tokens + tokens, measured: sum.measured && part.item.measured });
    if (part.hidden) continue;
    if (!part.foldInto) {
      items.push({ ...part.item, ref: { ...part.item.ref } });
      continue;
    }
    const into = byId.get(part.foldInto) ?? foldTarget(part);
    into.tokens += tokens;
    into.measured &&= part.item.measured;
    byId.set(into.id, into);
    if (part.item.category === 'mcp_schemas')
      schemaTools.set(into.id, [...(schemaTools.get(into.id) ?? []), ...(part.tools ?? [])]);
  }
  for (const [id, tools] of schemaTools) {
    const item = byId.get(id)!;
    const names = [...new Set(tools)].map((tool) => tool.replace(/^mcp__.+?__/, ''));
    const schemas = names.length === 1 ? '1 tool schema' : `${names.length} tool schemas`;
    item.label = clip(`${item.ref.server}: ${schemas} loaded (${names.join(', ')})`);
  }

  let rest = total;
  for (const name of USED) {
    if (name === 'messages') continue;
    const own = fixed.get(name);
    const added = growth.get(name);
    const tokens = (own?.tokens ?? 0) + (added?.tokens ?? 0);
    used.set(name, {
      tokens,
      measured: (own?.measured ?? true) && (added?.measured ?? true),
    });
    rest -= tokens;
  }
  if (rest < 0) {
    // More was counted outside the conversation than the call holds: that count is scaled to fit.
    const names = USED.filter((name) => name !== 'messages');
    const fitted = largestRemainder(
      total,
      names.map((name) => used.get(name)!.tokens),
    );
    names.forEach((name, i) => used.set(name, { tokens: fitted[i], measured: false }));
    rest = 0;
  }
  used.set('messages', { tokens: rest, measured: true });
  return [...items, ...byId.values()];
}

/** The item collecting a server's loaded schemas (or a late server's or skill's listing), made on first use. */
function foldTarget(part: Part): BreakdownItem {
  const id = part.foldInto!;
  const kind = id.slice(0, id.indexOf(':'));
  const key = id.slice(kind.length + 1);
  const server = kind === 'schemas' || kind === 'server';
  return {
    id,
    kind: part.item.kind,
    category: part.item.category,
    label: clip(kind === 'server' ? `${key}: tool names and instructions` : key),
    tokens: 0,
    measured: part.item.measured,
    at: part.item.at,
    ref: server ? { server: key } : {},
  };
}
