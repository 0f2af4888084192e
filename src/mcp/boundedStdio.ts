/**
 * The stdio transport, with a bound on each message. The SDK's StdioServerTransport buffers a line whole,
 * copying it again with every chunk, and closes the connection once it passes 10 MB: one oversized request
 * ended the server. Here a line longer than MAX_MESSAGE_BYTES is skipped as it streams in, never buffered,
 * and the request it carried is answered with an error when its id can be found at either end of the line.
 */
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The longest message read: far above any real request (the longest argument, a saved observation, is
 * 4,000 characters), low enough that parsing and checking one takes milliseconds.
 */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Bytes kept from each end of a skipped line: enough to hold its `"id"` wherever the client put it. */
const EDGE_BYTES = 256;
const NEWLINE = 0x0a;
const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** A top-level id at the start: `{"id":…` or after a short `"jsonrpc"`/`"method"` member (Python's order). */
const ID_AT_START = new RegExp(
  String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,)*\s*"id"\s*:\s*${ID_VALUE}`,
);
/** A top-level id as the last member, as the TypeScript SDK writes it: nested objects end in `}}`. */
const ID_AT_END = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

function idOf(head: Buffer, tail: Buffer): RequestId | undefined {
  const found = ID_AT_START.exec(head.toString('utf8')) ?? ID_AT_END.exec(tail.toString('utf8'));
  return found ? (JSON.parse(found[1]) as RequestId) : undefined;
}

export class BoundedStdioTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** While the rest of an oversized line is skipped: its first bytes and its latest ones. */
  private skipping: { head: Buffer; tail: Buffer } | undefined;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(serializeMessage(message))) resolve();
      else this.output.once('drain', resolve);
    });
  }

  /** Idempotent: closing the server closes its transport, which may be what is closing the server. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.input.pause();
    this.pending = [];
    this.skipping = undefined;
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer): void => {
    for (let start = 0; start < chunk.length;) {
      const newline = chunk.indexOf(NEWLINE, start);
      this.take(chunk.subarray(start, newline < 0 ? chunk.length : newline));
      if (newline < 0) return;
      this.endLine();
      start = newline + 1;
    }
  };

  private readonly onInputError = (error: Error): void => this.onerror?.(error);
  private readonly onEnd = (): void => void this.close();

  private take(piece: Buffer): void {
    if (this.skipping) {
      const tail = Buffer.concat([
        this.skipping.tail,
        piece.subarray(Math.max(0, piece.length - EDGE_BYTES)),
      ]);
      this.skipping.tail = tail.subarray(tail.length - Math.min(tail.length, EDGE_BYTES));
    } else if (this.pendingBytes + piece.length <= MAX_MESSAGE_BYTES) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
    } else {
      const line = Buffer.concat([...this.pending, piece]);
      this.skipping = {
        head: Buffer.from(line.subarray(0, EDGE_BYTES)),
        tail: Buffer.from(line.subarray(line.length - EDGE_BYTES)),
      };
      this.pending = [];
      this.pendingBytes = 0;
    }
  }

  private endLine(): void {
    const { pending, skipping } = this;
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = undefined;
    if (skipping) return this.refuse(idOf(skipping.head, skipping.tail));
    try {
      this.onmessage?.(deserializeMessage(Buffer.concat(pending).toString('utf8').replace(/\r$/, '')));
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private refuse(id: RequestId | undefined): void {
    const message =
      `Message refused unread: it is longer than ${MAX_MESSAGE_BYTES} bytes ` +
      `(${MAX_MESSAGE_BYTES / 2 ** 20} MiB), and no tool takes arguments that long. Send a shorter query or text.`;
    this.onerror?.(new Error(`${message}${id === undefined ? ' (no request id found to answer)' : ''}`));
    if (id !== undefined)
      void this.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message } });
  }
}
