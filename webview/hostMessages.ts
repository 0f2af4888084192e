/**
 * The page's one dispatcher: a single listener that hands each message of a type the host declares
 * (HOST_MESSAGES in src/shared/protocol.ts) to the one handler registered for that type. It listens from the
 * moment the page loads, so a view that arrives before its section mounts still reaches the store keeping it.
 */
import { type MessageHandlers, declaresType } from '../src/shared/messageTable';
import { HOST_MESSAGES, type HostMessage } from '../src/shared/protocol';

type HostHandlers = MessageHandlers<typeof HOST_MESSAGES, void>;
export type HostMessageType = keyof HostHandlers;
export type HostHandler<T extends HostMessageType> = HostHandlers[T];

const handlers: Partial<HostHandlers> = {};

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (typeof message !== 'object' || message === null) return;
  const type = (message as { type?: unknown }).type;
  if (!declaresType(HOST_MESSAGES, type)) return;
  (handlers[type] as ((message: HostMessage) => void) | undefined)?.(message as HostMessage);
});

/** Handle the host's messages of one type, until the returned function is called. One handler per type. */
export function onHostMessage<T extends HostMessageType>(type: T, handler: HostHandler<T>): () => void {
  if (handlers[type]) throw new Error(`the host's ${type} messages already have a handler`);
  handlers[type] = handler;
  return () => {
    if (handlers[type] === handler) delete handlers[type];
  };
}
