/**
 * What sits in a session's context, from its transcript: files read, skills loaded, subagent outputs and
 * MCP servers called, each with its accesses and the tokens its results occupy. A compaction rebuilds the
 * context from a summary, so everything before it is forgotten.
 */
import type { ContextItem, ContextItemType } from '../pruning/advisor';
import type { ToolResult, ToolUse } from './transcriptLine';

/** Tools whose results put a nameable item into the context. */
const ITEM_TOOLS: Readonly<Record<string, ContextItemType>> = {
  Read: 'file',
  NotebookRead: 'file',
  Skill: 'skill',
  Task: 'subagent',
  Agent: 'subagent',
};

/** Characters per token, the estimate used throughout (seed 003). */
const CHARS_PER_TOKEN = 4;

function itemOf(use: ToolUse): { type: ContextItemType; name: string } | undefined {
  const mcp = /^mcp__(.+?)__/.exec(use.name);
  if (mcp) return { type: 'mcp_server', name: mcp[1] };
  const type = ITEM_TOOLS[use.name];
  return type && use.target ? { type, name: use.target } : undefined;
}

export interface PromptState {
  latest?: string;
  /** Prompts since the session (or its last compaction) began. */
  count: number;
}

export class ContextItemsTracker {
  private readonly items = new Map<string, ContextItem>();
  private readonly pending = new Map<string, { type: ContextItemType; name: string }>();
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
    const known = this.items.get(id);
    if (known) {
      known.accesses++;
      known.lastAccessAt = Math.max(known.lastAccessAt, at);
      known.estimatedTokens = (known.estimatedTokens ?? 0) + tokens;
    } else {
      this.items.set(id, {
        id,
        type: item.type,
        name: item.name,
        accesses: 1,
        lastAccessAt: at,
        estimatedTokens: tokens,
      });
    }
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
    return [...this.items.values()].map((item) => ({ ...item }));
  }
}
