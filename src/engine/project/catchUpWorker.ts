/** The catch-up worker's entry (bundled as dist/catchUpWorker.js): reads a backlog for the host (catchUp.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import type { IngestOptions, IngestResult } from '../log/ingest';
import { discoverFromUse } from '../registry/discovery';
import type { CatchUpReport, CatchUpRequest, CatchUpResult, CatchUpWorkerData } from './catchUp';
import { ProjectEngine } from './projectEngine';

/** Older detail is folded every 8 MiB of log read (about 12,000 events), as the host does. */
const FOLD_EVERY_BYTES = 8 * 1024 * 1024;
/** The dashboard follows the counts; more often than this would only cost the worker. */
const PROGRESS_EVERY_MS = 250;

const data = workerData as CatchUpWorkerData;
const abort = new AbortController();
const post = (report: CatchUpReport, transfer: ArrayBuffer[] = []) =>
  parentPort?.postMessage(report, transfer);

parentPort?.on('message', (request: CatchUpRequest) => {
  if (request.type === 'cancel') abort.abort();
});

void catchUp().then(
  () => process.exit(0),
  (error: unknown) => {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  },
);

async function catchUp(): Promise<void> {
  const engine = await ProjectEngine.open({
    home: data.home,
    folder: data.folder,
    excludeRoots: data.excludeRoots,
    role: 'writer',
    borrowedLock: true,
  });
  try {
    let folded = 0;
    let doneBytes = 0;
    let foldedAtBytes = 0;
    let postedAt = 0;
    // The registry reads the calls before they are folded into daily counts (as the host's ProjectTools).
    const foldOlderDetail = async () => {
      while (discoverFromUse(engine).more);
      folded += await engine.foldOldHistory(data.detailDays, true);
      foldedAtBytes = doneBytes;
    };
    const options: IngestOptions = {
      signal: abort.signal,
      chunkBytes: data.chunkBytes,
      onProgress: (progress) => {
        doneBytes = progress.doneBytes;
        if (Date.now() - postedAt < PROGRESS_EVERY_MS && progress.doneBytes < progress.totalBytes) return;
        postedAt = Date.now();
        post({ type: 'progress', progress, counts: engine.counts() });
      },
      afterChunk: async () => {
        if (doneBytes - foldedAtBytes >= FOLD_EVERY_BYTES) await foldOlderDetail();
      },
    };
    const read: IngestResult & { transcriptFilesImported?: number } = data.rebuild
      ? await engine.rebuild(options)
      : await engine.ingest(options);
    await foldOlderDetail();
    const image = await engine.handOver();
    const result: CatchUpResult = {
      ...read,
      folded,
      transcriptFilesImported: read.transcriptFilesImported ?? 0,
    };
    post({ type: 'done', result, image }, [image.buffer as ArrayBuffer]);
  } finally {
    await engine.close();
  }
}
