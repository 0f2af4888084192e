/** What a person recognises an item of the context by: the file, the command, the URL, the MCP tool. */
import * as path from 'node:path';
import type { BreakdownItemKind } from '../../shared/context';
import type { BreakdownItemRef } from './breakdownTypes';
import type { Json, ToolResult, ToolUse } from '../agents/transcriptEntry';

const MAX_LABEL = 160;

/** One line of at most MAX_LABEL characters (a fresh string: a label never holds a large text alive). */
export function clip(text: string): string {
  const line = text
    .slice(0, MAX_LABEL * 2)
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > MAX_LABEL ? `${line.slice(0, MAX_LABEL - 1)}…` : line;
}

function string(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined;
}

function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A path inside the project relative to it, any other as written. */
export function shownPath(file: string, projectRoot: string | undefined): string {
  if (!projectRoot || !path.isAbsolute(file)) return file;
  const relative = path.relative(projectRoot, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

export interface DescribedResult {
  kind: BreakdownItemKind;
  label: string;
  ref: BreakdownItemRef;
}

/** The lines a Read returned: from its result's `file` record, else from its offset and limit. */
function readLines(input: Json, result: ToolResult): Pick<BreakdownItemRef, 'line' | 'endLine'> {
  const record = result.toolUseResult as { file?: { startLine?: unknown; numLines?: unknown } } | undefined;
  const start = number(record?.file?.startLine) ?? number(input.offset);
  const count = number(record?.file?.numLines) ?? number(input.limit);
  if (start === undefined) return count === undefined ? {} : { line: 1, endLine: count };
  return count === undefined ? { line: start } : { line: start, endLine: start + Math.max(count, 1) - 1 };
}

/** The first string argument of a call, for tools without a better one. */
function firstArgument(input: Json): string | undefined {
  for (const value of Object.values(input)) if (string(value)) return value as string;
  return undefined;
}

/** What a tool result is: its kind, label and what a click opens (a tool call whose use is unknown too). */
export function describeResult(
  use: ToolUse | undefined,
  result: ToolResult,
  projectRoot: string | undefined,
): DescribedResult {
  const ref: BreakdownItemRef = { toolUseId: result.toolUseId, tool: use?.name };
  if (!use) return { kind: 'tool_result', label: 'tool result', ref };
  const input = use.input;
  const file = string(input.file_path) ?? string(input.notebook_path);
  const labelled = (kind: BreakdownItemKind, label: string, extra: BreakdownItemRef = {}) => ({
    kind,
    label: clip(label),
    ref: { ...ref, ...extra },
  });
  const mcp = /^mcp__(.+?)__(.+)$/.exec(use.name);
  if (mcp) {
    const argument = firstArgument(input);
    return labelled('tool_result', `${mcp[1]} ${mcp[2]}${argument ? ` ${argument}` : ''}`);
  }
  switch (use.name) {
    case 'Read':
    case 'NotebookRead':
      return file
        ? labelled('file_read', shownPath(file, projectRoot), { file, ...readLines(input, result) })
        : labelled('file_read', use.name);
    case 'Task':
    case 'Agent': {
      const agent = string(input.subagent_type) ?? 'agent';
      const task = string(input.description) ?? string(input.prompt);
      return labelled('subagent_result', task ? `${agent}: ${task}` : agent);
    }
    case 'Bash':
      return labelled('tool_result', `$ ${string(input.command) ?? ''}`);
    case 'Grep': {
      const where = string(input.path);
      return labelled(
        'tool_result',
        `grep ${string(input.pattern) ?? ''}${where ? ` in ${shownPath(where, projectRoot)}` : ''}`,
      );
    }
    case 'Glob':
      return labelled('tool_result', `glob ${string(input.pattern) ?? ''}`);
    case 'WebFetch':
      return labelled('tool_result', string(input.url) ?? use.name);
    case 'WebSearch':
      return labelled('tool_result', `search ${string(input.query) ?? ''}`);
    case 'Skill':
      return labelled('tool_result', `skill ${string(input.skill) ?? ''}`);
    default:
      return file
        ? labelled('tool_result', `${use.name} ${shownPath(file, projectRoot)}`, { file })
        : labelled('tool_result', `${use.name}${firstArgument(input) ? ` ${firstArgument(input)}` : ''}`);
  }
}
