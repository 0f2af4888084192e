/**
 * Where transcripts are read: inline, or on a worker thread that reads, parses and summarises the next chunk
 * (and the next file) while this thread writes the one before. Reading is most of an import's work and only
 * the thread that owns the sql.js database can write. A worker that fails or dies is not fatal: the file it
 * was reading fails with a problem the import reports (what was committed stays, and the next import goes on
 * from there), and later files are read inline.
 */
import { Worker } from 'node:worker_threads';
import { LineReader } from '../kernel/appendedLines';
import {
  type TranscriptChunk,
  type TranscriptChunks,
  type TranscriptFileRequest,
  readTranscript,
} from './transcriptChunks';

export interface TranscriptReader {
  open(request: TranscriptFileRequest): Promise<TranscriptChunks>;
  /** How many chunks the worker answered. */
  readonly workerChunks: number;
  close(): Promise<void>;
}

/** A request to the transcript worker: a file to open as `reading`, its next chunk, or done with it. */
export type TranscriptWorkerRequest =
  | { id: number; kind: 'open'; reading: number; request: TranscriptFileRequest }
  | { id: number; kind: 'next'; reading: number }
  | { id: number; kind: 'close'; reading: number };

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** The worker's answer: a chunk as JSON (one string crosses threads as one copy), nothing, or why it failed. */
export type TranscriptWorkerReply = { id: number; json?: string } | { id: number; error: string };

/** Two line readers, so that the next file is read into one while the other's chunk is parsed. */
function lineReaders(): () => LineReader {
  const readers = [new LineReader(), new LineReader()];
  let next = 0;
  return () => readers[next++ % readers.length];
}

export function inlineTranscriptReader(): TranscriptReader {
  const nextReader = lineReaders();
  return {
    open: (request) => readTranscript(request, nextReader()),
    workerChunks: 0,
    close: async () => undefined,
  };
}

export function workerTranscriptReader(workerFile: string): TranscriptReader {
  const inline = inlineTranscriptReader();
  const waiting = new Map<
    number,
    { resolve: (json: string | undefined) => void; reject: (error: Error) => void }
  >();
  let nextId = 0;
  let nextReading = 0;
  let answered = 0;
  let worker: Worker | undefined;
  const fail = (why: string) => {
    worker = undefined;
    for (const { reject } of waiting.values()) reject(new Error(`the transcript worker stopped: ${why}`));
    waiting.clear();
  };
  try {
    worker = new Worker(workerFile);
    worker.on('message', (reply: TranscriptWorkerReply) => {
      const request = waiting.get(reply.id);
      if (!request) return;
      waiting.delete(reply.id);
      if ('error' in reply) request.reject(new Error(reply.error));
      else request.resolve(reply.json);
    });
    worker.on('error', (error) => fail(String(error)));
    worker.on('exit', (code) => fail(`exit code ${code}`));
  } catch {
    worker = undefined;
  }
  const ask = (request: WithoutId<TranscriptWorkerRequest>): Promise<string | undefined> => {
    const running = worker;
    if (!running) return Promise.reject(new Error('the transcript worker stopped'));
    const id = nextId++;
    const answer = new Promise<string | undefined>((resolve, reject) => waiting.set(id, { resolve, reject }));
    running.postMessage({ ...request, id } satisfies TranscriptWorkerRequest);
    return answer;
  };
  return {
    async open(request) {
      if (!worker) return inline.open(request);
      const reading = nextReading++;
      // Chunks are asked for without waiting for the file to open: the worker answers in the order asked,
      // so it goes on reading while this thread writes.
      const opened = ask({ kind: 'open', reading, request });
      opened.catch(() => undefined);
      return {
        async next() {
          const answer = ask({ kind: 'next', reading });
          answer.catch(() => undefined);
          await opened;
          const json = await answer;
          answered++;
          return JSON.parse(json ?? 'null') as TranscriptChunk;
        },
        async close() {
          await ask({ kind: 'close', reading }).catch(() => undefined);
        },
      };
    },
    get workerChunks() {
      return answered;
    },
    async close() {
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}
