import { relativeTime } from '../../shared/relativeTime';
import { visibleLine } from '../../shared/visibleText';
import { RECALL_FRAMING, recalled } from '../memory/recall';
import type { ObservationSource } from '../memory/types';

/**
 * Seed 000: the text a new session starts with. At most 6000 characters in all and 500 for the tools
 * section; on overflow the tools section goes first, then the least relevant lines. The limit holds for
 * the final text, whatever is appended.
 */

export const SESSION_CONTEXT_BUDGET = 6000;
export const TOOL_SECTION_BUDGET = 500;
/** Observation lines are cut here, so one long line can't crowd out the rest. */
const LINE_MAX = 120;

export const SESSION_CONTEXT_TITLE = '[Context Deck - Session Context]';
const TOOLS_HEADER = '## Available Tools';
const WELCOME = [
  SESSION_CONTEXT_TITLE,
  'No memory for this project yet. Context Deck records your sessions and remembers what changed,',
  'what was decided and what went wrong. Save something yourself with the save_observation tool,',
  'and look things up with search, timeline and get_observations (Context Deck MCP server).',
].join('\n');

export interface ContextLine {
  text: string;
  /** Where the text came from: it is quoted unless the user wrote it. */
  source: ObservationSource;
  at: number;
  /** Seed 001 relevance in [0, 1]: the least relevant lines are dropped first on overflow. */
  relevance: number;
}

/** The fields of a ranked registry tool that its context line needs. */
export interface ToolForContext {
  name: string;
  type: string;
  scope: string;
  server?: string | null;
  usesTotal: number;
  description?: string | null;
}

export interface SessionContextInput {
  now: number;
  previousSummary?: string | null;
  changes?: ContextLine[];
  decisions?: ContextLine[];
  references?: ContextLine[];
  findings?: ContextLine[];
  /** Ranked best first. */
  tools?: ToolForContext[];
}

export interface SectionSize {
  title: string;
  chars: number;
  lines: number;
}

export interface SessionContext {
  text: string;
  /**
   * What the live session is told when it compacts and starts again (context/continuation.ts); the text
   * above when no session is live.
   */
  continuation?: string;
  chars: number;
  toolsChars: number;
  sections: SectionSize[];
}

/** One visible line (names and descriptions come from the repository's files), cut at `max`. */
function clip(text: string, max: number): string {
  const line = visibleLine(text);
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}

function toolLine(tool: ToolForContext): string | undefined {
  const uses = tool.usesTotal > 0 ? `, ${tool.usesTotal}x` : '';
  const name = visibleLine(tool.name);
  switch (tool.type) {
    case 'mcp_server':
      return `- MCP: ${visibleLine(tool.server ?? tool.name)} (${tool.scope}${uses})`;
    case 'slash_command':
      return `- ${name} (${tool.scope}${uses})`;
    case 'skill':
      return `- skill: ${name} (${tool.scope}${uses})${tool.description ? ` - ${clip(tool.description, 60)}` : ''}`;
    case 'plugin':
      return `- plugin: ${name}`;
    case 'subagent':
      return `- agent: ${name} (${tool.scope}${uses})`;
    case 'mcp_tool':
      return `- MCP tool: ${name} (${tool.scope}${uses})`;
    default:
      return undefined; // built-ins are always there; naming them wastes the budget
  }
}

/** The tools section within its own budget, best first, with "(N more available)" only when it fits. */
export function formatToolSection(tools: readonly ToolForContext[]): string {
  const serversWithLines = new Set(
    tools.filter((tool) => tool.type === 'mcp_server').map((tool) => tool.server),
  );
  const lines = tools
    .filter((tool) => !(tool.type === 'mcp_tool' && tool.server && serversWithLines.has(tool.server)))
    .map(toolLine)
    .filter((line): line is string => line !== undefined);
  if (lines.length === 0) return '';
  const kept = [TOOLS_HEADER];
  for (const line of lines) {
    if ([...kept, line].join('\n').length > TOOL_SECTION_BUDGET) break;
    kept.push(line);
  }
  const shown = kept.length - 1;
  if (shown === 0) return '';
  const more = `(${lines.length - shown} more available)`;
  if (shown < lines.length && [...kept, more].join('\n').length <= TOOL_SECTION_BUDGET) kept.push(more);
  return kept.join('\n');
}

interface Section {
  title: string;
  /** Fixed text (the previous session's summary), trimmed only as a last resort. */
  body?: string;
  lines: ContextLine[];
}

/**
 * A body line as one visible line that cannot start a heading or an entry (`#`, `-`, `*`, `+`, `>`, `=`):
 * the sections and their entries are ours alone.
 */
export function bodyLine(line: string): string {
  return visibleLine(line).replace(/^[#>*+=\s-]+/, '');
}

function renderSection(section: Section, now: number): string {
  const body = section.body !== undefined ? section.body.split('\n').map(bodyLine) : [];
  const lines = section.lines.map(
    (line) => `- ${recalled(line.source, line.text, LINE_MAX)} (${relativeTime(line.at, now)})`,
  );
  return [`## ${section.title}`, ...body, ...lines].join('\n');
}

function render(sections: Section[], tools: string, now: number): string {
  const parts = sections
    .filter((section) => section.body || section.lines.length)
    .map((section) => renderSection(section, now));
  return [`${SESSION_CONTEXT_TITLE}\n${RECALL_FRAMING}`, ...parts, ...(tools ? [tools] : [])].join('\n\n');
}

export function buildSessionContext(input: SessionContextInput): SessionContext {
  const sections: Section[] = [
    { title: 'Previous Session', body: input.previousSummary?.trim() || undefined, lines: [] },
    { title: 'Recent Changes', lines: [...(input.changes ?? [])] },
    { title: 'Active Decisions', lines: [...(input.decisions ?? [])] },
    { title: 'Reference Docs', lines: [...(input.references ?? [])] },
    { title: 'Recent Findings', lines: [...(input.findings ?? [])] },
  ];
  if (sections.every((section) => !section.body && section.lines.length === 0) && !input.tools?.length) {
    return { text: WELCOME, chars: WELCOME.length, toolsChars: 0, sections: [] };
  }
  let tools = formatToolSection(input.tools ?? []);
  let text = render(sections, tools, input.now);
  // Over budget: the tools section goes first, then the least relevant observation lines.
  if (text.length > SESSION_CONTEXT_BUDGET && tools) {
    tools = '';
    text = render(sections, tools, input.now);
  }
  while (text.length > SESSION_CONTEXT_BUDGET) {
    const candidates = sections.flatMap((section) => section.lines.map((line) => ({ section, line })));
    if (candidates.length === 0) break;
    const least = candidates.reduce((a, b) =>
      b.line.relevance < a.line.relevance || (b.line.relevance === a.line.relevance && b.line.at < a.line.at)
        ? b
        : a,
    );
    least.section.lines.splice(least.section.lines.indexOf(least.line), 1);
    text = render(sections, tools, input.now);
  }
  if (text.length > SESSION_CONTEXT_BUDGET) {
    // Only the summary is left and it alone is too long: cut it so the budget still holds.
    const summary = sections[0];
    const excess = text.length - SESSION_CONTEXT_BUDGET;
    summary.body = `${summary.body!.slice(0, Math.max(0, summary.body!.length - excess - 3))}...`;
    text = render(sections, tools, input.now);
  }
  const sizes = sections
    .filter((section) => section.body || section.lines.length)
    .map((section) => ({
      title: section.title,
      chars: renderSection(section, input.now).length,
      lines: section.lines.length,
    }));
  if (tools)
    sizes.push({ title: 'Available Tools', chars: tools.length, lines: tools.split('\n').length - 1 });
  return { text, chars: text.length, toolsChars: tools.length, sections: sizes };
}
