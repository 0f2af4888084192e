/**
 * A scripted model on 127.0.0.1 that speaks the three wire protocols the agents' CLIs use: Anthropic's
 * Messages API (Claude Code), OpenAI's Responses API (Codex) and OpenAI's Chat Completions (opencode, Cline),
 * streamed as server-sent events or answered whole. Each request is handed to the scenario's script in one
 * neutral shape; the script's turn is encoded back in the request's own protocol. Every request is kept, so a
 * test can check what the agent sent its model (the session context it was handed, for one).
 *
 * The usage each answer reports is the request's size in tokens (about 4 characters each), so the agent's
 * own token accounting grows as a real session's does, and Context Deck's figures can be held against it.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type WireApi = 'anthropic' | 'responses' | 'chat';

/** What the script is shown of one request. */
export interface ModelRequest {
  readonly api: WireApi;
  readonly path: string;
  /** The request body as sent. */
  readonly body: Record<string, unknown>;
  /** The names of the tools offered; none for a side request (a title, a summary). */
  readonly tools: readonly string[];
  /** How many tool results the conversation holds: the step the session is at. */
  readonly toolResults: number;
  /** The whole request as text, system prompt and messages: what a check looks for the session context in. */
  readonly text: string;
}

export interface ToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** One answer of the model: text, tool calls, or both. */
export interface ModelTurn {
  readonly text?: string;
  readonly calls?: readonly ToolCall[];
}

export type Script = (request: ModelRequest) => ModelTurn;

export interface Usage {
  readonly input: number;
  readonly output: number;
  /** Of `input`, the tokens reported read from the provider's cache (Chat Completions' `cached_tokens`). */
  readonly cached?: number;
}

export interface ScriptedModelOptions {
  /** The share of each request's input reported as read from cache (Chat Completions only): none by default. */
  readonly cachedShare?: number;
}

/** One request as the server saw it, with the usage it reported. */
export interface SeenRequest extends ModelRequest {
  readonly usage: Usage;
  readonly turn: ModelTurn;
}

export interface ScriptedModel {
  /** `http://127.0.0.1:<port>`: each agent's base URL adds its protocol's prefix (`/v1`). */
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Paths requested that no protocol here answers (telemetry, model lists the agent could do without). */
  readonly unanswered: string[];
  close(): Promise<void>;
}

const MAX_BODY = 32 * 1024 * 1024;

export function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function toolNames(api: WireApi, body: Record<string, unknown>): string[] {
  return array(body.tools).map((tool) => {
    const entry = record(tool);
    const name = api === 'chat' ? record(entry.function).name : (entry.name ?? record(entry.function).name);
    return typeof name === 'string' ? name : '';
  });
}

function countToolResults(api: WireApi, body: Record<string, unknown>): number {
  if (api === 'anthropic') {
    return array(body.messages)
      .flatMap((message) => array(record(message).content))
      .filter((block) => record(block).type === 'tool_result').length;
  }
  if (api === 'responses') {
    return array(body.input).filter((item) => {
      const type = record(item).type;
      return typeof type === 'string' && type.endsWith('_call_output');
    }).length;
  }
  return array(body.messages).filter((message) => record(message).role === 'tool').length;
}

function neutral(api: WireApi, path: string, body: Record<string, unknown>): ModelRequest {
  return {
    api,
    path,
    body,
    tools: toolNames(api, body).filter((name) => name !== ''),
    toolResults: countToolResults(api, body),
    text: JSON.stringify(body),
  };
}

let ids = 0;
function nextId(prefix: string): string {
  ids += 1;
  return `${prefix}_${Date.now().toString(36)}${ids}`;
}

interface Reply {
  readonly json?: unknown;
  readonly events?: readonly { event?: string; data: unknown }[];
}

function anthropicReply(turn: ModelTurn, usage: Usage, model: string, stream: boolean): Reply {
  const calls = (turn.calls ?? []).map((call) => ({ id: nextId('toolu'), ...call }));
  const content = [
    ...(turn.text !== undefined ? [{ type: 'text', text: turn.text }] : []),
    ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input })),
  ];
  const stopReason = calls.length > 0 ? 'tool_use' : 'end_turn';
  const usageFields = {
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  const message = { id: nextId('msg'), type: 'message', role: 'assistant', model };
  if (!stream) {
    return {
      json: { ...message, content, stop_reason: stopReason, stop_sequence: null, usage: usageFields },
    };
  }
  const events: { event: string; data: unknown }[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          ...message,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usageFields, output_tokens: 1 },
        },
      },
    },
  ];
  content.forEach((block, index) => {
    const start = 'text' in block ? { type: 'text', text: '' } : { ...block, input: {} };
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: start },
    });
    const delta =
      'text' in block
        ? { type: 'text_delta', text: block.text }
        : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) };
    events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: usageFields,
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return { events };
}

function responsesReply(turn: ModelTurn, usage: Usage, model: string): Reply {
  const id = nextId('resp');
  const output = [
    ...(turn.text !== undefined
      ? [
          {
            type: 'message',
            id: nextId('msg'),
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: turn.text, annotations: [] }],
          },
        ]
      : []),
    ...(turn.calls ?? []).map((call) => ({
      type: 'function_call',
      id: nextId('fc'),
      call_id: nextId('call'),
      name: call.name,
      arguments: JSON.stringify(call.input),
      status: 'completed',
    })),
  ];
  const usageFields = {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output,
  };
  const response = { id, object: 'response', model, status: 'completed' };
  return {
    events: [
      {
        event: 'response.created',
        data: { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
      },
      ...output.map((item, index) => ({
        event: 'response.output_item.done',
        data: { type: 'response.output_item.done', output_index: index, item },
      })),
      {
        event: 'response.completed',
        data: { type: 'response.completed', response: { ...response, output, usage: usageFields } },
      },
    ],
  };
}

function chatReply(turn: ModelTurn, usage: Usage, model: string, stream: boolean): Reply {
  const id = nextId('chatcmpl');
  const calls = (turn.calls ?? []).map((call, index) => ({
    index,
    id: nextId('call'),
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.input) },
  }));
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const usageFields = {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    ...(usage.cached ? { prompt_tokens_details: { cached_tokens: usage.cached } } : {}),
  };
  const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  if (!stream) {
    return {
      json: {
        ...base,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: turn.text ?? null,
              ...(calls.length > 0 ? { tool_calls: calls.map(({ index: _index, ...call }) => call) } : {}),
            },
            finish_reason: finish,
          },
        ],
        usage: usageFields,
      },
    };
  }
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    data: { ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] },
  });
  return {
    events: [
      chunk({ role: 'assistant', content: turn.text ?? '' }),
      ...(calls.length > 0 ? [chunk({ tool_calls: calls })] : []),
      chunk({}, finish),
      { data: { ...base, choices: [], usage: usageFields } },
      { data: '[DONE]' },
    ],
  };
}

function apiOf(path: string): WireApi | undefined {
  if (/\/messages$/.test(path)) return 'anthropic';
  if (/\/responses$/.test(path)) return 'responses';
  if (/\/chat\/completions$/.test(path)) return 'chat';
  return undefined;
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('request body over 32 MiB'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: http.ServerResponse, reply: Reply): void {
  if (reply.events) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const { event, data } of reply.events) {
      const payload = typeof data === 'string' ? data : JSON.stringify(data);
      response.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
    }
    response.end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(reply.json));
}

/** Starts the model on 127.0.0.1 at a free port; nothing else is listened on. */
export async function startScriptedModel(
  script: Script,
  options: ScriptedModelOptions = {},
): Promise<ScriptedModel> {
  const requests: SeenRequest[] = [];
  const unanswered: string[] = [];
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    void (async () => {
      const text = request.method === 'POST' ? await readBody(request) : '';
      if (/\/count_tokens$/.test(path)) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ input_tokens: tokensOf(text) }));
        return;
      }
      if (request.method === 'GET' && /\/models$/.test(path)) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            object: 'list',
            data: [{ id: 'scripted-model', object: 'model', owned_by: 'test' }],
          }),
        );
        return;
      }
      const api = apiOf(path);
      if (!api || request.method !== 'POST') {
        unanswered.push(`${request.method} ${path}`);
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"error":{"message":"not scripted"}}');
        return;
      }
      const body = record(JSON.parse(text));
      const seen = neutral(api, path, body);
      const turn = script(seen);
      const input = tokensOf(text);
      const cached = api === 'chat' ? Math.floor(input * (options.cachedShare ?? 0)) : 0;
      const usage = {
        input,
        output: tokensOf(JSON.stringify(turn)),
        ...(cached > 0 ? { cached } : {}),
      };
      requests.push({ ...seen, usage, turn });
      const model = typeof body.model === 'string' ? body.model : 'scripted-model';
      const stream = body.stream === true || api === 'responses';
      send(
        response,
        api === 'anthropic'
          ? anthropicReply(turn, usage, model, stream)
          : api === 'responses'
            ? responsesReply(turn, usage, model)
            : chatReply(turn, usage, model, stream),
      );
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unanswered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The whole-session scenario every agent runs, as steps indexed by the tool results so far: a listing, a file
 * written, a check that exits 1, the fix, the check passing, a final report. Each agent names its own tools.
 */
export interface SessionTools {
  list(): ToolCall;
  write(file: string, content: string): ToolCall;
  run(command: string): ToolCall;
}

export const FINAL_REPORT = 'Done: greet.sh now prints hello and its check passes.';

export function sessionScript(tools: SessionTools): Script {
  const steps: ModelTurn[] = [
    { text: 'Listing the project first.', calls: [tools.list()] },
    { calls: [tools.write('greet.sh', 'echo helo\n')] },
    { calls: [tools.run('sh check.sh')] },
    {
      text: 'The check failed: greet.sh misspells hello. Fixing it.',
      calls: [tools.write('greet.sh', 'echo hello\n')],
    },
    { calls: [tools.run('sh check.sh')] },
    { text: FINAL_REPORT },
  ];
  return (request) => {
    // A side request (a title, a summary): no tools offered.
    if (request.tools.length === 0) return { text: 'Fix greet.sh' };
    return steps[Math.min(request.toolResults, steps.length - 1)];
  };
}

/** The project every scenario starts in: a check that passes only once greet.sh prints hello. */
export const PROJECT_FILES: Readonly<Record<string, string>> = {
  'check.sh': '[ "$(sh greet.sh)" = hello ] || { echo "expected hello, got $(sh greet.sh)"; exit 1; }\n',
  'README.md': '# greet\n\nA one-line script and its check.\n',
};
