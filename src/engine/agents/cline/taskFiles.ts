/**
 * Cline's task history: a folder per task, `tasks/<taskId>/`, in the extension's storage (VS Code's
 * globalStorage for `saoudrizwan.claude-dev`, beside Context Deck's own; Cline 3.x's CLI kept the same layout in
 * `~/.cline/data/`, where 4.x keeps `sessions/<id>/` instead, not read yet: test/fixtures/cline/README.md), and
 * `state/taskHistory.json` listing the tasks with the folder each began in (cline/cline v3.89.2
 * `core/storage/disk.ts` GlobalFileNames, `shared/HistoryItem.ts` `cwdOnTaskInitialization`). A task folder
 * holds two whole JSON documents, rewritten as the task runs:
 * - `ui_messages.json`, what Cline's panel shows (`shared/ExtensionMessage.ts` ClineMessage `{ts, type:
 *   "say"|"ask", say|ask, text, modelInfo?}`): the task (`say: "task"`), the user's later messages
 *   (`user_feedback`), each model request (`api_req_started`, its `text` the JSON of ClineApiReqInfo
 *   `{tokensIn, tokensOut, cacheWrites, cacheReads, cost}`), the reports (`completion_result`), and MCP
 *   calls as asked (`use_mcp_server`, `{serverName, toolName}`);
 * - `api_conversation_history.json`, the conversation sent to the model (ClineStorageMessage: `{role,
 *   content, modelInfo?, ts?}`): tool calls as `tool_use` blocks answered by `tool_result` blocks, or, with
 *   Cline's older XML tool calling, as tags in the assistant's text answered by a text
 *   `[<tool> for '…'] Result:` (`ToolResultUtils.pushToolResult`).
 * The session file Context Deck follows is the task's `ui_messages.json`: Cline's context bar is its last
 * `api_req_started` whose tokens in + out + cache writes + cache reads are above zero, over the model's
 * window (`core/task/index.ts` getEnvironmentDetails, `ContextManager.shouldCompactContextWindow`).
 *
 * Everything here was written by a program that reads repositories: each file is read only when it is a
 * regular file (no link is followed), within MAX_TASK_FILE_BYTES, and a file past it is said to be so.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readBounded } from '../../kernel/boundedRead';
import { isWithin } from '../../kernel/paths';
import type { SessionFiles, SessionItem } from '../adapter';
import { type Json, isObject, jsonNumber as num, jsonText as str } from '../jsonValues';
import type { ToolCall } from '../types';
import { WhileUnchanged } from '../unchangedFile';
import { vscodeUserDataDirs } from '../vscodeUserData';
import { CLINE_TOOL_NAMES, clineOutcome, clineToolCall } from './toolKinds';

/** Cline's extension id, the name of its folder in VS Code's globalStorage. */
const EXTENSION_ID = 'saoudrizwan.claude-dev';
const UI_MESSAGES = 'ui_messages.json';
const API_HISTORY = 'api_conversation_history.json';
/** A task's documents are read whole: one larger than this is reported, not read. */
export const MAX_TASK_FILE_BYTES = 64 * 1024 * 1024;
/** taskHistory.json: a line of metadata per task. */
const MAX_HISTORY_BYTES = 32 * 1024 * 1024;
/** Task folders looked at when no taskHistory.json lists them. */
const MAX_TASK_FOLDERS = 10_000;
/** What is read of a conversation's first message to find the folder it began in. */
const FIRST_MESSAGE_BYTES = 256 * 1024;
/** Task ids as Cline makes them (`Date.now()` or a ULID): anything else never names a folder. */
const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Where Cline keeps its data: its folder in each of VS Code's user data folders, and its CLI's. Cline's
 * globalStorage is a sibling of Context Deck's own. `CLINE_STORAGE_DIRS` (path-delimited) replaces the list.
 */
export function clineStorageDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const override = env.CLINE_STORAGE_DIRS?.trim();
  if (override)
    return override
      .split(path.delimiter)
      .map((dir) => dir.trim())
      .filter(Boolean);
  const home = env.HOME?.trim() || env.USERPROFILE?.trim() || os.homedir();
  return [
    ...vscodeUserDataDirs(env).map((dir) => path.join(dir, 'User', 'globalStorage', EXTENSION_ID)),
    path.join(home, '.cline', 'data'),
  ];
}

class ClineFileTooLarge extends RangeError {}

/** A regular file's size, not following a link; undefined for anything else. */
export function regularFileSize(file: string): number | undefined {
  try {
    const stat = fs.lstatSync(file);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A whole JSON document of Cline's, parsed; undefined when the file is not there. Throws, saying why, for a
 * link, a file past `maxBytes` or one that is no JSON.
 */
export function readJsonDocument(file: string, maxBytes = MAX_TASK_FILE_BYTES): unknown {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return undefined;
  }
  const name = path.basename(file);
  if (stat.isSymbolicLink()) throw new Error(`${name} is a symbolic link: not followed`);
  if (!stat.isFile()) throw new Error(`${name} is not a regular file`);
  const mib = Math.round(maxBytes / (1024 * 1024));
  if (stat.size > maxBytes)
    throw new ClineFileTooLarge(
      `${name} is ${Math.round(stat.size / (1024 * 1024))} MiB, more than the ${mib} MiB Context Deck reads of one of Cline's task files`,
    );
  // Up to the size seen (and a little growth), never the whole cap, for a file that is small.
  const read = readBounded(file, { maxBytes: Math.min(maxBytes, stat.size + 1024 * 1024) });
  if ('missing' in read) return undefined;
  if ('problem' in read) throw new ClineFileTooLarge(`${name} ${read.problem}`);
  try {
    return JSON.parse(read.text) as unknown;
  } catch (error) {
    throw new Error(`${name} is not whole JSON (${(error as Error).message})`);
  }
}

/** A whole JSON document every task of a storage shares, parsed once while unchanged; undefined when unreadable. */
function sharedDocuments(maxBytes: number): WhileUnchanged<unknown> {
  return new WhileUnchanged((file) => {
    try {
      return readJsonDocument(file, maxBytes);
    } catch {
      return undefined;
    }
  }, undefined);
}

const taskHistories = sharedDocuments(MAX_HISTORY_BYTES);

interface HistoryEntry {
  id: string;
  ts: number;
  cwd?: string;
  model?: string;
}

/** The tasks `state/taskHistory.json` lists, or undefined where there is none (or it cannot be read). */
function taskHistory(storage: string): HistoryEntry[] | undefined {
  const value = taskHistories.get(path.join(storage, 'state', 'taskHistory.json'));
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((item): HistoryEntry[] => {
    if (!isObject(item)) return [];
    const id = str(item.id);
    if (!id || !TASK_ID.test(id)) return [];
    return [{ id, ts: num(item.ts) ?? 0, cwd: str(item.cwdOnTaskInitialization), model: str(item.modelId) }];
  });
}

/** The folder a conversation began in, from the environment details of its first message. */
function cwdFromConversation(taskDir: string): string | undefined {
  const file = path.join(taskDir, API_HISTORY);
  if (regularFileSize(file) === undefined) return undefined;
  const read = readBounded(file, { maxBytes: FIRST_MESSAGE_BYTES, head: true });
  if (!('text' in read)) return undefined;
  const found = /# Current Working Directory \(((?:[^)\\]|\\.)+?)\) Files/.exec(read.text);
  if (!found) return undefined;
  try {
    return JSON.parse(`"${found[1]}"`) as string;
  } catch {
    return undefined;
  }
}

/** The task folders under `storage/tasks`, without following links; at most MAX_TASK_FOLDERS. */
function taskFolders(storage: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(storage, 'tasks'), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isDirectory() && TASK_ID.test(entry.name))
    .slice(0, MAX_TASK_FOLDERS)
    .map((entry) => entry.name);
}

/** The task's ui_messages.json, where the folder and the file are what they say (no links). */
function taskFile(storage: string, taskId: string): string | undefined {
  const dir = path.join(storage, 'tasks', taskId);
  try {
    if (!fs.lstatSync(dir).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const file = path.join(dir, UI_MESSAGES);
  return regularFileSize(file) === undefined ? undefined : file;
}

function mtimeOf(file: string): number {
  try {
    return fs.lstatSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** The ui_messages.json of each task begun in `projectRoot` or below, oldest first. */
export function findClineTasks(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const root = path.resolve(projectRoot);
  const found: Array<{ file: string; at: number }> = [];
  for (const storage of clineStorageDirs(env)) {
    const history = taskHistory(storage);
    const tasks =
      history ??
      taskFolders(storage).map((id) => ({
        id,
        // Cline names a task by the time it began (`Date.now()`).
        ts: /^\d{13}$/.test(id) ? Number(id) : 0,
        cwd: cwdFromConversation(path.join(storage, 'tasks', id)),
      }));
    for (const task of tasks) {
      if (!task.cwd || !path.isAbsolute(task.cwd) || !isWithin(root, path.resolve(task.cwd))) continue;
      const file = taskFile(storage, task.id);
      if (file) found.push({ file, at: task.ts || mtimeOf(file) });
    }
  }
  return found.sort((a, b) => a.at - b.at || a.file.localeCompare(b.file)).map((entry) => entry.file);
}

/** ui_messages.json: a JSON array whose first message has Cline's `ts` and `type`. */
const UI_MESSAGES_HEAD = /^\s*\[\s*\{\s*"ts"\s*:\s*\d+\s*,\s*"type"\s*:\s*"(?:say|ask)"/;
/** api_conversation_history.json: Cline's first message wraps the task in `<task>`. */
const API_HISTORY_HEAD =
  /^\s*\[\s*\{\s*"role"\s*:\s*"user"\s*,\s*"content"\s*:\s*\[\s*\{\s*"type"\s*:\s*"text"\s*,\s*"text"\s*:\s*"<task>/;

function recogniseClineTask(head: string): boolean {
  return UI_MESSAGES_HEAD.test(head) || API_HISTORY_HEAD.test(head);
}

/** Cline's caches of the model lists it fetches (`GlobalFileNames`), each `{<model id>: ModelInfo}`. */
const MODEL_CACHES = [
  'cline_models.json',
  'openrouter_models.json',
  'vercel_ai_gateway_models.json',
  'groq_models.json',
  'baseten_models.json',
  'hicap_models.json',
];
const MAX_MODEL_CACHE_BYTES = 16 * 1024 * 1024;
const modelCaches = sharedDocuments(MAX_MODEL_CACHE_BYTES);

/**
 * The context window Cline's model lists give `model` (`ModelInfo.contextWindow`), from the caches in the
 * storage the task is in; undefined where none lists it (Cline's built-in catalogue, `shared/api.ts`, is
 * not on disk).
 */
function cachedWindow(storage: string, model: string | undefined): number | undefined {
  if (!model) return undefined;
  for (const name of MODEL_CACHES) {
    const models = modelCaches.get(path.join(storage, 'cache', name));
    const info = isObject(models) && Object.hasOwn(models, model) ? models[model] : undefined;
    const window = isObject(info) ? num(info.contextWindow) : undefined;
    if (window !== undefined && window > 0) return window;
  }
  return undefined;
}

/** What a task's messages say about the folder and model it ran with, from taskHistory.json beside it. */
function historyEntryOf(taskDir: string): HistoryEntry | undefined {
  const storage = path.dirname(path.dirname(taskDir));
  if (path.basename(path.dirname(taskDir)) !== 'tasks') return undefined;
  const id = path.basename(taskDir);
  return taskHistory(storage)?.find((entry) => entry.id === id);
}

function blocksOf(message: Json): Json[] {
  const content = message.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObject)
    .map((block) => str(block.text) ?? '')
    .join('\n');
}

/** A result's body, without Cline's `[<tool> for '…'] Result:` line. */
function resultBody(text: string): string {
  return text.replace(/^\[[^\]\n]*\] Result:\n?/, '');
}

/** Cline's XML tool calls in an assistant's text: `<tool><param>value</param>…</tool>`, known tools only. */
function xmlToolCalls(text: string): Array<{ name: string; params: Json }> {
  const calls: Array<{ name: string; params: Json }> = [];
  const names = CLINE_TOOL_NAMES.join('|');
  for (const match of text.matchAll(new RegExp(`<(${names})>([\\s\\S]*?)</\\1>`, 'g'))) {
    const params: Json = {};
    for (const param of match[2].matchAll(/<([a-z_]+)>([\s\S]*?)<\/\1>/g))
      params[param[1]] = param[2].replace(/^\n/, '').replace(/\n$/, '');
    calls.push({ name: match[1], params });
  }
  return calls;
}

/** The `[<tool> for '…'] Result:` text blocks of a user message, in order. */
function xmlResults(blocks: readonly Json[]): string[] {
  return blocks
    .map((block) => (block.type === 'text' ? (str(block.text) ?? '') : ''))
    .filter((text) => /^\[[^\]\n]*\] Result:/.test(text));
}

type ToolItem = Extract<SessionItem, { type: 'tool' }>;

class TaskReader {
  readonly items: SessionItem[] = [];
  skipped = 0;
  /** The server each MCP tool was asked for (use_mcp_server), to name a native call's server. */
  private readonly mcpServers = new Map<string, string>();
  /** The task's model, for requests that do not name theirs. */
  private model: string | undefined;

  constructor(
    private readonly taskId: string,
    private readonly windowOf: (model: string | undefined) => number | undefined,
  ) {}

  /** ui_messages.json: the session, prompts, usage, compactions and reports. */
  readMessages(messages: unknown[], history: HistoryEntry | undefined, cwd: string | undefined): void {
    const first = messages.find((message) => isObject(message) && num(message.ts) !== undefined);
    const start = isObject(first) ? (num(first.ts) ?? 0) : (history?.ts ?? 0);
    const model = history?.model ?? this.modelOf(messages);
    this.model = model;
    this.items.push({
      type: 'session',
      sessionId: this.taskId,
      at: start,
      ...(cwd ? { cwd } : {}),
      ...(model ? { model } : {}),
    });
    let deleted: string | undefined;
    let condensed = false;
    for (const message of messages) {
      if (!isObject(message)) {
        this.skipped++;
        continue;
      }
      const at = num(message.ts);
      if (at === undefined) {
        this.skipped++;
        continue;
      }
      const text = str(message.text);
      const say = message.type === 'say' ? str(message.say) : undefined;
      const ask = message.type === 'ask' ? str(message.ask) : undefined;
      const key = `${this.taskId}:${at}`;
      if ((say === 'task' || say === 'user_feedback') && text?.trim())
        this.items.push({ type: 'prompt', sessionId: this.taskId, at, key, text });
      else if (say === 'api_req_started') {
        // Cline truncates by marking a range of the conversation deleted: a compaction without a summary.
        const range = Array.isArray(message.conversationHistoryDeletedRange)
          ? JSON.stringify(message.conversationHistoryDeletedRange)
          : undefined;
        if (range !== undefined && range !== deleted) {
          // A range that moves after a condense is the condense's own (it hides what it summarised).
          if (!condensed && (deleted !== undefined || range !== '[0,0]'))
            this.items.push({ type: 'compact', sessionId: this.taskId, at, trigger: 'truncate' });
          deleted = range;
        }
        condensed = false;
        this.usage(at, text, message);
      } else if (say === 'completion_result' && text?.trim())
        this.items.push({ type: 'report', sessionId: this.taskId, at, text });
      else if (ask === 'use_mcp_server' && text) this.mcpAsk(text);
      else if (say === 'tool' && text) condensed = this.condensed(at, text) || condensed;
      else if (ask === 'condense' && text?.trim()) {
        this.items.push({ type: 'compact', sessionId: this.taskId, at, trigger: 'manual' });
        this.items.push({ type: 'compact-summary', sessionId: this.taskId, at, text });
      }
    }
  }

  private modelOf(messages: unknown[]): string | undefined {
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      if (isObject(message) && isObject(message.modelInfo)) {
        const model = str(message.modelInfo.modelId);
        if (model) return model;
      }
    }
    return undefined;
  }

  private usage(at: number, text: string | undefined, message: Json): void {
    let info: unknown;
    try {
      info = text ? JSON.parse(text) : undefined;
    } catch {
      this.skipped++;
      return;
    }
    if (!isObject(info)) return;
    const total = ['tokensIn', 'tokensOut', 'cacheWrites', 'cacheReads']
      .map((key) => num(info[key]) ?? 0)
      .reduce((sum, value) => sum + value, 0);
    if (!(total > 0)) return;
    const model = (isObject(message.modelInfo) ? str(message.modelInfo.modelId) : undefined) ?? this.model;
    const window = this.windowOf(model);
    this.items.push({
      type: 'usage',
      sessionId: this.taskId,
      at,
      contextTokens: total,
      ...(window !== undefined ? { contextWindow: window } : {}),
      ...(model ? { model } : {}),
    });
  }

  private mcpAsk(text: string): void {
    try {
      const asked: unknown = JSON.parse(text);
      if (!isObject(asked)) return;
      const server = str(asked.serverName);
      const tool = str(asked.toolName);
      if (server && tool) this.mcpServers.set(tool, server);
    } catch {
      this.skipped++;
    }
  }

  /** Cline's condensing: the model's `summarize_task` call, shown as a `summarizeTask` tool message. */
  private condensed(at: number, text: string): boolean {
    let shown: unknown;
    try {
      shown = JSON.parse(text);
    } catch {
      return false;
    }
    if (!isObject(shown) || shown.tool !== 'summarizeTask') return false;
    this.items.push({ type: 'compact', sessionId: this.taskId, at, trigger: 'auto' });
    const summary = str(shown.content);
    if (summary?.trim())
      this.items.push({ type: 'compact-summary', sessionId: this.taskId, at, text: summary });
    return true;
  }

  /** api_conversation_history.json: the tool calls and how each went. */
  readConversation(messages: unknown[], start: number): void {
    let at = start;
    let pending: Array<{ item: ToolItem; id?: string }> = [];
    const finish = (entry: { item: ToolItem }, text: string | undefined) => {
      if (text !== undefined) entry.item.call.outcome = clineOutcome(resultBody(text), undefined);
      this.items.push(entry.item);
    };
    messages.forEach((message, index) => {
      if (!isObject(message)) {
        this.skipped++;
        return;
      }
      at = num(message.ts) ?? at;
      const blocks = blocksOf(message);
      if (message.role === 'assistant') {
        for (const entry of pending) finish(entry, undefined);
        pending = [];
        const uses = blocks.filter((block) => block.type === 'tool_use');
        if (uses.length > 0) {
          for (const block of uses) {
            const name = str(block.name);
            if (!name) continue;
            const id = str(block.id) ?? `${this.taskId}:${index}:${pending.length}`;
            pending.push({ item: this.toolItem(at, name, block.input, id), id: str(block.id) });
          }
        } else {
          const text = blocks
            .map((block) => (block.type === 'text' ? (str(block.text) ?? '') : ''))
            .join('\n');
          for (const call of xmlToolCalls(text))
            pending.push({
              item: this.toolItem(at, call.name, call.params, `${this.taskId}:${index}:${pending.length}`),
            });
        }
        return;
      }
      if (message.role !== 'user' || pending.length === 0) return;
      const results = blocks.filter((block) => block.type === 'tool_result');
      const texts = xmlResults(blocks);
      for (const entry of pending) {
        const result = entry.id ? results.find((block) => block.tool_use_id === entry.id) : undefined;
        if (result) finish(entry, resultText(result.content));
        else if (!entry.id && texts.length > 0) finish(entry, texts.shift());
        else finish(entry, undefined);
      }
      pending = [];
    });
    for (const entry of pending) finish(entry, undefined);
  }

  private toolItem(at: number, name: string, input: unknown, useId: string): ToolItem {
    const call = clineToolCall(name, input, useId, this.mcpServers) as ToolCall & { useId: string };
    return { type: 'tool', sessionId: this.taskId, at, call };
  }
}

/** Everything a task folder says; `file` is its ui_messages.json or api_conversation_history.json. */
export async function readClineTask(file: string): Promise<{ items: SessionItem[]; skipped: number }> {
  await Promise.resolve();
  const dir = path.dirname(file);
  const taskId = path.basename(dir);
  const storage = path.dirname(path.dirname(dir));
  const windows = new Map<string | undefined, number | undefined>();
  const reader = new TaskReader(taskId, (model) => {
    if (!windows.has(model)) windows.set(model, cachedWindow(storage, model));
    return windows.get(model);
  });
  const messages = readJsonDocument(path.join(dir, UI_MESSAGES));
  const conversation = readJsonDocument(path.join(dir, API_HISTORY));
  if (messages === undefined && conversation === undefined)
    throw new Error(`${path.basename(file)} is not there`);
  if (messages !== undefined && !Array.isArray(messages))
    throw new Error(`${UI_MESSAGES} is not a list of messages`);
  if (conversation !== undefined && !Array.isArray(conversation))
    throw new Error(`${API_HISTORY} is not a list of messages`);
  const history = historyEntryOf(dir);
  const cwd = history?.cwd ?? cwdFromConversation(dir);
  reader.readMessages(messages ?? [], history, cwd);
  const start = reader.items[0]?.at ?? 0;
  reader.readConversation(conversation ?? [], start);
  // In time order: the conversation's tool calls among the panel's messages.
  const items = reader.items
    .map((item, order) => ({ item, order }))
    .sort((a, b) =>
      a.item.type === 'session'
        ? -1
        : b.item.type === 'session'
          ? 1
          : a.item.at - b.item.at || a.order - b.order,
    )
    .map((entry) => entry.item);
  return { items, skipped: reader.skipped };
}

export const clineSessions: SessionFiles = {
  measuresContext: true,
  find: (projectRoot, env) => findClineTasks(projectRoot, env),
  recognise: recogniseClineTask,
  fileOf: (taskId, env) =>
    TASK_ID.test(taskId)
      ? clineStorageDirs(env)
          .map((storage) => taskFile(storage, taskId))
          .find((file) => file !== undefined)
      : undefined,
  read: (file) => readClineTask(file),
};
