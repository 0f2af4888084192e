/** Test fixture builders: hook payloads built from the documented examples in test/fixtures. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Real and documented agent files, each with its source noted in the README beside it. */
export const FIXTURES_DIR = path.resolve(__dirname, '../fixtures');
export const HOOK_EXAMPLES_DIR = path.join(FIXTURES_DIR, 'hooks/docs-examples');

export type Payload = Record<string, unknown>;

/** The documented stdin example of a hook event, e.g. `hookExample('PostToolUse')`. */
export function hookExample(event: string): Payload {
  return JSON.parse(fs.readFileSync(path.join(HOOK_EXAMPLES_DIR, `${event}.input.json`), 'utf8')) as Payload;
}

export function allHookExamples(): Array<{ event: string; payload: Payload }> {
  return fs
    .readdirSync(HOOK_EXAMPLES_DIR)
    .filter((name) => name.endsWith('.input.json'))
    .sort()
    .map((name) => ({
      event: name.replace('.input.json', ''),
      payload: hookExample(name.replace('.input.json', '')),
    }));
}

/** A documented example with our values, stamped as the recorder would (`_cd.ts`). */
export function hookEvent(event: string, values: Payload & { at?: number }): Payload {
  const { at, ...rest } = values;
  const payload: Payload = { ...hookExample(event), ...rest };
  if (at !== undefined) payload._cd = { ts: new Date(at).toISOString(), agent: 'claude-code', v: 'test' };
  return payload;
}

export interface ToolStep {
  tool: string;
  /** Failure error text; the call succeeds when absent. */
  error?: string;
  input?: Payload;
}

export interface SessionScript {
  sessionId: string;
  cwd: string;
  startAt: number;
  model?: string;
  prompts?: string[];
  tools?: ToolStep[];
  /** Milliseconds between consecutive events. */
  stepMs?: number;
  end?: boolean;
}

/** A plausible session: start, each prompt followed by its share of tool calls, then the end. */
export function sessionEvents(script: SessionScript): Payload[] {
  const step = script.stepMs ?? 1000;
  let at = script.startAt;
  const next = () => (at += step);
  const base = { session_id: script.sessionId, cwd: script.cwd };
  const events: Payload[] = [
    hookEvent('SessionStart', { ...base, model: script.model ?? 'claude-sonnet-4-5', source: 'startup', at }),
  ];
  const prompts = script.prompts ?? [];
  const tools = script.tools ?? [];
  const perPrompt = Math.ceil(tools.length / Math.max(1, prompts.length));
  let toolIndex = 0;
  for (let p = 0; p < Math.max(1, prompts.length); p++) {
    if (prompts[p] !== undefined)
      events.push(hookEvent('UserPromptSubmit', { ...base, prompt: prompts[p], at: next() }));
    for (let i = 0; i < perPrompt && toolIndex < tools.length; i++, toolIndex++) {
      const step = tools[toolIndex];
      const common = {
        ...base,
        tool_name: step.tool,
        tool_input: step.input ?? { description: `step ${toolIndex}` },
        tool_use_id: `toolu_${script.sessionId}_${toolIndex}`,
        duration_ms: 10 + toolIndex,
        at: next(),
      };
      events.push(
        step.error === undefined
          ? hookEvent('PostToolUse', { ...common, tool_response: { success: true } })
          : hookEvent('PostToolUseFailure', { ...common, error: step.error, is_interrupt: false }),
      );
    }
  }
  if (script.end !== false) events.push(hookEvent('SessionEnd', { ...base, reason: 'other', at: next() }));
  return events;
}

export function toLines(events: Payload[]): string {
  return events.map((event) => `${JSON.stringify(event)}\n`).join('');
}

/** Append events to a log file under `<home>/events/`, returning the file's path. */
export function appendEvents(home: string, events: Payload[], fileName = 'test.jsonl'): string {
  const dir = path.join(home, 'events');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, fileName);
  fs.appendFileSync(file, toLines(events));
  return file;
}

/** A temporary home folder and project folder, removed by the returned cleanup. */
export function tempWorkspace(prefix = 'cd-test-'): { home: string; project: string; cleanup: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  return {
    home,
    project: fs.realpathSync(project),
    // Retried: a recorder a test started without waiting for it (a subagent's SessionStart) may still be
    // writing into the home.
    cleanup: () => fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }),
  };
}
