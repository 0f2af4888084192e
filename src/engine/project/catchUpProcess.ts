/** The catch-up process's entry (bundled as dist/catchUpProcess.js): reads a backlog for the host (catchUp.ts). */
import type { IngestOptions, IngestResult } from '../log/ingest';
import { runAtOnce } from '../steps';
import type { CatchUpJob, CatchUpReport, CatchUpRequest, CatchUpResult } from './catchUp';
import { afterIngest } from './derivedViews';
import { ProjectEngine } from './projectEngine';

/** Older detail is folded every 8 MiB of log read (about 12,000 events), as the host does. */
const FOLD_EVERY_BYTES = 8 * 1024 * 1024;
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
    let folded = 0;
    let doneBytes = 0;
    let foldedAtBytes = 0;
    let postedAt = 0;
    // The views as far as the fold (the registry reads the calls before they are folded into daily counts);
    // the host brings the next session's context up to date once it has read what this process saved.
    const foldOlderDetail = () => {
      folded += runAtOnce(
        afterIngest(engine, { detailDays: job.detailDays, newHistory: true, views: ['registry', 'history'] }),
      ).folded;
      foldedAtBytes = doneBytes;
    };
    const options: IngestOptions = {
      signal: abort.signal,
      chunkBytes: job.chunkBytes,
      onProgress: (progress) => {
        doneBytes = progress.doneBytes;
        if (Date.now() - postedAt < PROGRESS_EVERY_MS && progress.doneBytes < progress.totalBytes) return;
        postedAt = Date.now();
        post({ type: 'progress', progress, counts: engine.counts() });
      },
      afterChunk: async () => {
        if (doneBytes - foldedAtBytes >= FOLD_EVERY_BYTES) foldOlderDetail();
      },
    };
    const read: IngestResult & { transcriptFilesImported?: number } = job.rebuild
      ? await engine.rebuild(options)
      : await engine.ingest(options);
    foldOlderDetail();
    await engine.save();
    return {
      ...read,
      folded,
      transcriptFilesImported: read.transcriptFilesImported ?? 0,
      // resourceUsage's maxRSS is in KiB.
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    await engine.close();
  }
}
