/**
 * The hook events that transcript lines stand for, so imported history is remembered by the same
 * summariser as hook events (memory/summarise.ts): a tool use with its result is a PostToolUse (or
 * PostToolUseFailure), a prompt a UserPromptSubmit, a `compact_boundary` a PreCompact, its summary line a
 * PostCompact, a turn's last assistant text a Stop, and the result of a subagent's Task also that subagent's
 * SubagentStop.
 */
import { claudePayloads } from '../agents/claudeCode/payload';
import type { EventPayload } from '../events/eventLine';
import { type MemoryItem, analyseAgentEvent } from '../memory/eventMemory';
import { type Json, type ToolResult, contentText } from '../agents/claudeCode/transcriptLine';

/** What every hook payload of the session carries. */
export interface EventBase {
  session_id: string;
  cwd?: string;
}

/** The tool that runs a subagent (`Agent` in newer Claude Code versions). */
const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);
/** The result Claude Code writes when the user stops a running tool; the hook reports `is_interrupt`. */
const INTERRUPTED = '[Request interrupted by user';
/** Newer versions end a subagent's result with its id (for resuming it); SubagentStop has no such line. */
const AGENT_ID_LINE = /\s*\bagent_?[Ii]d: \S+[^\n]*\s*$/;

/** The hook payload a line stands for, remembered as the hook event would be. */
function analyseForMemory(payload: EventPayload, hookEventName: string): MemoryItem | undefined {
  const event = claudePayloads.normalise({ ...payload, hook_event_name: hookEventName });
  return event && analyseAgentEvent(event);
}

function present(items: Array<MemoryItem | undefined>): MemoryItem[] {
  return items.filter((item): item is MemoryItem => item !== undefined);
}

/** What a finished tool call is remembered as: its PostToolUse (or failure) and a subagent's report. */
export function toolCallMemory(name: string, input: Json, result: ToolResult, base: EventBase): MemoryItem[] {
  const call: EventPayload = { ...base, tool_name: name, tool_input: input, tool_use_id: result.toolUseId };
  if (result.isError) {
    const error = result.errorText ?? '';
    return present([
      analyseForMemory({ ...call, error, is_interrupt: error.startsWith(INTERRUPTED) }, 'PostToolUseFailure'),
    ]);
  }
  const response = result.toolUseResult ?? contentText(result.content);
  const items = [analyseForMemory({ ...call, tool_response: response }, 'PostToolUse')];
  if (SUBAGENT_TOOLS.has(name)) {
    const agentType = typeof input.subagent_type === 'string' ? input.subagent_type : 'general-purpose';
    const report = contentText(result.content)?.replace(AGENT_ID_LINE, '');
    items.push(
      analyseForMemory({ ...base, agent_type: agentType, last_assistant_message: report }, 'SubagentStop'),
    );
  }
  return present(items);
}

export function promptMemory(prompt: string, base: EventBase): MemoryItem | undefined {
  return analyseForMemory({ ...base, prompt }, 'UserPromptSubmit');
}

/** The summary Claude Code writes as a user line after a compaction, as its PostCompact hook reports it. */
export function compactSummaryMemory(summary: string, base: EventBase): MemoryItem | undefined {
  return analyseForMemory({ ...base, compact_summary: summary }, 'PostCompact');
}

/** A turn's last assistant text, as its Stop reports it (`last_assistant_message`). */
export function reportMemory(message: string, base: EventBase): MemoryItem | undefined {
  return analyseForMemory({ ...base, last_assistant_message: message }, 'Stop');
}

/** A compaction; the transcript does not keep the instructions a `/compact` was given. */
export function compactionMemory(trigger: string | undefined, base: EventBase): MemoryItem | undefined {
  return analyseForMemory({ ...base, trigger }, 'PreCompact');
}
