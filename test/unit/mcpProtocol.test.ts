/**
 * The MCP server's stdio protocol as clients meet it: the initialisation order and oversized messages, over
 * a raw child process (bytes on stdin, lines on stdout) and over the SDK's StdioClientTransport.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  type JSONRPCMessage,
  type JSONRPCResponse,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES } from '../../src/mcp/boundedStdio';
import { bundleForNode } from '../support/bundle';
import { tempWorkspace } from '../support/events';

/** Only a failure condition: a server that stalls or hangs fails here instead of hanging the run. */
const GENEROUS = { timeout: 60_000 };

let ws: ReturnType<typeof tempWorkspace>;
let serverJs: string;

before(async () => {
  ws = tempWorkspace('cd-mcp-protocol-');
  const bin = path.join(path.dirname(ws.home), 'bin');
  fs.mkdirSync(bin);
  await bundleForNode(bin, { mcp: 'src/mcp/main.ts' });
  serverJs = path.join(bin, 'mcp.js');
});
after(() => ws?.cleanup());

/** A client speaking JSON-RPC by hand: what it sends and the server's answer to each request id. */
interface Peer {
  send(message: JSONRPCMessage): void;
  reply(id: number): Promise<JSONRPCResponse>;
  close(): Promise<void>;
}

/** Answers by request id; all of them fail at once if the server goes away. */
function replies() {
  const arrived = new Map<number, JSONRPCResponse>();
  const waiting = new Map<number, { resolve(reply: JSONRPCResponse): void; reject(error: Error): void }>();
  let gone: Error | undefined;
  return {
    deliver(message: JSONRPCMessage) {
      if (!('id' in message) || 'method' in message) return;
      const id = Number(message.id);
      arrived.set(id, message);
      waiting.get(id)?.resolve(message);
    },
    fail(error: Error) {
      gone = error;
      for (const waiter of waiting.values()) waiter.reject(error);
    },
    reply(id: number): Promise<JSONRPCResponse> {
      const ready = arrived.get(id);
      if (ready) return Promise.resolve(ready);
      if (gone) return Promise.reject(gone);
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    },
  };
}

function serverArgs(): string[] {
  return [serverJs, '--home', ws.home];
}

function rawChild(): Peer & { writeLine(text: string): void } {
  const child = spawn(process.execPath, serverArgs(), { cwd: ws.project, stdio: ['pipe', 'pipe', 'pipe'] });
  const answers = replies();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  readline
    .createInterface({ input: child.stdout })
    .on('line', (line) => answers.deliver(JSON.parse(line) as JSONRPCMessage));
  child.once('exit', (code, signal) =>
    answers.fail(new Error(`the server exited (${code ?? signal}): ${stderr.slice(0, 500)}`)),
  );
  const writeLine = (text: string) => child.stdin.write(`${text}\n`);
  return {
    writeLine,
    send: (message) => writeLine(JSON.stringify(message)),
    reply: answers.reply,
    async close() {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

async function sdkTransport(): Promise<Peer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serverArgs(),
    cwd: ws.project,
    stderr: 'pipe',
  });
  const answers = replies();
  transport.onmessage = answers.deliver;
  transport.onclose = () => answers.fail(new Error('the server closed the connection'));
  await transport.start();
  return {
    send: (message) => void transport.send(message),
    reply: answers.reply,
    close: () => transport.close(),
  };
}

const request = (id: number, method: string, params?: Record<string, unknown>): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});
const searchLogin = (id: number) =>
  request(id, 'tools/call', { name: 'search', arguments: { query: 'login' } });
const initialize = (id: number) =>
  request(id, 'initialize', {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'raw-test', version: '1.0.0' },
  });

/** The error of a reply, failing when the server answered the request instead. */
function errorOf(reply: JSONRPCResponse): { code: number; message: string } {
  assert.ok('error' in reply, `answered instead of refused: ${JSON.stringify(reply).slice(0, 300)}`);
  return reply.error;
}

describe('MCP initialisation order', () => {
  for (const [name, connect] of [
    ['a raw stdio child process', async () => rawChild()],
    ["the SDK's StdioClientTransport", sdkTransport],
  ] as const) {
    test(
      `over ${name}: only ping and initialize are served until the client says it is initialized`,
      GENEROUS,
      async () => {
        const peer = await connect();
        try {
          peer.send(searchLogin(1));
          const early = errorOf(await peer.reply(1));
          assert.match(
            early.message,
            /not initialized: send "initialize", then "notifications\/initialized"/,
          );

          peer.send(request(2, 'ping'));
          assert.deepEqual(await peer.reply(2), { jsonrpc: '2.0', id: 2, result: {} });

          peer.send(initialize(3));
          const init = await peer.reply(3);
          assert.ok('result' in init);
          assert.equal((init.result.serverInfo as { name: string }).name, 'context-deck');

          peer.send(request(4, 'tools/list'));
          assert.match(
            errorOf(await peer.reply(4)).message,
            /send "notifications\/initialized" before "tools\/list"/,
          );

          peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          peer.send(searchLogin(5));
          const served = await peer.reply(5);
          assert.ok('result' in served, JSON.stringify(served));
          const result = served.result as CallToolResult;
          assert.notEqual(result.isError, true);
          assert.match(
            result.content[0].type === 'text' ? result.content[0].text : '',
            /^Memory search for "login"/,
          );
        } finally {
          await peer.close();
        }
      },
    );
  }
});

describe('MCP messages over the size limit', () => {
  test(
    'a 10 MB line is refused as it streams in; the server answers the next request',
    GENEROUS,
    async () => {
      const peer = rawChild();
      try {
        peer.send(initialize(1));
        await peer.reply(1);
        peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        // Key order as Python clients write it: the id comes first, before 10 MB of arguments.
        const query = 'x'.repeat(10 * 1024 * 1024);
        peer.writeLine(
          `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"${query}"}}}`,
        );
        const refused = errorOf(await peer.reply(2));
        assert.match(refused.message, new RegExp(`longer than ${MAX_MESSAGE_BYTES} bytes`));
        assert.match(refused.message, /shorter query/);

        peer.send(searchLogin(3));
        assert.ok('result' in (await peer.reply(3)), 'still serving after the huge line');
      } finally {
        await peer.close();
      }
    },
  );
});
