/**
 * Where log chunks are read and parsed: inline, or on a worker thread that reads and parses the next chunk
 * while this thread writes the one before (for backlogs: parsing is about half of ingestion's work, and
 * only the thread that owns the sql.js database can write). A worker that fails or dies is not fatal: its
 * chunks are read inline instead, so nothing is lost or read twice; offsets are committed by the writer.
 */
import { type ChunkRead, readChunk } from './chunkParse';
import { type Routes, routerFor } from './routing';
import { workerRequests } from '../kernel/workerRequests';

export interface ChunkReader {
  /** The chunk of the open log file `fd` at `offset`; events without a recorder time get `ingestedAt`. */
  read(fd: number, offset: number, ingestedAt: number): Promise<ChunkRead>;
  /** How many chunks the worker answered. */
  readonly workerChunks: number;
  close(): Promise<void>;
}

/** A request to the parse worker: the chunk of `fd` at `offset`. */
export interface ReadRequest {
  fd: number;
  offset: number;
  ingestedAt: number;
}

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

function readInline(routes: Routes, chunkBytes: number): (request: ReadRequest) => ChunkRead {
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
  // Its answer is the chunk as JSON: a string crosses threads as one copy, and JSON.parse rebuilds a chunk's
  // many small values several times faster than structured clone.
  const worker = workerRequests<ReadRequest, string>('parse worker', workerFile, {
    routes,
    chunkBytes,
  } satisfies ParseWorkerData);
  // The first chunk is read inline while the worker starts (loading it takes tens of milliseconds).
  let started = false;
  let answered = 0;
  return {
    async read(fd, offset, ingestedAt) {
      const request: ReadRequest = { fd, offset, ingestedAt };
      if (!worker.running) return inline(request);
      if (!started) {
        started = true;
        return first(request);
      }
      let json: string;
      try {
        json = await worker.ask(request);
      } catch {
        return inline(request); // Failed or gone: the chunk is read here, nothing lost or read twice.
      }
      answered++;
      return JSON.parse(json) as ChunkRead;
    },
    get workerChunks() {
      return answered;
    },
    close: () => worker.close(),
  };
}
