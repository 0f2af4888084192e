/**
 * The neutral form every agent's hook payloads and session files are read into. Ingest, the summariser,
 * the registry and the UI consume these, never one agent's field or tool names; an adapter per agent
 * (`agents/<agent>/`) does the translating. Pure data, so it crosses to parse workers.
 */

import type { AgentId } from '../../shared/agents';

/**
 * What a tool does, whatever the agent calls it: `edit` changes part of a file, `write` writes a whole file,
 * `search` looks through the workspace, `web-search` through the web, `fetch` reads a URL, `mcp` is a
 * tool of an MCP server, `subagent` runs another agent.
 */
export const TOOL_KINDS = [
  'edit',
  'write',
  'read',
  'shell',
  'search',
  'web-search',
  'fetch',
  'mcp',
  'subagent',
  'other',
] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

/** What happened, whatever the agent's event is named. */
export type EventKind =
  | 'session-start'
  | 'session-end'
  | 'prompt'
  | 'tool-start'
  | 'tool-end'
  | 'tool-failed'
  | 'compact'
  /** After a compaction, with the agent's own summary of what was compacted (Claude Code's PostCompact). */
  | 'compacted'
  | 'stop'
  | 'subagent-stop'
  | 'other';

/** The arguments of a tool call that the memory and the context items use; every field optional. */
export interface ToolInput {
  /** The file read, written or edited (absolute or relative to the session's cwd). */
  path?: string;
  /** A notebook rather than a source file. */
  notebook?: boolean;
  /** A shell command line. */
  command?: string;
  url?: string;
  /** A web search's query, or a workspace search's pattern. */
  query?: string;
  /** What a fetch looks for, or a subagent's task. */
  prompt?: string;
  /** The whole new content of a write. */
  content?: string;
  /** An edit's replacements in order; a first `before` of '' creates the file. */
  edits?: Array<{ before?: string; after?: string }>;
  /** The subagent type a subagent tool starts. */
  subagentType?: string;
}

/** How a finished tool call went. */
export interface ToolOutcome {
  /** The agent reported the call as failed. */
  failed: boolean;
  /** The user stopped it. */
  interrupted?: boolean;
  /**
   * It never ran: the agent cancelled it because a call beside it failed, or the user declined it when asked.
   * No use of the tool and no failure: neither the registry nor the memory counts it.
   */
  notRun?: 'cancelled' | 'declined';
  /** A write that created its file (true) or replaced one (false); undefined when not said. */
  created?: boolean;
  /** A shell command's exit code. */
  exitCode?: number;
  /** The output the tool printed (stdout and stderr), as text. */
  output?: string;
  /** The error text of a failed call. */
  error?: string;
  durationMs?: number;
}

export interface ToolCall {
  /** The agent's own name for the tool, as the registry lists it. */
  name: string;
  kind: ToolKind;
  /** The MCP server of an `mcp` tool. */
  server?: string;
  /** The agent's id for this call, pairing its start and end. */
  useId?: string;
  input: ToolInput;
  /** Set on `tool-end` and `tool-failed`. */
  outcome?: ToolOutcome;
}

export interface AgentEvent {
  agent: AgentId;
  kind: EventKind;
  /** The agent's own name for the event, as stored in the `events` table. */
  name: string;
  sessionId?: string;
  cwd?: string;
  /** The agent's session file, where it keeps one. */
  transcriptPath?: string;
  model?: string;
  /** How a session started: startup, resume, clear, compact... */
  source?: string;
  /** Why a session ended. */
  endReason?: string;
  /** The prompt of a `prompt` event. */
  prompt?: string;
  tool?: ToolCall;
  /** `main`, or the subagent (or opencode agent) whose event this is. */
  agentType?: string;
  /** `compact`: `auto` or `manual`, and a manual compaction's instructions. */
  trigger?: string;
  instructions?: string;
  /**
   * `subagent-stop`: the subagent's final message; `stop`: the agent's last message of the turn (its report
   * to the user: Claude Code's and Codex's `last_assistant_message`, a transcript's last assistant text).
   */
  message?: string;
  /** `compacted`: the summary the agent wrote of the conversation it compacted (`compact_summary`). */
  summary?: string;
}
