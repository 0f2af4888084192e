import { useCallback, useState } from 'preact/hooks';
import type { WebviewMessage } from '../src/shared/protocol';

/** The API VS Code injects into the webview; it may be acquired only once per page load. */
interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api: VsCodeApi =
  typeof acquireVsCodeApi === 'function'
    ? acquireVsCodeApi()
    : // Outside VS Code (e.g. opening the bundle in a browser while styling) intents go nowhere.
      { postMessage: () => undefined, getState: () => undefined, setState: () => undefined };

/** Send an intent to the host. Only members of the WebviewMessage union type-check. */
export function post(message: WebviewMessage): void {
  api.postMessage(message);
}

type Persisted = Record<string, unknown>;

function readPersisted(): Persisted {
  const state = api.getState();
  return typeof state === 'object' && state !== null ? (state as Persisted) : {};
}

/**
 * UI-only state (which sections are collapsed, which lists are open) that survives the webview being hidden
 * and shown again. VS Code keeps it with the view; business data always comes fresh from the host.
 */
export function useVsCodeState<T>(key: string, initial: T): [T, (next: T | ((previous: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => {
    const stored = readPersisted()[key];
    return stored === undefined ? initial : (stored as T);
  });
  const update = useCallback(
    (next: T | ((previous: T) => T)) => {
      setValue((previous) => {
        const resolved = typeof next === 'function' ? (next as (previous: T) => T)(previous) : next;
        api.setState({ ...readPersisted(), [key]: resolved });
        return resolved;
      });
    },
    [key],
  );
  return [value, update];
}
