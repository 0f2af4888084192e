/**
 * Claude Code's transcript lines as session items (agents/adapter.ts), and a finished call as the hook
 * events it stands for: a tool use with its result is a PostToolUse (or PostToolUseFailure), read by the
 * agent's own payload reader, and the result of a subagent's Task also that subagent's SubagentStop. So
 * imported history is remembered by the same summariser as hook events.
 */
import { createHash } from 'node:crypto';
import type { EventPayload } from '../../events/eventLine';
import type { SessionItem, ToolUseItem } from '../adapter';
import {
  type ToolResult,
  type TranscriptEntry,
  type TranscriptFileContext,
  contentText,
} from '../transcriptEntry';
import type { AgentEvent } from '../types';
import { claudePayloads } from './payload';
import { promptText } from './promptText';

/** Messages Claude Code writes itself (API errors, "no response requested") carry this model and no usage. */
const SYNTHETIC_MODEL = '<synthetic>';
/** The tool that runs a subagent (`Agent` in newer Claude Code versions). */
const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);
/** The result Claude Code writes when the user stops a running tool; the hook reports `is_interrupt`. */
const INTERRUPTED = '[Request interrupted by user';
/** Newer versions end a subagent's result with its id (for resuming it); SubagentStop has no such line. */
const AGENT_ID_LINE = /\s*\bagent_?[Ii]d: \S+[^\n]*\s*$/;

export function transcriptItems(entry: TranscriptEntry, file: TranscriptFileContext): SessionItem[] {
  if (entry.at !== undefined) file.lastAt = entry.at;
  const at = entry.at ?? file.lastAt;
  const sessionId = entry.sessionId ?? file.sessionId;
  // A `summary` line titles a conversation (often an earlier one), a `file-history-snapshot` records file
  // backups, with no time of its own: no activity of any session (stamped with the file's time, a copied
  // or touched transcript's session would seem to be running still).
  if (entry.type === 'summary' || entry.type === 'file-history-snapshot') return [];
  const own = !file.subagent && !entry.sidechain;
  const items: SessionItem[] = [
    {
      type: 'session',
      sessionId,
      at,
      cwd: entry.cwd,
      model: own && entry.model !== SYNTHETIC_MODEL ? entry.model : undefined,
    },
  ];
  for (const use of entry.toolUses)
    items.push({ type: 'tool-use', sessionId, at, useId: use.id, name: use.name, input: use.input });
  for (const result of entry.toolResults) items.push({ type: 'tool-result', sessionId, at, result });
  const prompt = file.subagent ? undefined : promptText(entry);
  if (prompt !== undefined) {
    const key =
      entry.uuid ?? `${sessionId}:${at}:${createHash('sha1').update(prompt).digest('hex').slice(0, 16)}`;
    items.push({ type: 'prompt', sessionId, at, key, text: prompt });
  }
  if (!own) return items;
  if (entry.subtype === 'compact_boundary')
    items.push({ type: 'compact', sessionId, at, trigger: entry.compactTrigger });
  // The agent's own words: its summary when it compacted, and what it last said to the user.
  if (entry.compactSummary && entry.userText)
    items.push({ type: 'compact-summary', sessionId, at, text: entry.userText });
  if (entry.type === 'assistant' && entry.assistantText?.trim() && entry.model !== SYNTHETIC_MODEL)
    items.push({ type: 'report', sessionId, at, text: entry.assistantText, key: entry.responseKey });
  return items;
}

function hookEvent(payload: EventPayload, hookEventName: string): AgentEvent | undefined {
  return claudePayloads.normalise({ ...payload, hook_event_name: hookEventName });
}

export function transcriptToolEvents(
  use: ToolUseItem,
  result: ToolResult,
  cwd: string | undefined,
): AgentEvent[] {
  const base = { session_id: use.sessionId, cwd };
  const call: EventPayload = { ...base, tool_name: use.name, tool_input: use.input, tool_use_id: use.useId };
  if (result.isError) {
    const error = result.errorText ?? '';
    const failed = hookEvent(
      { ...call, error, is_interrupt: error.startsWith(INTERRUPTED) },
      'PostToolUseFailure',
    );
    return failed ? [failed] : [];
  }
  const response = result.toolUseResult ?? contentText(result.content);
  const events = [hookEvent({ ...call, tool_response: response }, 'PostToolUse')];
  if (SUBAGENT_TOOLS.has(use.name)) {
    const agentType =
      typeof use.input.subagent_type === 'string' ? use.input.subagent_type : 'general-purpose';
    const report = contentText(result.content)?.replace(AGENT_ID_LINE, '');
    events.push(
      hookEvent({ ...base, agent_type: agentType, last_assistant_message: report }, 'SubagentStop'),
    );
  }
  return events.filter((event): event is AgentEvent => event !== undefined);
}
