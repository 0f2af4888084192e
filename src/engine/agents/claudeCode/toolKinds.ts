/**
 * Claude Code's tool names: built-ins are plain names (Read, Bash...), MCP tools `mcp__<server>__<tool>`
 * (plugin servers `mcp__plugin_<plugin>_<server>__<tool>`).
 */
import type { ToolKind } from '../types';

const BUILTIN_KINDS: Readonly<Record<string, ToolKind>> = {
  Edit: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'edit',
  Write: 'write',
  Read: 'read',
  NotebookRead: 'read',
  LS: 'read',
  Bash: 'shell',
  BashOutput: 'shell',
  PowerShell: 'shell',
  Grep: 'search',
  Glob: 'search',
  ToolSearch: 'search',
  WebSearch: 'web-search',
  WebFetch: 'fetch',
  Task: 'subagent',
  Agent: 'subagent',
};

/** The server of an MCP tool name, or undefined for built-ins. */
export function claudeMcpServer(name: string): string | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  return match && match[2] !== '*' ? match[1] : undefined;
}

export function claudeToolKind(name: string): ToolKind {
  if (name.startsWith('mcp__')) return 'mcp';
  return BUILTIN_KINDS[name] ?? 'other';
}
