/**
 * A worker thread that answers requests one by one, matched by id: what the readers that parse on a worker
 * share (log/chunkReaders.ts, transcripts/transcriptReaders.ts). A worker that fails, dies or cannot start
 * rejects what is asked of it, so its caller does that work another way; nothing waits forever.
 */
import { Worker } from 'node:worker_threads';

/** What a worker answers: `value` (a chunk as JSON, say), or why it could not. */
export type WorkerReply<Value> = { id: number; value: Value } | { id: number; error: string };

export interface WorkerRequests<Request, Value> {
  /** Rejects once the worker has stopped, or if it answered with an error. */
  ask(request: Request): Promise<Value>;
  /** False once the worker has failed, died or been closed (or never started). */
  readonly running: boolean;
  close(): Promise<void>;
}

/** `name` says which worker in the errors (`the transcript worker stopped: exit code 1`). */
export function workerRequests<Request extends object, Value>(
  name: string,
  workerFile: string,
  workerData?: unknown,
): WorkerRequests<Request, Value> {
  const waiting = new Map<number, { resolve: (value: Value) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let worker: Worker | undefined;
  const stop = (why: string) => {
    worker = undefined;
    for (const { reject } of waiting.values()) reject(new Error(`the ${name} stopped: ${why}`));
    waiting.clear();
  };
  try {
    worker = new Worker(workerFile, { workerData });
    worker.on('message', (reply: WorkerReply<Value>) => {
      const request = waiting.get(reply.id);
      if (!request) return;
      waiting.delete(reply.id);
      if ('error' in reply) request.reject(new Error(reply.error));
      else request.resolve(reply.value);
    });
    worker.on('error', (error) => stop(String(error)));
    worker.on('exit', (code) => stop(`exit code ${code}`));
  } catch {
    worker = undefined;
  }
  return {
    ask(request) {
      const running = worker;
      if (!running) return Promise.reject(new Error(`the ${name} stopped`));
      const id = nextId++;
      const answer = new Promise<Value>((resolve, reject) => waiting.set(id, { resolve, reject }));
      running.postMessage({ ...request, id });
      return answer;
    },
    get running() {
      return worker !== undefined;
    },
    async close() {
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}

/** Answers each request a worker receives with `answer`'s value or error, one at a time, in the order asked. */
export function answerRequests<Request, Value>(
  port: {
    on(event: 'message', listener: (request: Request & { id: number }) => void): void;
    postMessage(reply: unknown): void;
  },
  answer: (request: Request) => Value | Promise<Value>,
): void {
  let queue = Promise.resolve();
  port.on('message', (request) => {
    queue = queue.then(async () => {
      let reply: WorkerReply<Value>;
      try {
        reply = { id: request.id, value: await answer(request) };
      } catch (error) {
        reply = { id: request.id, error: String(error) };
      }
      port.postMessage(reply);
    });
  });
}
