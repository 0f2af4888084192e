/** Let whatever else waits on this thread run (in the extension host: other extensions, typing) before going on. */
export const yieldToHost = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
