/**
 * The hook events that transcript lines stand for, read by the agent's own payload reader, so imported
 * history is remembered by the same summariser as hook events (memory/summarise.ts): a tool use with its result is a PostToolUse (or
 * PostToolUseFailure), a prompt a UserPromptSubmit, a `compact_boundary` a PreCompact, its summary line a
 * PostCompact, a turn's last assistant text a Stop, and the result of a subagent's Task also that subagent's
 * SubagentStop.
 */
import type { PayloadReader } from '../agents/adapter';
import type { EventPayload } from '../events/eventLine';
import { type MemoryItem, analyseAgentEvent } from '../memory/eventMemory';
import { type Json, type ToolResult, contentText } from '../agents/transcriptEntry';

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

function present(items: Array<MemoryItem | undefined>): MemoryItem[] {
  return items.filter((item): item is MemoryItem => item !== undefined);
}

/** What each kind of transcript line is remembered as, through `payloads`, the agent's hook payload reader. */
export class TranscriptMemory {
  constructor(private readonly payloads: PayloadReader) {}

  /** What a finished tool call is remembered as: its PostToolUse (or failure) and a subagent's report. */
  toolCall(name: string, input: Json, result: ToolResult, base: EventBase): MemoryItem[] {
    const call: EventPayload = { ...base, tool_name: name, tool_input: input, tool_use_id: result.toolUseId };
    if (result.isError) {
      const error = result.errorText ?? '';
      return present([
        this.analyse({ ...call, error, is_interrupt: error.startsWith(INTERRUPTED) }, 'PostToolUseFailure'),
      ]);
    }
    const response = result.toolUseResult ?? contentText(result.content);
    const items = [this.analyse({ ...call, tool_response: response }, 'PostToolUse')];
    if (SUBAGENT_TOOLS.has(name)) {
      const agentType = typeof input.subagent_type === 'string' ? input.subagent_type : 'general-purpose';
      const report = contentText(result.content)?.replace(AGENT_ID_LINE, '');
      items.push(
        this.analyse({ ...base, agent_type: agentType, last_assistant_message: report }, 'SubagentStop'),
      );
    }
    return present(items);
  }

  prompt(prompt: string, base: EventBase): MemoryItem | undefined {
    return this.analyse({ ...base, prompt }, 'UserPromptSubmit');
  }

  /** The summary the agent writes as a user line after a compaction, as its PostCompact hook reports it. */
  compactSummary(summary: string, base: EventBase): MemoryItem | undefined {
    return this.analyse({ ...base, compact_summary: summary }, 'PostCompact');
  }

  /** A turn's last assistant text, as its Stop reports it (`last_assistant_message`). */
  report(message: string, base: EventBase): MemoryItem | undefined {
    return this.analyse({ ...base, last_assistant_message: message }, 'Stop');
  }

  /** A compaction; the transcript does not keep the instructions a `/compact` was given. */
  compaction(trigger: string | undefined, base: EventBase): MemoryItem | undefined {
    return this.analyse({ ...base, trigger }, 'PreCompact');
  }

  /** The hook payload a line stands for, remembered as the hook event would be. */
  private analyse(payload: EventPayload, hookEventName: string): MemoryItem | undefined {
    const event = this.payloads.normalise({ ...payload, hook_event_name: hookEventName });
    return event && analyseAgentEvent(event);
  }
}
