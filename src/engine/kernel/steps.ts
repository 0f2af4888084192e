/**
 * Work written as a generator that yields wherever its thread may be let go: run at once (the CLI, the MCP
 * server, a worker) or with a pause after each step (the extension host, whose thread typing waits on).
 */
import { yieldToHost } from './yieldToHost';

export type Steps<T> = Generator<void, T, void>;

export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export async function runInSteps<T>(steps: Steps<T>, pause: () => Promise<void> = yieldToHost): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}
