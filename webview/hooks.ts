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

/** Host messages that carry one project's view in a field named after the message type. */
type ProjectViewType = 'tools' | 'memory';
type ProjectView<K extends ProjectViewType> =
  Extract<HostMessage, { type: K }> extends Record<K, infer View> ? View : never;

/**
 * Views the host sends per project on messages of their own (`tools`, `memory`), kept outside any component
 * from the moment the page loads: one may arrive before its section has mounted. `replaces` decides whether
 * a view replaces the one already kept. Returns the hook that reads a project's view and renders again on
 * each update.
 */
export function projectViews<K extends ProjectViewType>(
  type: K,
  replaces: (previous: ProjectView<K>, next: ProjectView<K>) => boolean = () => true,
): (projectId: string) => ProjectView<K> | undefined {
  const received = new Map<string, ProjectView<K>>();
  const subscribers = new Set<() => void>();
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = event.data as Partial<Record<string, unknown>> | null;
    const view = message?.[type];
    if (message?.type !== type || typeof message.projectId !== 'string' || typeof view !== 'object' || !view)
      return;
    const previous = received.get(message.projectId);
    if (previous !== undefined && !replaces(previous, view as ProjectView<K>)) return;
    received.set(message.projectId, view as ProjectView<K>);
    subscribers.forEach((notify) => notify());
  });
  return function useProjectView(projectId: string): ProjectView<K> | undefined {
    const [, setTick] = useState(0);
    useEffect(() => {
      const notify = () => setTick((tick) => tick + 1);
      subscribers.add(notify);
      // A view that arrived between the first render and this subscription is shown now.
      notify();
      return () => void subscribers.delete(notify);
    }, []);
    return received.get(projectId);
  };
}
