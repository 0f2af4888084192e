/**
 * One line of a Claude Code transcript (`~/.claude/projects/<encoded cwd>/<session>.jsonl`), reduced to the
 * facts Context Deck uses. Claude Code's line format is undocumented and changes between versions, so every
 * field is optional and anything of an unexpected type is treated as absent.
 */
import { IMPLAUSIBLE_TOKENS, plausibleTokens } from '../tokenCounts';
import { type Json, isObject, jsonText as string } from '../jsonValues';
import {
  type ParsedTranscriptLine,
  type TranscriptAttachment,
  type TranscriptEntry,
  type Usage,
  contentText,
} from '../transcriptEntry';

function object(value: unknown): Json | undefined {
  return isObject(value) ? value : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

function epochMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Every count the usage gives is a plausible number (an absent one is 0). */
function usagePlausible(value: unknown): boolean {
  const usage = object(value);
  return !usage || USAGE_FIELDS.every((field) => usage[field] === undefined || plausibleTokens(usage[field]));
}

const USAGE_FIELDS = [
  'input_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
  'output_tokens',
];

function usageOf(value: unknown): Usage | undefined {
  const usage = object(value);
  if (!usage) return undefined;
  return {
    input: count(usage.input_tokens),
    cacheCreation: count(usage.cache_creation_input_tokens),
    cacheRead: count(usage.cache_read_input_tokens),
    output: count(usage.output_tokens),
  };
}

/**
 * Parses one complete line (without its newline). A line is malformed when it is not a JSON object or has
 * neither a `type` nor a `message`: nothing of a transcript can be read from it.
 */
export function parseTranscriptLine(text: string): ParsedTranscriptLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not JSON: ${(error as Error).message}` };
  }
  const line = object(value);
  if (!line) return { ok: false, reason: 'not a JSON object' };
  const type = string(line.type);
  const message = object(line.message);
  if (type === undefined && !message) return { ok: false, reason: 'neither a type nor a message' };

  const entry: TranscriptEntry = {
    type,
    subtype: string(line.subtype),
    sessionId: string(line.sessionId),
    uuid: string(line.uuid),
    at: epochMs(line.timestamp),
    cwd: string(line.cwd),
    sidechain: line.isSidechain === true,
    meta: line.isMeta === true,
    compactSummary: line.isCompactSummary === true,
    toolUses: [],
    toolResults: [],
    textChars: 0,
    thinkingChars: 0,
  };
  if (entry.subtype === 'compact_boundary') {
    const metadata = object(line.compactMetadata);
    const preTokens = metadata?.preTokens;
    if (typeof preTokens === 'number' && Number.isFinite(preTokens)) entry.preTokens = preTokens;
    entry.compactTrigger = string(metadata?.trigger);
    const discovered = strings(metadata?.preCompactDiscoveredTools);
    if (discovered.length > 0) entry.discoveredTools = discovered;
  }
  if (type === 'system') entry.systemText = string(line.content);
  if (type === 'attachment') entry.attachment = attachmentOf(line.attachment);
  if (!message) return { ok: true, entry };

  const messageId = string(message.id);
  const requestId = string(line.requestId);
  if (messageId !== undefined || requestId !== undefined)
    entry.responseKey = `${messageId ?? ''}\u0000${requestId ?? ''}`;
  entry.model = string(message.model);
  if (!usagePlausible(message.usage)) return { ok: false, reason: IMPLAUSIBLE_TOKENS };
  entry.usage = usageOf(message.usage);

  const role = string(message.role) ?? type;
  const content = message.content;
  if (typeof content === 'string') {
    if (role === 'user') entry.userText = content;
    entry.textChars = content.length;
    entry.firstText = content.slice(0, FIRST_TEXT_CHARS);
  } else if (Array.isArray(content)) {
    for (const item of content) {
      const block = object(item);
      if (!block) continue;
      if (block.type === 'text' || block.type === 'image' || block.type === 'document') {
        entry.textChars += blockChars(block);
        if (entry.firstText === undefined && typeof block.text === 'string' && block.text.trim())
          entry.firstText = block.text.slice(0, FIRST_TEXT_CHARS);
      } else if (block.type === 'thinking') {
        entry.thinkingChars += string(block.thinking)?.length ?? 0;
      } else if (block.type === 'tool_use') {
        const id = string(block.id);
        const name = string(block.name);
        const input = object(block.input) ?? {};
        if (id && name) entry.toolUses.push({ id, name, target: targetOf(input), input });
      } else if (block.type === 'tool_result') {
        const toolUseId = string(block.tool_use_id);
        if (!toolUseId) continue;
        const isError = block.is_error === true;
        entry.toolResults.push({
          toolUseId,
          isError,
          errorText: isError
            ? (contentText(block.content) ?? JSON.stringify(block.content ?? null))
            : undefined,
          chars: charsOf(block.content),
          content: block.content,
          toolReferences: toolReferences(block.content),
        });
      }
    }
    if (entry.toolResults.length === 1 && line.toolUseResult !== undefined)
      entry.toolResults[0].toolUseResult = line.toolUseResult;
    if (role === 'user') entry.userText = contentText(content);
    else if (role === 'assistant') entry.assistantText = contentText(content);
  }
  return { ok: true, entry };
}

/** The input field that names what a tool call is about, for the tools that put things in context. */
function targetOf(input: Json): string | undefined {
  return (
    string(input.file_path) ??
    string(input.notebook_path) ??
    string(input.skill) ??
    string(input.subagent_type) ??
    string(input.command)
  );
}

/**
 * What an image or document block weighs, in characters at 4 a token: the API bills an image by its size
 * (about 1,600 tokens for one at the largest size it keeps), not by the length of its base64 data.
 */
const IMAGE_CHARS = 6_400;

/** Characters one content block puts in the context (a tool_reference loads a schema: counted apart). */
function blockChars(item: unknown): number {
  const block = object(item);
  if (typeof block?.text === 'string') return block.text.length;
  if (block?.type === 'image' || block?.type === 'document') return IMAGE_CHARS;
  if (block?.type === 'tool_reference') return 0;
  return JSON.stringify(item ?? null).length;
}

/** Length of a tool result's content: text blocks count their text, images a fixed size, others JSON. */
function charsOf(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (Array.isArray(content)) return content.reduce<number>((sum, item) => sum + blockChars(item), 0);
  return content === undefined ? 0 : JSON.stringify(content).length;
}

function toolReferences(content: unknown): string[] | undefined {
  if (!Array.isArray(content)) return undefined;
  const names = content.flatMap((item) => {
    const block = object(item);
    const name = block?.type === 'tool_reference' ? string(block.tool_name) : undefined;
    return name ? [name] : [];
  });
  return names.length > 0 ? names : undefined;
}

/** Labels need only the start of a text: the rest is not kept. */
const FIRST_TEXT_CHARS = 200;

function attachmentOf(value: unknown): TranscriptAttachment | undefined {
  const attachment = object(value);
  const hookName = string(attachment?.hookName);
  const hookEvent = string(attachment?.hookEvent);
  switch (attachment?.type) {
    case 'hook_additional_context': {
      const content = attachment.content;
      const text = typeof content === 'string' ? content : strings(content).join('\n');
      return { type: 'hook_context', hookName, hookEvent, text };
    }
    case 'hook_success': {
      const stdout = string(attachment.stdout);
      return stdout ? { type: 'hook_output', hookName, hookEvent, stdout } : undefined;
    }
    case 'skill_listing':
      return { type: 'skill_listing', content: string(attachment.content) ?? '' };
    case 'deferred_tools_delta': {
      const names = strings(attachment.addedNames);
      const lines = strings(attachment.addedLines);
      const added = names.map((name, i) => ({ name, chars: (lines[i] ?? name).length + 1 }));
      return { type: 'deferred_tools', added };
    }
    case 'mcp_instructions_delta': {
      const blocks = strings(attachment.addedBlocks);
      const added = strings(attachment.addedNames).map((server, i) => ({
        server,
        chars: blocks[i]?.length ?? 0,
      }));
      return { type: 'mcp_instructions', added };
    }
    case 'nested_memory': {
      const content = object(attachment.content);
      const text = string(content?.content) ?? string(attachment.content);
      return { type: 'nested_memory', path: string(attachment.path), chars: text?.length ?? 0 };
    }
    case 'invoked_skills': {
      const skills = (Array.isArray(attachment.skills) ? attachment.skills : []).flatMap((item) => {
        const skill = object(item);
        const name = string(skill?.name);
        return name ? [{ name, path: string(skill?.path), chars: string(skill?.content)?.length ?? 0 }] : [];
      });
      return { type: 'invoked_skills', skills };
    }
    default:
      return undefined;
  }
}

/** The `type`s of Claude Code's transcript lines. */
const CLAUDE_LINE_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
]);
/** Lines of a file's start looked at: its first lines may be torn or of a type added since. */
const RECOGNISE_LINES = 50;

/** Whether a file's first lines are a Claude Code transcript's. */
export function recogniseClaudeTranscript(head: string): boolean {
  for (const raw of head.split('\n').slice(0, RECOGNISE_LINES)) {
    if (!raw.trimStart().startsWith('{')) continue;
    let line: Json | undefined;
    try {
      line = object(JSON.parse(raw));
    } catch {
      continue;
    }
    if (!line) continue;
    if (typeof line.type === 'string' && CLAUDE_LINE_TYPES.has(line.type)) return true;
    if (typeof line.sessionId === 'string' && object(line.message)) return true;
  }
  return false;
}
