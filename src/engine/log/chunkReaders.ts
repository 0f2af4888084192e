/**
 * Where log chunks are read and parsed: inline, or on a worker thread that reads and parses the next chunk
 * while this thread writes the one before (for backlogs: parsing is about half of ingestion's work, and
 * only the thread that owns the sql.js database can write). A worker that fails or dies is not fatal: its
 * chunks are read inline instead, so nothing is lost or read twice; offsets are committed by the writer.
 */
import { Worker } from 'node:worker_threads';
import { type ChunkRead, readChunk } from './chunkParse';
import { type Routes, routerFor } from './routing';

export interface ChunkReader {
  /** The chunk of the open log file `fd` at `offset`; events without a recorder time get `ingestedAt`. */
  read(fd: number, offset: number, ingestedAt: number): Promise<ChunkRead>;
  /** How many chunks the worker answered. */
  readonly workerChunks: number;
  close(): Promise<void>;
}

/** A request to the parse worker. */
export interface ReadRequest {
  id: number;
  fd: number;
  offset: number;
  ingestedAt: number;
}

/**
 * The parse worker's answer: the chunk as JSON (a string crosses threads as one copy, and JSON.parse rebuilds
 * a chunk's many small values several times faster than structured clone), or why it could not read it.
 */
export type ReadReply = { id: number; json: string } | { id: number; error: string };

/** What the parse worker is started with. */
export interface ParseWorkerData {
  routes: Routes;
  chunkBytes: number;
}

/**
 * The first chunk of a backlog, read inline while the worker starts: small, so that this thread writes it and
 * waits for the worker's first chunk, rather than parse a whole chunk with the worker idle beside it.
 */
const FIRST_CHUNK_BYTES = 256 * 1024;

function readInline(routes: Routes, chunkBytes: number): (request: Omit<ReadRequest, 'id'>) => ChunkRead {
  const belongsHere = routerFor(routes);
  return ({ fd, offset, ingestedAt }) => readChunk(fd, offset, chunkBytes, ingestedAt, belongsHere);
}

export function inlineReader(routes: Routes, chunkBytes: number): ChunkReader {
  const read = readInline(routes, chunkBytes);
  return {
    read: async (fd, offset, ingestedAt) => read({ fd, offset, ingestedAt }),
    workerChunks: 0,
    close: async () => undefined,
  };
}

export function workerReader(routes: Routes, chunkBytes: number, workerFile: string): ChunkReader {
  const inline = readInline(routes, chunkBytes);
  const first = readInline(routes, Math.min(chunkBytes, FIRST_CHUNK_BYTES));
  const waiting = new Map<number, { request: ReadRequest; resolve: (chunk: ChunkRead) => void }>();
  let nextId = 0;
  let answered = 0;
  // The first chunk is read inline while the worker starts (loading it takes tens of milliseconds).
  let started = false;
  let worker: Worker | undefined;
  const fallBack = () => {
    worker = undefined;
    for (const { request, resolve } of waiting.values()) resolve(inline(request));
    waiting.clear();
  };
  try {
    worker = new Worker(workerFile, { workerData: { routes, chunkBytes } satisfies ParseWorkerData });
    worker.on('message', (reply: ReadReply) => {
      const request = waiting.get(reply.id);
      if (!request) return;
      waiting.delete(reply.id);
      if ('json' in reply) {
        answered++;
        request.resolve(JSON.parse(reply.json) as ChunkRead);
      } else request.resolve(inline(request.request));
    });
    worker.on('error', fallBack);
    worker.on('exit', fallBack);
  } catch {
    worker = undefined;
  }
  return {
    async read(fd, offset, ingestedAt) {
      const request: ReadRequest = { id: nextId++, fd, offset, ingestedAt };
      if (!worker) return inline(request);
      if (!started) {
        started = true;
        return first(request);
      }
      const chunk = new Promise<ChunkRead>((resolve) => waiting.set(request.id, { request, resolve }));
      worker.postMessage(request);
      return chunk;
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
