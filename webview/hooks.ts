import { useEffect, useState } from 'preact/hooks';
import type { HostMessage } from '../src/shared/protocol';
import { post } from './vscode';

function isHostMessage(data: unknown): data is HostMessage {
  if (typeof data !== 'object' || data === null) return false;
  const type = (data as { type?: unknown }).type;
  return type === 'state' || type === 'rejects';
}

/**
 * Listen to the host and say `ready` once listening: the host sends nothing before that, so no message can
 * be lost between the page loading and the listener being attached.
 */
export function useHostMessages(onMessage: (message: HostMessage) => void): void {
  useEffect(() => {
    const listener = (event: MessageEvent<unknown>) => {
      if (isHostMessage(event.data)) onMessage(event.data);
    };
    window.addEventListener('message', listener);
    post({ type: 'ready' });
    return () => window.removeEventListener('message', listener);
    // Listen once per page load; the handler only calls state setters, which never change.
  }, []);
}

/** The current time, refreshed every `intervalMs`, so relative times ("2 minutes ago") stay true. */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
