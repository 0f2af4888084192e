/**
 * The figures of a `/context` run found in a transcript. Claude Code writes a local command's output as
 * `<local-command-stdout>...</local-command-stdout>`, in a user line (older versions) or a `system` line
 * with subtype `local_command`. Two renderings exist: the terminal one (`⛁ System prompt: 3.2k tokens
 * (1.6%)`, with ANSI colours) and the Markdown table of non-interactive runs (`| System prompt | 3.2k | 1.6%
 * |`). Claude Code counts these categories with the token-counting API, so they are measured figures.
 */
import type { BreakdownCategoryName } from '../../shared/context';

export type ContextCommandFigures = Partial<Record<BreakdownCategoryName, number>>;

const LABELS: Readonly<Record<string, BreakdownCategoryName>> = {
  'system prompt': 'system_prompt',
  'system tools': 'system_tools',
  'mcp tools': 'mcp_tools',
  'custom agents': 'custom_agents',
  'memory files': 'memory_files',
  skills: 'skills',
  messages: 'messages',
  'free space': 'free_space',
  'autocompact buffer': 'autocompact_buffer',
  // The name of the autocompact buffer in 2025 versions.
  reserved: 'autocompact_buffer',
};

/**
 * `<label>[ (deferred)]: 3.2k` or `| <label> | 3.2k |`, after any glyphs of the grid. Deferred tools are
 * listed for information only: they are not in the context.
 */
const CATEGORY_LINE = new RegExp(
  `^[^A-Za-z]*(${Object.keys(LABELS).join('|')})(\\s*\\(deferred\\))?\\s*[:|]\\s*([\\d.,]+)\\s*([km]?)`,
  'i',
);
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

function tokens(number: string, unit: string): number {
  const value = Number(number.replace(/,/g, ''));
  const scale = unit.toLowerCase() === 'k' ? 1_000 : unit.toLowerCase() === 'm' ? 1_000_000 : 1;
  return Math.round(value * scale);
}

/** The category figures of a `/context` output, or undefined when `text` is not one. */
export function contextCommandFigures(text: string): ContextCommandFigures | undefined {
  if (!text.includes('local-command-stdout') || !/context usage/i.test(text)) return undefined;
  const figures: ContextCommandFigures = {};
  let found = 0;
  for (const line of text.replace(ANSI, '').split('\n')) {
    const match = CATEGORY_LINE.exec(line.trim());
    if (!match || match[2]) continue;
    const name = LABELS[match[1].toLowerCase()];
    const value = tokens(match[3], match[4]);
    // The first line of a category is its total; later ones are details of the same name.
    if (figures[name] !== undefined || !Number.isFinite(value)) continue;
    figures[name] = value;
    found++;
  }
  return found >= 2 ? figures : undefined;
}

/**
 * `12.7k / 1m` of the Markdown rendering's `**Tokens:** 12.7k / 1m (1%)`, or the terminal's `25.1k/1m tokens`:
 * the figure before the slash is the context, the one after it the window.
 */
const WINDOW_FIGURE = /([\d.,]+)\s*([km]?)\s*\/\s*([\d.,]+)\s*([km]?)\s*(?:tokens\b|\()/i;

/** The window a `/context` output states, or undefined when `text` is not one or states none. */
export function contextCommandWindow(text: string): number | undefined {
  if (!text.includes('local-command-stdout') || !/context usage/i.test(text)) return undefined;
  for (const line of text.replace(ANSI, '').split('\n')) {
    const match = WINDOW_FIGURE.exec(line);
    if (!match) continue;
    const window = tokens(match[3], match[4]);
    if (Number.isFinite(window) && window > 0 && window >= tokens(match[1], match[2])) return window;
  }
  return undefined;
}
