import { useEffect, useState } from 'preact/hooks';
import type { HostMessage } from '../src/shared/protocol';
import { type HostHandler, type HostMessageType, onHostMessage } from './hostMessages';
import { post } from './vscode';

/**
 * Handle the host's messages of these types and say `ready` once handling: the host sends nothing before
 * that, so no message can be lost between the page loading and the handlers being registered.
 */
export function useHostMessages<T extends HostMessageType>(handlers: { [K in T]: HostHandler<K> }): void {
  useEffect(() => {
    const types = Object.keys(handlers) as T[];
    const stops = types.map((type) => onHostMessage(type, handlers[type]));
    post({ type: 'ready' });
    return () => stops.forEach((stop) => stop());
    // Register once per page load; the handlers only call state setters, which never change.
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
  const keep = (message: { projectId: string } & Record<K, ProjectView<K>>) => {
    const { projectId } = message;
    const view = message[type];
    const previous = received.get(projectId);
    if (previous !== undefined && !replaces(previous, view)) return;
    received.set(projectId, view);
    subscribers.forEach((notify) => notify());
  };
  onHostMessage(type, keep as HostHandler<K>);
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
