/**
 * The catch-up process's entry (bundled as dist/catchUpProcess.js): reads a backlog, or imports the agents'
 * session files, for the host (project/catchUp.ts).
 */
import type { IngestProgress } from '../../shared/ingest';
import type { IngestOptions, IngestResult } from '../log/ingest';
import type {
  CatchUpResult,
  ChildJob,
  ChildReport,
  ChildRequest,
  ImportInChildResult,
} from '../project/catchUp';
import { FoldAsRead } from '../project/derivedViews';
import { ProjectEngine } from '../project/projectEngine';
import { importTranscripts } from '../transcripts/importTranscripts';

/** The dashboard follows the counts; more often than this would only cost the catch-up. */
const PROGRESS_EVERY_MS = 250;

const job = JSON.parse(process.argv[2] ?? '{}') as ChildJob;
const abort = new AbortController();
const post = (report: ChildReport) => process.send?.(report);
/** The last report, written to the channel before the process exits (process.exit does not wait for it). */
const finish = (report: ChildReport, code: number) =>
  process.send ? process.send(report, undefined, {}, () => process.exit(code)) : process.exit(code);

process.on('message', (request: ChildRequest) => {
  if (request.type === 'cancel') abort.abort();
});
// The host has gone (closed, crashed): its lock is no longer ours to write under. What was saved is whole;
// the log still has the rest.
process.on('disconnect', () => process.exit(2));

void run().then(
  (result) => finish({ type: 'done', result }, 0),
  (error: unknown) =>
    finish({ type: 'failed', message: error instanceof Error ? error.message : String(error) }, 1),
);

async function run(): Promise<CatchUpResult | ImportInChildResult> {
  const engine = await ProjectEngine.open({
    home: job.home,
    folder: job.folder,
    excludeRoots: job.excludeRoots,
    role: 'writer',
    borrowedLock: true,
  });
  try {
    const result = job.work.kind === 'import' ? await importHistory(engine) : await catchUp(engine, job.work);
    await engine.save();
    // resourceUsage's maxRSS is in KiB.
    return { ...result, peakRssBytes: process.resourceUsage().maxRSS * 1024 };
  } finally {
    await engine.close();
  }
}

/** Progress at most every PROGRESS_EVERY_MS, and always the last. */
function throttled<P extends { doneBytes: number; totalBytes: number }>(send: (progress: P) => void) {
  let postedAt = 0;
  return (progress: P) => {
    if (Date.now() - postedAt < PROGRESS_EVERY_MS && progress.doneBytes < progress.totalBytes) return;
    postedAt = Date.now();
    send(progress);
  };
}

function importHistory(engine: ProjectEngine) {
  return importTranscripts(engine, {
    signal: abort.signal,
    onProgress: throttled((progress) => post({ type: 'progress', progress })),
  });
}

async function catchUp(
  engine: ProjectEngine,
  work: ChildJob<'catch-up'>['work'],
): Promise<Omit<CatchUpResult, 'peakRssBytes'>> {
  const folds = new FoldAsRead(engine, work.detailDays);
  const report = throttled((progress: IngestProgress) =>
    post({ type: 'progress', progress, counts: engine.counts() }),
  );
  const options: IngestOptions = {
    signal: abort.signal,
    chunkBytes: work.chunkBytes,
    onProgress: (progress) => {
      folds.read(progress.doneBytes);
      report(progress);
    },
    afterChunk: () => folds.afterChunk(),
  };
  const read: IngestResult & { transcriptFilesImported?: number } = work.rebuild
    ? await engine.rebuild(options)
    : await engine.ingest(options);
  // The views as far as the fold; the host brings the next session's context up to date once it has read
  // what this process saved.
  folds.fold();
  return { ...read, folded: folds.folded, transcriptFilesImported: read.transcriptFilesImported ?? 0 };
}
