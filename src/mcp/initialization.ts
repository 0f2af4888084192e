/**
 * The protocol's initialisation order, which the SDK's Server does not enforce: it answers a tools/call sent
 * before `initialize` as readily as one sent after. The spec makes initialisation the first interaction and
 * expects nothing but pings until the client's `notifications/initialized`; over stdio, messages arrive in
 * the order sent, so a client that follows it is never refused. Requests out of order get an error.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type JSONRPCMessage,
  isJSONRPCNotification,
  isJSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

/** The code the SDK's own HTTP transport gives "Server not initialized" (JSON-RPC's server-error range). */
const NOT_INITIALIZED = -32000;
/** Requests the spec allows before the client says it is initialized. */
const ALWAYS_ALLOWED = new Set(['initialize', 'ping']);

/** `transport`, passing on requests only once the client has sent `initialize`, then `initialized`. */
export class InitializationGate implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  /** What the server waits for before it serves requests. */
  private waitingFor: 'initialize' | 'initialized' | undefined = 'initialize';

  constructor(private readonly inner: Transport) {}

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => {
      if (this.admits(message)) this.onmessage?.(message, extra);
    };
    await this.inner.start();
  }

  send(...args: Parameters<Transport['send']>): Promise<void> {
    return this.inner.send(...args);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Whether to pass `message` on; a request that came too early is answered here instead. */
  private admits(message: JSONRPCMessage): boolean {
    if (this.waitingFor === undefined) return true;
    if (isJSONRPCNotification(message)) {
      if (message.method === 'notifications/initialized' && this.waitingFor === 'initialized')
        this.waitingFor = undefined;
      return true;
    }
    if (!isJSONRPCRequest(message)) return true;
    if (message.method === 'initialize') this.waitingFor = 'initialized';
    if (ALWAYS_ALLOWED.has(message.method)) return true;
    const steps =
      this.waitingFor === 'initialize'
        ? '"initialize", then "notifications/initialized",'
        : '"notifications/initialized"';
    void this.inner.send({
      jsonrpc: '2.0',
      id: message.id,
      error: {
        code: NOT_INITIALIZED,
        message: `Server not initialized: send ${steps} before "${message.method}"`,
      },
    });
    return false;
  }
}
