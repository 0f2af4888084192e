/**
 * VS Code's agent's session transcript: `<workspaceStorage>/<hash>/GitHub.copilot-chat/transcripts/<session id>.jsonl`,
 * written by the Copilot extension's SessionTranscriptService (microsoft/vscode-copilot-chat
 * src/extension/chat/vscode-node/sessionTranscriptService.ts, since 2026-02-07; now microsoft/vscode
 * extensions/copilot/). One JSON object a line, `{type, data, id, timestamp, parentId}`, the envelope of
 * Copilot CLI's events.jsonl:
 * - `session.start` (first line): data `{sessionId, version: 1, producer: 'copilot-agent', copilotVersion,
 *   vscodeVersion, startTime, context?: {cwd?}}` (the agent loop passes no context, so no cwd today);
 * - `user.message` `{content, attachments}`; `assistant.turn_start`/`assistant.turn_end` `{turnId}`;
 * - `assistant.message` `{messageId, content, toolRequests: [{toolCallId, name, arguments (JSON text)}]}`;
 * - `tool.execution_start` `{toolCallId, toolName, arguments (parsed)}` and `tool.execution_complete`
 *   `{toolCallId, success, result?}`; ids lose VS Code's `__vscode-<n>` suffix, so they are the model's ids;
 * - `assistant.usage` `{model, inputTokens, outputTokens, totalTokens, cacheReadTokens,
 *   cacheCreationInputTokens, copilotUsageNanoAiu, parentToolCallId}`, one per model call: proposed in
 *   microsoft/vscode PR #326983 (commit 9d1ec376), which was closed unmerged, so no release writes it yet.
 * The extension writes a transcript only for sessions with hooks enabled (or before it summarises the
 * conversation). It records no compaction and no context window size.
 */
import { userPromptText } from '../userPrompt';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toEpochMs } from '../../events/eventLine';
import { isWithin } from '../../kernel/paths';
import { vscodeUserDataDirs } from '../vscodeUserData';
import type { SessionFiles, SessionItem } from '../adapter';
import type { ToolCall } from '../types';
import { vscodeToolInput } from './payload';
import { vscodeToolKind } from './toolKinds';
import {
  type Json,
  jsonNonEmptyText as text,
  jsonNumber as num,
  jsonRecord as record,
  parseJsonObject as parseObject,
} from '../jsonValues';
import { sessionTailIncludes } from '../sessionBytes';
import { type SessionText, parseSessionLines, sessionFileReader, textKey } from '../sessionLines';

type ToolItem = Extract<SessionItem, { type: 'tool' }>;

/** The Copilot extension's storage folder inside a workspace storage (the extension id). */
const EXTENSION_FOLDER = 'github.copilot-chat';
/** workspace.json is a one-line object; anything larger is not VS Code's. */
const MAX_WORKSPACE_JSON = 64 * 1024;

function listDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The local path a workspace URI names: `file:` URIs, or the path of a remote one (`vscode-remote://host/path`). */
function uriPath(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    if (url.protocol === 'file:') return fileURLToPath(url);
    const decoded = decodeURIComponent(url.pathname);
    return decoded.startsWith('/') ? decoded : undefined;
  } catch {
    return undefined;
  }
}

/** The folder (or multi-root workspace file) a workspace storage belongs to, from its workspace.json. */
function workspaceOf(storage: string): string | undefined {
  const file = path.join(storage, 'workspace.json');
  try {
    if (fs.statSync(file).size > MAX_WORKSPACE_JSON) return undefined;
    const value = record(JSON.parse(fs.readFileSync(file, 'utf8')));
    const uri = text(value.folder) ?? text(value.workspace) ?? text(value.configuration);
    return uri === undefined ? undefined : uriPath(uri);
  } catch {
    return undefined;
  }
}

function byModifiedTime(files: string[]): string[] {
  const stamped = files.flatMap((file) => {
    try {
      return [{ file, at: fs.statSync(file).mtimeMs }];
    } catch {
      return [];
    }
  });
  return stamped.sort((a, b) => a.at - b.at || a.file.localeCompare(b.file)).map((entry) => entry.file);
}

/** Transcripts of workspaces opened on `projectRoot` or a folder inside it, oldest first (by last write). */
export function findVscodeTranscripts(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const root = path.resolve(projectRoot);
  const found: string[] = [];
  for (const userData of vscodeUserDataDirs(env)) {
    const storages = path.join(userData, 'User', 'workspaceStorage');
    for (const entry of listDir(storages)) {
      if (!entry.isDirectory()) continue;
      const storage = path.join(storages, entry.name);
      const folder = workspaceOf(storage);
      if (folder === undefined || !isWithin(root, path.resolve(folder))) continue;
      // The folder is named by the extension id; match it however its case was written.
      const extension = listDir(storage).find(
        (child) => child.isDirectory() && child.name.toLowerCase() === EXTENSION_FOLDER,
      );
      if (!extension) continue;
      const transcripts = path.join(storage, extension.name, 'transcripts');
      for (const file of listDir(transcripts)) {
        if (file.isFile() && file.name.endsWith('.jsonl')) found.push(path.join(transcripts, file.name));
      }
    }
  }
  return byModifiedTime(found);
}

/** A line's object, or undefined for a line that is no JSON object. */
/**
 * Whether a file's head is VS Code's transcript: its first line is a `session.start` by `copilot-agent`
 * that names a `vscodeVersion`. Copilot CLI's events.jsonl shares the envelope and producer but has no
 * `vscodeVersion`; Claude Code and Codex files start with other shapes.
 */
export function recogniseVscodeTranscript(head: string): boolean {
  const first = head.split('\n', 1)[0].trim();
  if (!first.startsWith('{')) return false;
  const line = parseObject(first);
  if (line === undefined) {
    // Cut short: the writer's key order puts type, then data's sessionId, producer... vscodeVersion first.
    return /^\{"type":"session\.start","data":\{"sessionId":"[^"]*".*"producer":"copilot-agent".*"vscodeVersion":/.test(
      first,
    );
  }
  const data = record(line.data);
  return (
    line.type === 'session.start' &&
    data.producer === 'copilot-agent' &&
    typeof data.vscodeVersion === 'string' &&
    typeof data.sessionId === 'string'
  );
}

/** The arguments of a call: the parsed object the execution line holds, or the JSON text of the request. */
function argumentsOf(value: unknown): Json {
  if (typeof value === 'string') return record(parseObject(value));
  return record(value);
}

class TranscriptReader {
  private readonly items: SessionItem[] = [];
  private readonly sessionId: string;
  private readonly start: Json | undefined;
  private readonly firstModel: string | undefined;
  private sessionEmitted = false;
  private at = 0;
  private prompts = 0;
  private report: { at: number; text: string } | undefined;
  private readonly promptKeys = new Set<string>();
  /** Tool requests by call id, for a name and arguments an execution line lacks. */
  private readonly requests = new Map<string, { name?: string; arguments: unknown }>();
  private readonly started = new Map<string, { name?: string; arguments: unknown; at: number }>();
  private readonly tools = new Map<string, ToolItem>();

  constructor(
    private readonly lines: Json[],
    fallbackId: string,
  ) {
    const start = lines.find((line) => line.type === 'session.start');
    this.start = start === undefined ? undefined : record(start.data);
    this.sessionId = text(this.start?.sessionId) ?? fallbackId;
    this.at = toEpochMs(this.start?.startTime) ?? toEpochMs(start?.timestamp) ?? 0;
    this.firstModel = lines
      .map((line) => (line.type === 'assistant.usage' ? text(record(line.data).model) : undefined))
      .find(Boolean);
  }

  read(): SessionItem[] {
    for (const line of this.lines) {
      this.at = toEpochMs(line.timestamp) ?? this.at;
      const data = record(line.data);
      switch (line.type) {
        case 'session.start':
          this.session();
          break;
        case 'user.message':
          this.prompt(text(data.content));
          break;
        case 'assistant.message':
          this.request(data.toolRequests);
          this.noteReport(text(data.content));
          break;
        case 'tool.execution_start': {
          const id = text(data.toolCallId);
          if (id !== undefined)
            this.started.set(id, { name: text(data.toolName), arguments: data.arguments, at: this.at });
          break;
        }
        case 'tool.execution_complete':
          this.complete(data);
          break;
        case 'assistant.usage':
          this.usage(data);
          break;
      }
    }
    this.tellReport();
    if (!this.sessionEmitted) this.session();
    return this.items;
  }

  /** The turn's last text so far: its report to the user once the turn ends (the next prompt, the end). */
  private noteReport(content: string | undefined): void {
    if (content?.trim()) this.report = { at: this.at, text: content };
  }

  private tellReport(): void {
    if (!this.report) return;
    this.push({ type: 'report', sessionId: this.sessionId, ...this.report });
    this.report = undefined;
  }

  private push(item: SessionItem): void {
    if (!this.sessionEmitted) this.session();
    this.items.push(item);
  }

  private session(): void {
    if (this.sessionEmitted) return;
    this.sessionEmitted = true;
    const item: Extract<SessionItem, { type: 'session' }> = {
      type: 'session',
      sessionId: this.sessionId,
      at: toEpochMs(this.start?.startTime) ?? this.at,
    };
    const cwd = text(record(this.start?.context).cwd);
    if (cwd !== undefined) item.cwd = cwd;
    if (this.firstModel !== undefined) item.model = this.firstModel;
    this.items.push(item);
  }

  /**
   * Keyed by the prompt's place in the conversation, not its line id or time: a transcript the extension
   * deletes (it keeps 20) is written again on the next request, replaying every earlier prompt in order
   * with new ids and turn-start times.
   */
  private prompt(raw: string | undefined): void {
    this.tellReport();
    const content = raw === undefined ? undefined : userPromptText(raw);
    if (content === undefined || content.trim() === '') return;
    const key = `vscode:${this.sessionId}:${this.prompts++}:${textKey(content)}`;
    if (this.promptKeys.has(key)) return;
    this.promptKeys.add(key);
    this.push({ type: 'prompt', sessionId: this.sessionId, at: this.at, key, text: content });
  }

  private request(toolRequests: unknown): void {
    if (!Array.isArray(toolRequests)) return;
    for (const request of toolRequests.map(record)) {
      const id = text(request.toolCallId);
      if (id !== undefined) this.requests.set(id, { name: text(request.name), arguments: request.arguments });
    }
  }

  /** A finished execution: the start line gives its name and arguments, the request what the start lacks. */
  private complete(data: Json): void {
    const id = text(data.toolCallId);
    if (id === undefined || this.tools.has(id)) return;
    const start = this.started.get(id);
    const request = this.requests.get(id);
    const name = start?.name ?? request?.name;
    if (name === undefined) return;
    const input = argumentsOf(start?.arguments ?? request?.arguments);
    const call: ToolCall & { useId: string } = {
      name,
      kind: vscodeToolKind(name),
      useId: id,
      input: vscodeToolInput(name, input),
      outcome: { failed: data.success === false },
    };
    if (call.outcome && start) call.outcome.durationMs = Math.max(0, this.at - start.at);
    const output = text(record(data.result).content);
    if (output !== undefined && call.outcome)
      call.outcome[data.success === false ? 'error' : 'output'] = output;
    const item: ToolItem = { type: 'tool', sessionId: this.sessionId, at: start?.at ?? this.at, call };
    this.tools.set(id, item);
    this.push(item);
  }

  /**
   * The context after a model call: its prompt tokens, which count cached ones too (the extension makes
   * Anthropic's input + cache reads + cache writes its `prompt_tokens`, messagesApi.ts), plus the reply,
   * which the next call sends back. A subagent's calls (`parentToolCallId`) fill the subagent's context,
   * not this session's.
   */
  private usage(data: Json): void {
    if (text(data.parentToolCallId) !== undefined) return;
    const input = num(data.inputTokens);
    const contextTokens = input !== undefined ? input + (num(data.outputTokens) ?? 0) : num(data.totalTokens);
    if (contextTokens === undefined) return;
    const item: Extract<SessionItem, { type: 'usage' }> = {
      type: 'usage',
      sessionId: this.sessionId,
      at: this.at,
      contextTokens,
    };
    const model = text(data.model);
    if (model !== undefined) item.model = model;
    this.push(item);
  }
}

/** Everything a transcript's text says, in file order; lines that are no JSON object are skipped and counted. */
export function readVscodeTranscript(
  source: SessionText,
  fallbackId = 'unknown',
): { items: SessionItem[]; skipped: number } {
  const { lines, skipped } = parseSessionLines(source, (raw) => {
    const line = parseObject(raw);
    return line !== undefined && typeof line.type === 'string' ? line : null;
  });
  return { items: new TranscriptReader(lines, fallbackId).read(), skipped };
}

/** How much of a transcript's end is looked at for usage: every turn of a build that records it has one. */
const USAGE_LOOKBACK_BYTES = 256 * 1024;

/**
 * Whether a transcript records token usage (`assistant.usage` lines). No released VS Code writes them yet
 * (they came with vscode PR #326983, closed unmerged), so most sessions give history but no gauge; a
 * transcript that has them feeds the gauge.
 */
function transcriptCarriesUsage(file: string): boolean {
  // With both quotes: the type of a line, not the words inside an escaped message text.
  return sessionTailIncludes(file, '"assistant.usage"', USAGE_LOOKBACK_BYTES);
}

export const vscodeSessions: SessionFiles = {
  measuresContext: transcriptCarriesUsage,
  find: findVscodeTranscripts,
  recognise: recogniseVscodeTranscript,
  // The file is named by the session id, which stands in when the first line is lost.
  read: sessionFileReader((content, file) => readVscodeTranscript(content, path.basename(file, '.jsonl'))),
};
