/**
 * What sits in a session's context, from its transcript: files read or edited, skills loaded, subagent
 * outputs and MCP servers called, each with its accesses, its tool results and the tokens they occupy
 * (estimated from characters; the breakdown measures them). A compaction rebuilds the context from a
 * summary, so everything before it is forgotten.
 */
import type { ContextItemType } from '../../shared/context';
import type { ToolResult, ToolUse } from '../agents/transcriptEntry';

/** One tool result that put an item into the context, with its size estimated from its characters. */
export interface ResultSize {
  toolUseId: string;
  tokens: number;
}

export interface ContextItem {
  /** Stable across refreshes, e.g. `file:/repo/src/api.ts`; pins and dismissals refer to it. */
  id: string;
  type: ContextItemType;
  /** A path for files, a name otherwise; for a tool result, what it is about (the command, the URL). */
  name: string;
  tags?: string[];
  /** Accesses since the session (or its last compaction) began: reads, edits, calls. */
  accesses: number;
  /** The last access; for an item not used yet, when it entered the context. */
  lastAccessAt: number;
  /** The last time the agent changed this file (Edit, Write): it belongs to the current task. */
  editedAt?: number;
  /** Tokens it occupies in the context: what dropping it saves. */
  tokens: number;
  /** True when `tokens` is the transcript's own measure; false when estimated (characters / 4, a share). */
  measured: boolean;
  /** What `tokens` is made of, e.g. `tool names and instructions 1.2k + 3 results 900`. */
  detail?: string;
  /** The tool results that put it into the context (the transcript's tool calls). */
  results?: ResultSize[];
  /** The tool behind a tool result (`Bash`, `mcp__github__search_issues`). */
  tool?: string;
}

/** Tools whose results put a nameable item into the context. */
const ITEM_TOOLS: Readonly<Record<string, ContextItemType>> = {
  Read: 'file',
  NotebookRead: 'file',
  Edit: 'file',
  MultiEdit: 'file',
  Write: 'file',
  NotebookEdit: 'file',
  Skill: 'skill',
  Task: 'subagent',
  Agent: 'subagent',
};
/** Tools that change a file: the file belongs to the current task. */
const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

/** Characters per token, the estimate used throughout (seed 003). */
const CHARS_PER_TOKEN = 4;

interface PendingItem {
  type: ContextItemType;
  name: string;
  edit: boolean;
}

function itemOf(use: ToolUse): PendingItem | undefined {
  const mcp = /^mcp__(.+?)__/.exec(use.name);
  if (mcp) return { type: 'mcp_server', name: mcp[1], edit: false };
  const type = ITEM_TOOLS[use.name];
  return type && use.target ? { type, name: use.target, edit: EDIT_TOOLS.has(use.name) } : undefined;
}

export interface PromptState {
  latest?: string;
  /** Prompts since the session (or its last compaction) began. */
  count: number;
}

type TrackedItem = ContextItem & { results: ResultSize[] };

export class ContextItemsTracker {
  private readonly items = new Map<string, TrackedItem>();
  private readonly pending = new Map<string, PendingItem>();
  readonly prompts: PromptState = { count: 0 };

  use(use: ToolUse): void {
    const item = itemOf(use);
    if (item) this.pending.set(use.id, item);
  }

  result(result: ToolResult, at: number): void {
    const item = this.pending.get(result.toolUseId);
    if (!item) return;
    this.pending.delete(result.toolUseId);
    const id = `${item.type}:${item.name}`;
    const tokens = Math.ceil(result.chars / CHARS_PER_TOKEN);
    const known: TrackedItem = this.items.get(id) ?? {
      id,
      type: item.type,
      name: item.name,
      accesses: 0,
      lastAccessAt: at,
      tokens: 0,
      measured: false,
      results: [],
    };
    known.accesses++;
    known.lastAccessAt = Math.max(known.lastAccessAt, at);
    known.tokens += tokens;
    known.results.push({ toolUseId: result.toolUseId, tokens });
    if (item.edit) known.editedAt = Math.max(known.editedAt ?? at, at);
    this.items.set(id, known);
  }

  prompt(text: string): void {
    this.prompts.latest = text;
    this.prompts.count++;
  }

  compaction(): void {
    this.items.clear();
    this.pending.clear();
    this.prompts.count = 0;
  }

  list(): ContextItem[] {
    return [...this.items.values()].map((item) => ({ ...item, results: [...item.results] }));
  }
}
