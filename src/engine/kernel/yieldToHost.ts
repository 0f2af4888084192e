/**
 * Let whatever else waits on this thread run (in the extension host: other extensions, typing) before going
 * on. Node runs every immediate queued before its check phase back to back, so several of our jobs yielding
 * at once (a catch-up's views, the gauge, the registry) would still hold the thread as one long task: they
 * are resumed one per turn of the event loop, with input polled between.
 */
const waiting: Array<() => void> = [];
let pumping = false;

export function yieldToHost(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(resumeOne);
    }
  });
}

function resumeOne(): void {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(resumeOne);
  else pumping = false;
}
