/**
 * Cline CLI 3.0's sessions (the CLI on Cline's SDK, `cline "prompt"`; read in its 3.0.65 package and
 * cline/cline `sdk/packages/`): a folder per session in `~/.cline/data/sessions/<id>/` (`shared/src/storage/
 * paths.ts` resolveSessionDataDir: `CLINE_SESSION_DATA_DIR`, else `CLINE_DATA_DIR` or `CLINE_DIR/data`),
 * holding two whole JSON documents rewritten as the session runs (`core/src/services/session-artifacts.ts`):
 * - `<id>.json`, the manifest: `session_id`, `started_at` (ISO), `cwd`, `workspace_root`, `provider`,
 *   `model`, `prompt` (`core/src/session/models/session-manifest.ts`);
 * - `<id>.messages.json`, `{version, updated_at, agent, sessionId, messages}`, each message `{id, role,
 *   content, ts, modelInfo {id, provider}, metrics {inputTokens, outputTokens, cacheReadTokens,
 *   cacheWriteTokens}}` (`core/src/services/session-data.ts`); a prompt is a user text wrapped as
 *   `<user_input mode="act">…</user_input>` (`shared/src/prompt/format.ts` formatUserInputBlock), a tool
 *   call a `tool_use` block answered by a `tool_result` (`is_error` when the call threw).
 * The gauge follows `<id>.messages.json`: a request's `inputTokens` already hold the tokens read from or
 * written to the cache (the AI SDK's `inputTokens` is the whole prompt; `cacheReadTokens` is part of it), so
 * the context after a turn is its input and output tokens, the cache counted once.
 *
 * Written by a program that reads repositories: files are read only when regular (no link followed), within
 * MAX_TASK_FILE_BYTES; folders are listed without following links, at most MAX_SESSION_FOLDERS.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isWithin } from '../../kernel/paths';
import type { SessionFiles, SessionItem } from '../adapter';
import { type Json, isObject, jsonNumber as num, jsonText as str } from '../jsonValues';
import type { ToolCall } from '../types';
import { clineStorageDirs, readJsonDocument, regularFileSize } from './taskFiles';
import { clineOutcome, clineToolCall } from './toolKinds';

const MESSAGES_SUFFIX = '.messages.json';
/** The manifest is a few lines of metadata. */
const MAX_MANIFEST_BYTES = 1024 * 1024;
const MAX_SESSION_FOLDERS = 10_000;
/** Session ids as the SDK makes them (`<Date.now()>_<5 chars>`, `shared/src/session`): nothing else names a folder. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;
/**
 * The window Cline gives a model of an OpenAI-compatible provider its settings say nothing of (3.0.65
 * `@cline/core`: the provider's model entry defaults `contextWindow` to 128,000).
 */
const OPENAI_COMPATIBLE_WINDOW = 128_000;

/** The folders Cline's SDK keeps sessions in: `CLINE_SESSION_DATA_DIR`, or `sessions/` in its data folders. */
function sessionRoots(env: NodeJS.ProcessEnv): string[] {
  const explicit = env.CLINE_SESSION_DATA_DIR?.trim();
  if (explicit) return [explicit];
  const home = env.HOME?.trim() || env.USERPROFILE?.trim() || os.homedir();
  const data =
    env.CLINE_DATA_DIR?.trim() || path.join(env.CLINE_DIR?.trim() || path.join(home, '.cline'), 'data');
  return [...new Set([data, ...clineStorageDirs(env)].map((dir) => path.join(dir, 'sessions')))];
}

/** The folder of session `id` under `root` and its messages file, where both are what they say. */
function messagesFile(root: string, id: string): string | undefined {
  if (!SESSION_ID.test(id)) return undefined;
  const dir = path.join(root, id);
  try {
    if (!fs.lstatSync(dir).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const file = path.join(dir, `${id}${MESSAGES_SUFFIX}`);
  return regularFileSize(file) === undefined ? undefined : file;
}

function readManifest(dir: string, id: string): Json | undefined {
  try {
    const manifest = readJsonDocument(path.join(dir, `${id}.json`), MAX_MANIFEST_BYTES);
    return isObject(manifest) ? manifest : undefined;
  } catch {
    return undefined;
  }
}

function folderOf(manifest: Json | undefined): string | undefined {
  const cwd = str(manifest?.cwd) ?? str(manifest?.workspace_root);
  return cwd && path.isAbsolute(cwd) ? cwd : undefined;
}

function timeOf(value: unknown): number | undefined {
  const at = typeof value === 'string' ? Date.parse(value) : num(value);
  return at !== undefined && Number.isFinite(at) ? at : undefined;
}

/** The messages file of each session begun in `projectRoot` or below, oldest first. */
export function findClineSdkSessions(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const root = path.resolve(projectRoot);
  const found: Array<{ file: string; at: number }> = [];
  for (const sessions of sessionRoots(env)) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(sessions, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries.filter((one) => one.isDirectory()).slice(0, MAX_SESSION_FOLDERS)) {
      const file = messagesFile(sessions, entry.name);
      if (!file) continue;
      const manifest = readManifest(path.dirname(file), entry.name);
      const cwd = folderOf(manifest);
      if (!cwd || !isWithin(root, path.resolve(cwd))) continue;
      found.push({ file, at: timeOf(manifest?.started_at) ?? 0 });
    }
  }
  return found.sort((a, b) => a.at - b.at || a.file.localeCompare(b.file)).map((entry) => entry.file);
}

/** `<id>.messages.json`: `{"version": …, "updated_at": …, "agent": …`, as session-data.ts writes it. */
const MESSAGES_HEAD = /^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"updated_at"\s*:\s*"[^"]*"\s*,\s*"agent"\s*:/;
/** `<id>.json`: `{"version": …, "session_id": …, "source": …`. */
const MANIFEST_HEAD = /^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"session_id"\s*:\s*"[^"]*"\s*,\s*"source"\s*:/;

function recogniseClineSdkSession(head: string): boolean {
  return MESSAGES_HEAD.test(head) || MANIFEST_HEAD.test(head);
}

/** A prompt as the runtime stamps it; other user texts (reminders, hook context) are Cline's own. */
const USER_INPUT = /^<user_input mode="[a-z]+">([\s\S]*)<\/user_input>$/;

function blocksOf(message: Json): Json[] {
  const content = message.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/** A result as one text: a list or record of the SDK's (`run_commands`' `{query, result, error?}`) as JSON. */
function resultText(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
}

type ToolItem = Extract<SessionItem, { type: 'tool' }>;

class SessionReader {
  readonly items: SessionItem[] = [];
  skipped = 0;
  private readonly pending = new Map<string, ToolItem>();

  constructor(
    private readonly sessionId: string,
    private readonly provider: string | undefined,
  ) {}

  read(messages: unknown[], start: number): void {
    let at = start;
    messages.forEach((message, index) => {
      if (!isObject(message)) {
        this.skipped++;
        return;
      }
      at = num(message.ts) ?? at;
      const key = `${this.sessionId}:${str(message.id) ?? index}`;
      if (message.role === 'assistant') this.assistant(message, at, key);
      else if (message.role === 'user') this.user(message, at, key);
    });
    // Calls the session ended before answering: used, how it went unknown.
    for (const item of this.pending.values()) this.items.push(item);
    this.pending.clear();
  }

  private assistant(message: Json, at: number, key: string): void {
    const blocks = blocksOf(message);
    const text = blocks
      .map((block) => (block.type === 'text' ? (str(block.text) ?? '') : ''))
      .join('')
      .trim();
    if (text) this.items.push({ type: 'report', sessionId: this.sessionId, at, text, key });
    for (const block of blocks) {
      const name = block.type === 'tool_use' ? str(block.name) : undefined;
      const id = str(block.id);
      if (!name || !id) continue;
      const call = clineToolCall(name, block.input, id) as ToolCall & { useId: string };
      this.pending.set(id, { type: 'tool', sessionId: this.sessionId, at, call });
    }
    const metrics = isObject(message.metrics) ? message.metrics : undefined;
    const input = num(metrics?.inputTokens) ?? 0;
    const output = num(metrics?.outputTokens) ?? 0;
    if (input + output > 0) {
      const model = isObject(message.modelInfo) ? str(message.modelInfo.id) : undefined;
      const provider =
        (isObject(message.modelInfo) ? str(message.modelInfo.provider) : undefined) ?? this.provider;
      this.items.push({
        type: 'usage',
        sessionId: this.sessionId,
        at,
        contextTokens: input + output,
        ...(provider === 'openai-compatible' ? { contextWindow: OPENAI_COMPATIBLE_WINDOW } : {}),
        ...(model ? { model } : {}),
      });
    }
  }

  private user(message: Json, at: number, key: string): void {
    for (const block of blocksOf(message)) {
      if (block.type === 'tool_result') {
        const id = str(block.tool_use_id);
        const item = id ? this.pending.get(id) : undefined;
        if (!item || !id) continue;
        item.call.outcome = clineOutcome(resultText(block.content), block.is_error !== true);
        this.items.push(item);
        this.pending.delete(id);
      } else if (block.type === 'text') {
        const prompt = USER_INPUT.exec(str(block.text) ?? '')?.[1];
        if (prompt?.trim())
          this.items.push({ type: 'prompt', sessionId: this.sessionId, at, key, text: prompt });
      }
    }
  }
}

/** Everything a session folder says; `file` is its messages file or its manifest. */
export async function readClineSdkSession(file: string): Promise<{ items: SessionItem[]; skipped: number }> {
  await Promise.resolve();
  const dir = path.dirname(file);
  const id = path.basename(dir);
  if (!SESSION_ID.test(id)) throw new Error(`${path.basename(dir)} is not a session folder of Cline's`);
  const manifest = readManifest(dir, id);
  const document = readJsonDocument(path.join(dir, `${id}${MESSAGES_SUFFIX}`));
  if (document === undefined && manifest === undefined)
    throw new Error(`${path.basename(file)} is not there`);
  if (document !== undefined && !(isObject(document) && Array.isArray(document.messages)))
    throw new Error(`${id}${MESSAGES_SUFFIX} holds no list of messages`);
  const messages: unknown[] = isObject(document) && Array.isArray(document.messages) ? document.messages : [];
  const sessionId =
    str(manifest?.session_id) ?? (isObject(document) ? str(document.sessionId) : undefined) ?? id;
  const first = messages.find((message) => isObject(message) && num(message.ts) !== undefined);
  const start = timeOf(manifest?.started_at) ?? (isObject(first) ? num(first.ts) : undefined) ?? 0;
  const cwd = folderOf(manifest);
  const model = str(manifest?.model);
  // Cline writes `ended_at` and the session's `status` (completed, cancelled, failed) once it has closed.
  const ended = timeOf(manifest?.ended_at);
  const reader = new SessionReader(sessionId, str(manifest?.provider));
  reader.items.push({
    type: 'session',
    sessionId,
    at: start,
    ...(cwd ? { cwd } : {}),
    ...(model ? { model } : {}),
    ...(ended !== undefined ? { endedAt: ended, endReason: str(manifest?.status) ?? 'ended' } : {}),
  });
  reader.read(messages, start);
  return { items: reader.items, skipped: reader.skipped };
}

export const clineSdkSessions: SessionFiles = {
  measuresContext: true,
  find: (projectRoot, env) => findClineSdkSessions(projectRoot, env),
  recognise: recogniseClineSdkSession,
  fileOf: (sessionId, env) =>
    sessionRoots(env)
      .map((root) => messagesFile(root, sessionId))
      .find((file) => file !== undefined),
  read: (file) => readClineSdkSession(file),
};
