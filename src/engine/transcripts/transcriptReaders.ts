/**
 * Where transcripts are read: inline, or on a worker thread that reads, parses and summarises the next chunk
 * (and the next file) while this thread writes the one before. Reading is most of an import's work and only
 * the thread that owns the sql.js database can write. A worker that fails or dies is not fatal: the file it
 * was reading fails with a problem the import reports (what was committed stays, and the next import goes on
 * from there), and later files are read inline.
 */
import { LineReader } from '../kernel/appendedLines';
import { workerRequests } from '../kernel/workerRequests';
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
  | { kind: 'open'; reading: number; request: TranscriptFileRequest }
  | { kind: 'next'; reading: number }
  | { kind: 'close'; reading: number };

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
  // A chunk's answer is its JSON: one string crosses threads as one copy.
  const worker = workerRequests<TranscriptWorkerRequest, string | null>('transcript worker', workerFile);
  let nextReading = 0;
  let answered = 0;
  return {
    async open(request) {
      if (!worker.running) return inline.open(request);
      const reading = nextReading++;
      // Chunks are asked for without waiting for the file to open: the worker answers in the order asked,
      // so it goes on reading while this thread writes.
      const opened = worker.ask({ kind: 'open', reading, request });
      opened.catch(() => undefined);
      return {
        async next() {
          const answer = worker.ask({ kind: 'next', reading });
          answer.catch(() => undefined);
          await opened;
          const json = await answer;
          answered++;
          return JSON.parse(json ?? 'null') as TranscriptChunk;
        },
        async close() {
          await worker.ask({ kind: 'close', reading }).catch(() => undefined);
        },
      };
    },
    get workerChunks() {
      return answered;
    },
    close: () => worker.close(),
  };
}
