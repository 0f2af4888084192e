/**
 * A conversation's message as a transcript line gives it, in neutral form: what an agent whose session file is
 * its messages (the Messages API's user, assistant and tool blocks, one line each) says a message held. An
 * adapter's `transcripts.parseLine` (agents/adapter.ts) reads its own line format into this; the import
 * (transcripts/) and the live gauge (live/) read only this.
 */
import { type Json, isObject, jsonText } from './jsonValues';

export type { Json } from './jsonValues';

export interface Usage {
  input: number;
  cacheCreation: number;
  cacheRead: number;
  output: number;
}

export interface ToolUse {
  id: string;
  name: string;
  /** What the call is about, for context items: a file path, a skill's name, a subagent's type. */
  target?: string;
  /** The call's arguments, as the PostToolUse hook reports them (`tool_input`). */
  input: Json;
}

export interface ToolResult {
  toolUseId: string;
  /** Tools whose schemas the result loads (`tool_reference` blocks of a ToolSearch result). */
  toolReferences?: string[];
  isError: boolean;
  /** The result's text when it is an error (the message shown to the model); undefined otherwise. */
  errorText?: string;
  /** Characters of the result the model read: what it occupies in the context. */
  chars: number;
  /** The result as the model read it: a string or content blocks (see contentText). */
  content: unknown;
  /**
   * The line's `toolUseResult` when the line holds this result alone: what the PostToolUse hook reports as
   * `tool_response` (stdout and stderr, whether a Write created or updated its file...).
   */
  toolUseResult?: unknown;
}

export interface TranscriptEntry {
  /** `user`, `assistant`, `system`, `summary`, ...; undefined on usage-only lines written by older versions. */
  type?: string;
  subtype?: string;
  sessionId?: string;
  uuid?: string;
  /** Epoch ms of the line's `timestamp`. */
  at?: number;
  cwd?: string;
  /** Written by a subagent (Task tool): not part of the main conversation's context. */
  sidechain: boolean;
  /** Added by Claude Code itself (reminders, command caveats), not typed by the user. */
  meta: boolean;
  /** The summary Claude Code writes as a user line right after a compaction. */
  compactSummary: boolean;
  /** `message.id` + `requestId`: every line of one API response repeats it (and the same usage). */
  responseKey?: string;
  model?: string;
  usage?: Usage;
  toolUses: ToolUse[];
  toolResults: ToolResult[];
  /** The text of a user message (string content, or its text blocks joined); undefined when it has none. */
  userText?: string;
  /** The text blocks of an assistant message, joined: what the agent said to the user. */
  assistantText?: string;
  /** `compactMetadata.preTokens` of a `compact_boundary` line. */
  preTokens?: number;
  /** `compactMetadata.trigger` of a `compact_boundary` line: `manual` or `auto`. */
  compactTrigger?: string;
  /** `compactMetadata.preCompactDiscoveredTools`: tools whose schemas stay loaded across the compaction. */
  discoveredTools?: string[];
  /**
   * Characters the message puts in the context besides tool results: text blocks (an image counts as
   * IMAGE_CHARS) of a user message, text blocks of an assistant message.
   */
  textChars: number;
  /** Characters of an assistant message's thinking blocks. */
  thinkingChars: number;
  /** The start of the message's first text, for labels. */
  firstText?: string;
  /** The text of a `system` line (a local command's output, such as `/context`). */
  systemText?: string;
  /** What an `attachment` line adds to the context, for the kinds the breakdown counts. */
  attachment?: TranscriptAttachment;
}

/**
 * Attachment lines (`{"type": "attachment", "attachment": {...}}`) record what Claude Code put in the
 * context besides messages. Shapes as current Claude Code writes them: `hook_additional_context`
 * (`content`: strings), `hook_success` (`stdout`), `skill_listing` (`content`), `deferred_tools_delta`
 * (`addedNames`, `addedLines`), `mcp_instructions_delta` (`addedNames` with `addedBlocks`), `nested_memory`
 * (`path`, `content.content`) and `invoked_skills` (`skills: [{name, path, content}]`).
 */
export type TranscriptAttachment =
  | { type: 'hook_context'; hookName?: string; hookEvent?: string; text: string }
  | { type: 'hook_output'; hookName?: string; hookEvent?: string; stdout: string }
  | { type: 'skill_listing'; content: string }
  | { type: 'deferred_tools'; added: Array<{ name: string; chars: number }> }
  | { type: 'mcp_instructions'; added: Array<{ server: string; chars: number }> }
  | { type: 'nested_memory'; path?: string; chars: number }
  | { type: 'invoked_skills'; skills: Array<{ name: string; path?: string; chars: number }> };

/** What a transcript file says about itself, beyond its lines; the lines read so far update its time. */
export interface TranscriptFileContext {
  /** The session of lines that record none: the file's first recorded session, else the one its path says. */
  sessionId: string;
  /** A subagent's file: its tool calls count, its prompts and model are the subagent's, not the user's. */
  subagent: boolean;
  /** When lines carry no timestamp: the last timestamp seen, else the file's modification time. */
  lastAt: number;
}

export type ParsedTranscriptLine = { ok: true; entry: TranscriptEntry } | { ok: false; reason: string };

/** Text of a tool result or message content: a string, or the text of its `text` blocks. */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const item of content) {
    const block = isObject(item) ? item : undefined;
    const text = jsonText(block?.text);
    if (text !== undefined && block?.type === 'text') parts.push(text);
  }
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/** Context tokens of a response: everything the model read, i.e. the conversation so far. */
export function contextTokens(usage: Usage): number {
  return usage.input + usage.cacheCreation + usage.cacheRead;
}
