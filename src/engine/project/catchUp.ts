/**
 * A large backlog (or a rebuild) read on a worker thread. Writing a year of events into sql.js takes minutes
 * of one thread, and the extension host's thread is the one typing runs on: the worker opens the saved
 * database under the host's writer lock, reads and folds, saves, and hands the saved image back
 * (catchUpWorker.ts is its entry, bundled as dist/catchUpWorker.js).
 */
import { Worker } from 'node:worker_threads';
import type { IngestCounts } from '../../shared/protocol';
import type { IngestProgress, IngestResult } from '../log/ingest';

export interface CatchUpOptions {
  /** Throw the database away and read the whole log again, as `ProjectEngine.rebuild`. */
  rebuild?: boolean;
  /** Detail older than this many days is folded as the backlog is read (history/compaction.ts). */
  detailDays: number;
  /** Stops after the chunk being read; what was read is kept. */
  signal?: AbortSignal;
  /** Bytes read so far, and the figures the dashboard shows of the database being written. */
  onProgress?: (progress: IngestProgress, counts: IngestCounts) => void;
  /** Bytes of log per chunk (the worker's default reads fastest). */
  chunkBytes?: number;
}

export interface CatchUpResult extends IngestResult {
  /** Rows of older history folded on the way. */
  folded: number;
  /** A rebuild imports again the agents' session files imported before. */
  transcriptFilesImported: number;
}

/** What the worker is started with. */
export interface CatchUpWorkerData {
  home: string;
  folder: string;
  excludeRoots: string[];
  rebuild: boolean;
  detailDays: number;
  chunkBytes?: number;
}

/** From the host to the worker. */
export type CatchUpRequest = { type: 'cancel' };

/** From the worker to the host. */
export type CatchUpReport =
  | { type: 'progress'; progress: IngestProgress; counts: IngestCounts }
  | { type: 'done'; result: CatchUpResult; image: Uint8Array }
  | { type: 'failed'; message: string };

/** Run the worker to its end: its result and the image it saved, or a rejection saying why it stopped. */
export function runCatchUpWorker(
  workerFile: string,
  data: CatchUpWorkerData,
  options: Pick<CatchUpOptions, 'signal' | 'onProgress'>,
): Promise<{ result: CatchUpResult; image: Uint8Array }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', cancel);
      finish();
    };
    let worker: Worker;
    try {
      worker = new Worker(workerFile, { workerData: data satisfies CatchUpWorkerData });
    } catch (error) {
      reject(error as Error);
      return;
    }
    const cancel = () => worker.postMessage({ type: 'cancel' } satisfies CatchUpRequest);
    options.signal?.addEventListener('abort', cancel);
    if (options.signal?.aborted) cancel();
    // Done once the worker has gone too: its memory (hundreds of MB at a year of history) is not held
    // beside the database it hands over.
    let done: { result: CatchUpResult; image: Uint8Array } | undefined;
    worker.on('message', (report: CatchUpReport) => {
      if (report.type === 'progress') options.onProgress?.(report.progress, report.counts);
      else if (report.type === 'done') done = { result: report.result, image: report.image };
      else settle(() => reject(new Error(`the catch-up worker failed: ${report.message}`)));
    });
    worker.on('error', (error) =>
      settle(() => reject(new Error(`the catch-up worker failed: ${error.message}`))),
    );
    worker.on('exit', (code) =>
      settle(() =>
        done
          ? resolve(done)
          : reject(new Error(`the catch-up worker stopped (exit code ${code}) before it was done`)),
      ),
    );
  });
}
