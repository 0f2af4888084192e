/**
 * What fills a session's context, measured from its transcript line by line (the gauge feeds it the lines
 * it reads, sidechains left out).
 *
 * Every API call records its exact input (input + cache creation + cache read). The first call's input is
 * the fixed overhead (system prompt, tools, memory files, skill and MCP listings) plus what preceded it
 * (the first prompt, session-start hook context), which is estimated by its characters. Each later call's
 * growth over the one before is exactly what was added between them: the previous response takes its own
 * recorded output tokens when they are plausible, and the rest of the growth is shared by characters among
 * what the step added (a part with the growth to itself is measured, shared parts are estimated). Schemas
 * loaded by ToolSearch show only in the growth: they get what the step's other parts leave. A shortfall at
 * a new turn is thinking of earlier turns that the API leaves out; any other shortfall (a rewind) shrinks
 * what is there in proportion. A compaction or `/clear` starts the messages over from the next call.
 */
import type { BreakdownCategoryName, BreakdownItemKind } from '../../shared/context';
import type { BreakdownItemRef, ContextBreakdown } from './breakdownTypes';
import type { DiskFacts } from '../agents/contextFiles';
import { type FixedEntry, type Part, composeBreakdown, estimate } from './breakdownCompose';
import { clip, describeResult, shownPath } from './breakdownLabels';
import { type ContextCommandFigures, contextCommandFigures } from './contextCommandOutput';
import { slashCommand } from '../agents/userPrompt';
import {
  type ToolUse,
  type TranscriptAttachment,
  type TranscriptEntry,
  contextTokens,
} from '../agents/transcriptEntry';
import { largestRemainder } from './tokenShares';

/** A recorded output count below this share of what the response's text needs is a streaming placeholder. */
const PLAUSIBLE_OUTPUT = 0.5;

/** Hook events whose plain stdout Claude Code adds to the context (docs: hooks.md, "Exit code output"). */
const PLAIN_STDOUT_EVENTS = new Set(['SessionStart', 'UserPromptSubmit', 'UserPromptExpansion']);

/** What a compaction keeps: tool schemas and listings are not conversation. */
const KEPT_BY_COMPACTION = new Set<BreakdownCategoryName>(['mcp_schemas', 'mcp_tools', 'system_tools']);

/** How Claude Code starts the user line that carries an invoked skill's body. */
const SKILL_BODY = 'Base directory for this skill:';

/** `mcp__<server>__<tool>` -> server. */
function serverOf(tool: string): string | undefined {
  return /^mcp__(.+?)__./.exec(tool)?.[1];
}

/** The server segment Claude Code gives a server's tools (`claude.ai Slack` -> `claude_ai_Slack`). */
function serverSegment(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** A skill listing's entries: `- name: description` lines, each with its characters. */
function listingLines(content: string): Array<{ name: string; chars: number }> {
  return content.split('\n').flatMap((line) => {
    const name = /^- ([^:]+):/.exec(line)?.[1]?.trim();
    return name ? [{ name, chars: line.length + 1 }] : [];
  });
}

/** The context a hook's output gives: its JSON's `additionalContext`, or plain stdout for some events. */
function hookOutputContext(output: {
  hookName?: string;
  hookEvent?: string;
  stdout: string;
}): string | undefined {
  try {
    const parsed = JSON.parse(output.stdout) as {
      hookSpecificOutput?: { additionalContext?: unknown };
    } | null;
    const context = parsed?.hookSpecificOutput?.additionalContext;
    return typeof context === 'string' ? context : undefined;
  } catch {
    const event = output.hookEvent ?? output.hookName?.split(':')[0];
    return event && PLAIN_STDOUT_EVENTS.has(event) ? output.stdout : undefined;
  }
}

export class BreakdownTracker {
  /** What the context holds since the session began or was last compacted, by id. */
  private parts = new Map<string, Part>();
  /** Added since the last API call: measured by the next one. */
  private pending: Part[] = [];
  /** The response being written, and the key its lines share. */
  private output: Part | undefined;
  private outputKey: string | undefined;
  private overhead: number | undefined;
  private lastTotal = 0;
  private restart: 'compaction' | 'clear' | undefined;
  /** A prompt (or a compaction summary) came since the last call: earlier thinking may be left out. */
  private turnStarted = false;
  private thinkingParts: Part[] = [];
  /** Growth no part could take (nothing visible was added). */
  private unattributed = 0;
  /** Listings that preceded the first call: part of the fixed overhead. */
  private startupListing = '';
  private startupServers = new Map<string, { tools: number; chars: number }>();
  private startupBuiltinChars = 0;
  private announced = new Set<string>();
  private toolSearch = false;
  private toolUses = new Map<string, ToolUse>();
  private figures: ContextCommandFigures | undefined;
  private cwd: string | undefined;
  private disk: DiskFacts | undefined;
  private serial = 0;
  private version = 0;
  private cached:
    | { version: number; total: number; window: number; compactAt: number; value: ContextBreakdown }
    | undefined;

  /**
   * `readDisk` is called once, at the first call, with the session's working directory; `promptOf` is the
   * agent's reading of which entries are the user's prompts.
   */
  constructor(
    private readonly readDisk: (cwd: string | undefined) => DiskFacts,
    private readonly promptOf: (entry: TranscriptEntry) => string | undefined,
  ) {}

  add(entry: TranscriptEntry): void {
    this.version++;
    this.cwd ??= entry.cwd;
    if (entry.subtype === 'compact_boundary') this.startOver('compaction');
    else if (entry.type === 'system') this.noteContextCommand(entry.systemText);
    else if (entry.attachment) this.addAttachment(entry.attachment, entry);
    else if (entry.type === 'user') this.addUser(entry);
    else if (entry.usage) this.addResponse(entry);
  }

  /**
   * The breakdown at the gauge's `total` and `window`, where the agent compacts at `compactAt`; composed
   * again only after a change.
   */
  breakdown(total: number, window: number, compactAt: number): ContextBreakdown {
    const cached = this.cached;
    if (
      cached?.version === this.version &&
      cached.total === total &&
      cached.window === window &&
      cached.compactAt === compactAt
    )
      return cached.value;
    const value = composeBreakdown(
      {
        overhead: this.overhead,
        parts: this.parts.values(),
        fixed: this.overhead === undefined ? [] : this.fixedEntries(),
        figures: this.figures,
        toolSearch: this.toolSearch,
      },
      total,
      window,
      compactAt,
    );
    this.cached = { version: this.version, total, window, compactAt, value };
    return value;
  }

  // ---- reading lines ----

  private part(
    id: string,
    kind: BreakdownItemKind,
    category: BreakdownCategoryName,
    label: string,
    chars: number | undefined,
    at: number | undefined,
    ref: BreakdownItemRef = {},
  ): Part {
    const unique = this.parts.has(id) ? `${id}#${++this.serial}` : id;
    return {
      item: {
        id: unique,
        kind,
        category,
        label: clip(label),
        tokens: 0,
        measured: false,
        at: at ?? null,
        ref,
      },
      chars,
      thinkingChars: 0,
      outputTokens: 0,
      thinking: 0,
    };
  }

  private lineId(entry: TranscriptEntry): string {
    return entry.uuid ?? `line-${++this.serial}`;
  }

  private addResponse(entry: TranscriptEntry): void {
    const total = contextTokens(entry.usage!);
    // Messages Claude Code writes itself (API errors, `<synthetic>` model) report no usage and are not sent.
    if (total === 0) return;
    if (!this.output || entry.responseKey === undefined || entry.responseKey !== this.outputKey) {
      this.call(total);
      this.outputKey = entry.responseKey;
      this.output = this.part(
        `assistant:${this.lineId(entry)}`,
        'assistant',
        'messages',
        'response',
        0,
        entry.at,
      );
      this.output.tools = [];
      this.pending.push(this.output);
    }
    const output = this.output;
    output.chars! += entry.textChars;
    output.thinkingChars += entry.thinkingChars;
    // Lines of one response repeat its usage; the first ones carry a placeholder output count.
    output.outputTokens = Math.max(output.outputTokens, entry.usage!.output);
    for (const use of entry.toolUses) {
      this.toolUses.set(use.id, use);
      output.chars! += use.name.length + JSON.stringify(use.input).length;
      if (!output.tools!.includes(use.name)) output.tools!.push(use.name);
    }
    if (output.labelledByText) return;
    if (entry.firstText?.trim()) {
      output.item.label = clip(entry.firstText);
      output.labelledByText = true;
    } else if (entry.toolUses.length > 0) {
      output.item.label = clip(`calls ${output.tools!.join(', ')}`);
    }
  }

  private addUser(entry: TranscriptEntry): void {
    const text = entry.userText ?? '';
    const command = slashCommand(text);
    if (command === '/clear') {
      this.startOver('clear');
      return;
    }
    this.noteContextCommand(text);
    for (const result of entry.toolResults) {
      const use = this.toolUses.get(result.toolUseId);
      this.toolUses.delete(result.toolUseId);
      const { kind, label, ref } = describeResult(use, result, this.cwd);
      this.pending.push(
        this.part(`tool:${result.toolUseId}`, kind, 'messages', label, result.chars, entry.at, ref),
      );
      for (const tool of result.toolReferences ?? []) this.pending.push(this.schemaPart(tool, entry.at));
    }
    if (entry.textChars === 0) return;
    const id = this.lineId(entry);
    if (entry.compactSummary) {
      this.turnStarted = true;
      const label = 'Summary of the conversation before the compaction';
      this.pending.push(
        this.part(`summary:${id}`, 'compaction_summary', 'messages', label, entry.textChars, entry.at),
      );
    } else if (text.startsWith(SKILL_BODY)) {
      const dir = text
        .slice(SKILL_BODY.length, text.indexOf('\n') >= 0 ? text.indexOf('\n') : undefined)
        .trim();
      // A skill is named by its folder.
      const name = dir.split(/[\\/]/).pop() || 'skill';
      const ref = dir ? { file: `${dir}/SKILL.md` } : {};
      this.pending.push(
        this.part(
          `skill-body:${id}`,
          'skill',
          'skills',
          `${name} (skill body)`,
          entry.textChars,
          entry.at,
          ref,
        ),
      );
    } else {
      const prompt = this.promptOf(entry);
      // A finished background task's notice is no prompt, but the model answers it in a turn of its own.
      if (prompt !== undefined || text.trimStart().startsWith('<task-notification>')) this.turnStarted = true;
      // Not typed: a command's output, a note Claude Code added (their tags say nothing to a person).
      const label = prompt ?? command ?? (entry.firstText ?? text).replace(/<[^>]*>/g, ' ');
      this.pending.push(this.part(`prompt:${id}`, 'prompt', 'messages', label, entry.textChars, entry.at));
    }
  }

  /** A tool whose schema a ToolSearch result loaded: an MCP server's, or a deferred built-in's. */
  private schemaPart(tool: string, at: number | undefined): Part {
    const server = serverOf(tool);
    const part = this.part(
      `schema:${++this.serial}`,
      'mcp_server',
      server ? 'mcp_schemas' : 'system_tools',
      tool,
      undefined,
      at,
    );
    part.tools = [tool];
    if (server) part.foldInto = `schemas:${server}`;
    else part.hidden = true;
    return part;
  }

  /** A later addition to a fixed item (a server that connected late, a skill installed mid-session). */
  private folded(
    into: string,
    kind: BreakdownItemKind,
    category: BreakdownCategoryName,
    chars: number,
    at: number | undefined,
  ): Part {
    const part = this.part(`fold:${++this.serial}`, kind, category, into, chars, at);
    part.foldInto = into;
    return part;
  }

  private addAttachment(attachment: TranscriptAttachment, entry: TranscriptEntry): void {
    const beforeFirstCall = this.overhead === undefined;
    switch (attachment.type) {
      case 'hook_context':
      case 'hook_output': {
        const text = attachment.type === 'hook_context' ? attachment.text : hookOutputContext(attachment);
        const hook = attachment.hookName ?? attachment.hookEvent ?? 'hook';
        // A hook's context can be recorded twice: as its output and as the context Claude Code took from it,
        // under the same event but not always the same name (2.1: `SessionStart:startup`, then `SessionStart`).
        const event = attachment.hookEvent ?? hook.split(':')[0];
        const same = (part: Part) => part.item.kind === 'hook_context' && part.hookEvent === event;
        const earlier = this.pending.find(same);
        if (attachment.type === 'hook_context') this.pending = this.pending.filter((part) => !same(part));
        else if (earlier) return;
        if (!text?.trim()) return;
        // The more specific name of the two (the output's says which start it was).
        const name =
          earlier?.item.ref.tool && earlier.item.ref.tool.length > hook.length ? earlier.item.ref.tool : hook;
        const label = `${name}: ${text.slice(0, 400)}`;
        const part = this.part(
          `hook:${this.lineId(entry)}`,
          'hook_context',
          'messages',
          label,
          text.length,
          entry.at,
          {
            tool: name,
          },
        );
        part.hookEvent = event;
        this.pending.push(part);
        return;
      }
      case 'skill_listing': {
        const fresh = listingLines(attachment.content).filter(({ name }) => !this.announce(`skill:${name}`));
        if (beforeFirstCall) this.startupListing += `${attachment.content}\n`;
        else
          for (const { name, chars } of fresh)
            this.pending.push(this.folded(`skill:${name}`, 'skill', 'skills', chars, entry.at));
        return;
      }
      case 'deferred_tools':
        for (const { name, chars } of attachment.added) {
          if (this.announce(`tool:${name}`)) continue;
          const server = serverOf(name);
          if (server) this.toolSearch = true;
          if (beforeFirstCall) {
            if (server) this.addStartupServer(server, chars, 1);
            else this.startupBuiltinChars += chars;
          } else if (server) {
            this.pending.push(this.folded(`server:${server}`, 'mcp_server', 'mcp_tools', chars, entry.at));
          } else {
            const part = this.part(
              `tools:${++this.serial}`,
              'mcp_server',
              'system_tools',
              name,
              chars,
              entry.at,
            );
            part.hidden = true;
            this.pending.push(part);
          }
        }
        return;
      case 'mcp_instructions':
        for (const { server: name, chars } of attachment.added) {
          const server = serverSegment(name);
          if (this.announce(`instructions:${server}`)) continue;
          if (beforeFirstCall) this.addStartupServer(server, chars, 0);
          else this.pending.push(this.folded(`server:${server}`, 'mcp_server', 'mcp_tools', chars, entry.at));
        }
        return;
      case 'nested_memory': {
        const file = attachment.path;
        const label = file ? shownPath(file, this.cwd) : 'nested CLAUDE.md';
        const ref = file ? { file } : {};
        this.pending.push(
          this.part(
            `memory:${this.lineId(entry)}`,
            'memory_file',
            'memory_files',
            label,
            attachment.chars,
            entry.at,
            ref,
          ),
        );
        return;
      }
      case 'invoked_skills':
        attachment.skills.forEach((skill, i) => {
          const label = `${skill.name} (skill body, kept by the compaction)`;
          const ref = skill.path ? { file: skill.path } : {};
          this.pending.push(
            this.part(
              `skill-body:${this.lineId(entry)}:${i}`,
              'skill',
              'skills',
              label,
              skill.chars,
              entry.at,
              ref,
            ),
          );
        });
        return;
    }
  }

  /** Whether `key` was announced before (a listing repeated after a compaction adds nothing new). */
  private announce(key: string): boolean {
    if (this.announced.has(key)) return true;
    this.announced.add(key);
    return false;
  }

  private addStartupServer(server: string, chars: number, tools: number): void {
    const known = this.startupServers.get(server) ?? { tools: 0, chars: 0 };
    this.startupServers.set(server, { tools: known.tools + tools, chars: known.chars + chars });
  }

  private noteContextCommand(text: string | undefined): void {
    const figures = text ? contextCommandFigures(text) : undefined;
    if (figures) this.figures = figures;
  }

  private startOver(reason: 'compaction' | 'clear'): void {
    this.restart = reason;
    this.pending = [];
    this.output = undefined;
    this.outputKey = undefined;
  }

  // ---- measuring ----

  /** The fixed overhead's parts that can be counted: memory files, skills, agents, MCP listings. */
  private fixedEntries(): FixedEntry[] {
    this.disk ??= this.readDisk(this.cwd);
    const disk = this.disk;
    const entry = (
      id: string,
      kind: BreakdownItemKind,
      category: BreakdownCategoryName,
      label: string,
      chars: number,
      ref: BreakdownItemRef,
    ): FixedEntry => ({
      item: { id, kind, category, label: clip(label), tokens: 0, measured: false, at: null, ref },
      chars,
    });
    const skillFiles = new Map(disk.skills.map((skill) => [skill.name, skill.file]));
    // The listing Claude Code wrote beats the skills on disk (it has plugins' and leaves out hidden ones).
    const skills = this.startupListing
      ? listingLines(this.startupListing).map(({ name, chars }) => ({
          name,
          chars,
          file: skillFiles.get(name),
        }))
      : disk.skills;
    return [
      ...disk.memory.map((file) =>
        entry(
          `memory:${file.file}`,
          'memory_file',
          'memory_files',
          shownPath(file.file, this.cwd),
          file.chars,
          { file: file.file },
        ),
      ),
      ...skills.map((skill) =>
        entry(
          `skill:${skill.name}`,
          'skill',
          'skills',
          skill.name,
          skill.chars,
          skill.file ? { file: skill.file } : {},
        ),
      ),
      ...disk.agents.map((agent) =>
        entry(`agent:${agent.name}`, 'agent', 'custom_agents', agent.name, agent.chars, { file: agent.file }),
      ),
      ...[...this.startupServers].map(([server, { tools, chars }]) =>
        entry(
          `server:${server}`,
          'mcp_server',
          'mcp_tools',
          `${server}: ${tools} tool names and instructions`,
          chars,
          { server },
        ),
      ),
      // Names of deferred built-in tools count with the system tools, as no item of their own.
      {
        ...entry('deferred-builtins', 'mcp_server', 'system_tools', '', this.startupBuiltinChars, {}),
        hidden: true,
      },
    ];
  }

  /** One API call with context `total`: what was added since the last one gets its share of the growth. */
  private call(total: number): void {
    const step = this.pending;
    this.pending = [];
    if (this.overhead === undefined) {
      this.first(total, step);
    } else if (this.restart) {
      for (const [id, part] of this.parts)
        if (this.restart === 'clear' || !KEPT_BY_COMPACTION.has(part.item.category)) this.parts.delete(id);
      this.thinkingParts = [];
      this.unattributed = 0;
      let base = this.overhead;
      for (const part of this.parts.values()) base += part.item.tokens;
      this.share(total - base, step, true);
    } else {
      this.share(total - this.lastTotal, step, this.turnStarted);
    }
    for (const part of step) {
      this.parts.set(part.item.id, part);
      if (part.thinking > 0) this.thinkingParts.push(part);
    }
    this.lastTotal = total;
    this.turnStarted = false;
    this.restart = undefined;
  }

  /** The first call: what preceded it is estimated, and the rest of its input is the fixed overhead. */
  private first(total: number, step: Part[]): void {
    const counted = this.fixedEntries().reduce((sum, entry) => sum + estimate(entry.chars), 0);
    const weights = step.map((part) => this.weight(part));
    const added = Math.min(
      weights.reduce((sum, weight) => sum + weight, 0),
      Math.max(0, total - counted),
    );
    this.spread(added, step, weights, false);
    this.overhead = total - added;
  }

  private exactOutput(part: Part): boolean {
    return (
      part.item.kind === 'assistant' &&
      part.outputTokens > 0 &&
      part.outputTokens >= PLAUSIBLE_OUTPUT * estimate(part.chars ?? 0)
    );
  }

  /** What a part would come to by its characters (a response: its recorded output when plausible). */
  private weight(part: Part): number {
    if (part.chars === undefined) return 0;
    if (this.exactOutput(part)) return part.outputTokens;
    return estimate(part.chars) + estimate(part.thinkingChars);
  }

  /** Thinking tokens a part holds at `weight`. */
  private thinkingOf(part: Part, weight: number): number {
    if (part.item.kind !== 'assistant') return 0;
    if (this.exactOutput(part)) return Math.max(0, part.outputTokens - estimate(part.chars ?? 0));
    return Math.min(weight, estimate(part.thinkingChars));
  }

  private share(growth: number, step: Part[], turnStarted: boolean): void {
    if (step.length === 0) {
      if (growth >= 0) this.unattributed += growth;
      else this.shrink(-growth);
      return;
    }
    const weights = new Map(step.map((part) => [part, this.weight(part)]));
    const exact = new Set(step.filter((part) => this.exactOutput(part)));
    const expected = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
    if (turnStarted && growth < expected) {
      // Thinking of the turn before is left out of this call: this step's response's first, then earlier.
      let shortfall = expected - growth;
      for (const part of step) {
        const dropped = Math.min(this.thinkingOf(part, weights.get(part)!), shortfall);
        if (dropped <= 0) continue;
        weights.set(part, weights.get(part)! - dropped);
        exact.delete(part);
        shortfall -= dropped;
      }
      growth += this.dropThinking(shortfall);
    }
    let rest = step;
    const response = step.find((part) => exact.has(part));
    if (response && growth >= response.outputTokens) {
      this.assign(response, response.outputTokens, true, weights.get(response)!);
      growth -= response.outputTokens;
      rest = step.filter((part) => part !== response);
      if (rest.length === 0) {
        this.unattributed += growth;
        return;
      }
    }
    const schemas = rest.filter((part) => part.chars === undefined);
    const others = rest.filter((part) => part.chars !== undefined);
    const othersWeight = others.reduce((sum, part) => sum + weights.get(part)!, 0);
    if (schemas.length > 0 && growth >= othersWeight) {
      for (const part of others) this.assign(part, weights.get(part)!, false, weights.get(part)!);
      this.spread(
        growth - othersWeight,
        schemas,
        schemas.map(() => 1),
        true,
      );
    } else if (growth < 0) {
      for (const part of rest) this.assign(part, 0, false, 0);
      this.shrink(-growth);
    } else {
      this.spread(
        growth,
        rest,
        rest.map((part) => weights.get(part)!),
        rest.length === 1,
      );
    }
  }

  private assign(part: Part, tokens: number, measured: boolean, weight: number): void {
    part.item.tokens = tokens;
    part.item.measured = measured;
    part.thinking = weight > 0 ? Math.round((tokens * this.thinkingOf(part, weight)) / weight) : 0;
  }

  private spread(total: number, parts: Part[], weights: number[], measured: boolean): void {
    const shares = largestRemainder(total, weights);
    parts.forEach((part, i) => this.assign(part, shares[i], measured, weights[i]));
  }

  /** Takes up to `amount` tokens of thinking out of earlier responses; returns how many it took. */
  private dropThinking(amount: number): number {
    const held = this.thinkingParts.filter((part) => this.parts.get(part.item.id) === part);
    const available = held.reduce((sum, part) => sum + part.thinking, 0);
    const taken = Math.min(amount, available);
    this.thinkingParts = [];
    if (taken <= 0) return 0;
    const cuts = largestRemainder(
      taken,
      held.map((part) => part.thinking),
    );
    held.forEach((part, i) => {
      part.item.tokens -= cuts[i];
      part.item.measured = false;
      part.thinking = 0;
    });
    return taken;
  }

  /** The context shrank by more than can be explained (a rewind): what is there shrinks in proportion. */
  private shrink(amount: number): void {
    const fromUnattributed = Math.min(amount, this.unattributed);
    this.unattributed -= fromUnattributed;
    const messages = [...this.parts.values()].filter((part) => part.item.category === 'messages');
    const held = messages.reduce((sum, part) => sum + part.item.tokens, 0);
    const cuts = largestRemainder(
      Math.min(amount - fromUnattributed, held),
      messages.map((part) => part.item.tokens),
    );
    messages.forEach((part, i) => {
      if (cuts[i] === 0) return;
      part.item.tokens -= cuts[i];
      part.item.measured = false;
    });
  }
}
