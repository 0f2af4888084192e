/** The catch-up process's entry (bundled as dist/catchUpProcess.js): reads a backlog for the host (catchUp.ts). */
import type { IngestOptions, IngestResult } from '../log/ingest';
import type { CatchUpJob, CatchUpReport, CatchUpRequest, CatchUpResult } from '../project/catchUp';
import { FoldAsRead } from '../project/derivedViews';
import { ProjectEngine } from '../project/projectEngine';

/** The dashboard follows the counts; more often than this would only cost the catch-up. */
const PROGRESS_EVERY_MS = 250;

const job = JSON.parse(process.argv[2] ?? '{}') as CatchUpJob;
const abort = new AbortController();
const post = (report: CatchUpReport) => process.send?.(report);
/** The last report, written to the channel before the process exits (process.exit does not wait for it). */
const finish = (report: CatchUpReport, code: number) =>
  process.send ? process.send(report, undefined, {}, () => process.exit(code)) : process.exit(code);

process.on('message', (request: CatchUpRequest) => {
  if (request.type === 'cancel') abort.abort();
});
// The host has gone (closed, crashed): its lock is no longer ours to write under. What was saved is whole;
// the log still has the rest.
process.on('disconnect', () => process.exit(2));

void catchUp().then(
  (result) => finish({ type: 'done', result }, 0),
  (error: unknown) =>
    finish({ type: 'failed', message: error instanceof Error ? error.message : String(error) }, 1),
);

async function catchUp(): Promise<CatchUpResult> {
  const engine = await ProjectEngine.open({
    home: job.home,
    folder: job.folder,
    excludeRoots: job.excludeRoots,
    role: 'writer',
    borrowedLock: true,
  });
  try {
    let postedAt = 0;
    const folds = new FoldAsRead(engine, job.detailDays);
    const options: IngestOptions = {
      signal: abort.signal,
      chunkBytes: job.chunkBytes,
      onProgress: (progress) => {
        folds.read(progress.doneBytes);
        if (Date.now() - postedAt < PROGRESS_EVERY_MS && progress.doneBytes < progress.totalBytes) return;
        postedAt = Date.now();
        post({ type: 'progress', progress, counts: engine.counts() });
      },
      afterChunk: () => folds.afterChunk(),
    };
    const read: IngestResult & { transcriptFilesImported?: number } = job.rebuild
      ? await engine.rebuild(options)
      : await engine.ingest(options);
    // The views as far as the fold; the host brings the next session's context up to date once it has read
    // what this process saved.
    folds.fold();
    await engine.save();
    return {
      ...read,
      folded: folds.folded,
      transcriptFilesImported: read.transcriptFilesImported ?? 0,
      // resourceUsage's maxRSS is in KiB.
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    await engine.close();
  }
}
