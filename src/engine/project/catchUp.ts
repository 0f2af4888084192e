/**
 * A large backlog (or a rebuild, or an import of the agents' session files) read in a child process. Writing a year of events into sql.js takes a minute
 * of one thread, and the extension host's thread is the one typing runs on. A worker thread would spare that
 * thread but not the host's memory: at a year of history it allocates hundreds of MB in the host's own
 * process, which the host kept after it had gone (measured in VS Code). A child process gives all of it back
 * to the system when it exits, and if it runs out of memory it fails alone.
 *
 * The child (catchUpProcess.ts, bundled as dist/catchUpProcess.js) opens the saved database under the host's
 * writer lock, reads and folds, and saves; the host then reads the snapshot it saved.
 */
import { fork } from 'node:child_process';
import * as os from 'node:os';
import type { IngestCounts, IngestProgress } from '../../shared/ingest';
import type { IngestResult } from '../log/ingest';
import type { TranscriptImportProgress, TranscriptImportResult } from '../transcripts/importTranscripts';

export interface CatchUpOptions {
  /** Throw the database away and read the whole log again, as `ProjectEngine.rebuild`. */
  rebuild?: boolean;
  /** Detail older than this many days is folded as the backlog is read (history/compaction.ts). */
  detailDays: number;
  /** Stops after the chunk being read; what was read is kept. */
  signal?: AbortSignal;
  /** Bytes read so far, and the figures the dashboard shows of the database being written. */
  onProgress?: (progress: IngestProgress, counts: IngestCounts) => void;
  /** Bytes of log per chunk (the child's default reads fastest). */
  chunkBytes?: number;
}

export interface CatchUpResult extends IngestResult {
  /** Rows of older history folded on the way. */
  folded: number;
  /** A rebuild imports again the agents' session files imported before. */
  transcriptFilesImported: number;
  /** The most memory the catch-up process held (its peak RSS), in bytes. */
  peakRssBytes: number;
}

export interface ImportInChildOptions {
  signal?: AbortSignal;
  onProgress?: (progress: TranscriptImportProgress) => void;
}

export interface ImportInChildResult extends TranscriptImportResult {
  /** The most memory the import process held (its peak RSS), in bytes. */
  peakRssBytes: number;
}

/** What the child does for the project. */
export type ChildWork =
  { kind: 'catch-up'; rebuild: boolean; detailDays: number; chunkBytes?: number } | { kind: 'import' };

type WorkOf<Kind extends ChildWork['kind']> = Extract<ChildWork, { kind: Kind }>;

/** What the child is started with (its one argument, as JSON). */
export interface ChildJob<Kind extends ChildWork['kind'] = ChildWork['kind']> {
  home: string;
  folder: string;
  excludeRoots: string[];
  work: WorkOf<Kind>;
}

/** What each kind of work reports as it goes, and when done. */
interface ChildOutcome {
  'catch-up': { progress: { progress: IngestProgress; counts: IngestCounts }; result: CatchUpResult };
  import: { progress: { progress: TranscriptImportProgress }; result: ImportInChildResult };
}

export type ChildProgress<Kind extends ChildWork['kind']> = ChildOutcome[Kind]['progress'];

/** From the host to the child. */
export type ChildRequest = { type: 'cancel' };

/** From the child to the host. */
export type ChildReport<Kind extends ChildWork['kind'] = ChildWork['kind']> =
  | ({ type: 'progress' } & ChildProgress<Kind>)
  | { type: 'done'; result: ChildOutcome[Kind]['result'] }
  | { type: 'failed'; message: string };

/**
 * The child's niceness: it reads in the background, and on a busy machine the editor's own processes (the
 * window, the extension host) come first. Idle cores are its anyway.
 */
const BACKGROUND_PRIORITY = 10;
/** The tail of the child's stderr kept to say why it stopped. */
const STDERR_KEPT = 4096;

/**
 * Run the child to its end: its result once it has saved and exited, or a rejection saying why it stopped
 * (the database it was writing is then as the host saved it, or as the child last saved it whole).
 */
export function runChildJob<Kind extends ChildWork['kind']>(
  script: string,
  job: ChildJob<Kind>,
  options: { signal?: AbortSignal; onReport?: (report: ChildProgress<Kind>) => void },
): Promise<ChildOutcome[Kind]['result']> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', cancel);
      finish();
    };
    const child = fork(script, [JSON.stringify(job)], {
      // Not the host's flags (an inspector port, heap limits); in VS Code's Electron, run as plain Node.
      execArgv: [],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    try {
      if (child.pid !== undefined) os.setPriority(child.pid, BACKGROUND_PRIORITY);
    } catch {
      // Not permitted here: it runs at the host's priority.
    }
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_KEPT);
    });
    const cancel = () => {
      if (child.connected) child.send({ type: 'cancel' } satisfies ChildRequest);
    };
    options.signal?.addEventListener('abort', cancel);
    if (options.signal?.aborted) cancel();
    // Done once the process has exited: its memory is the system's again, and its save is complete.
    let done: ChildOutcome[Kind]['result'] | undefined;
    let failure: string | undefined;
    child.on('message', (report: ChildReport<Kind>) => {
      if (report.type === 'progress') options.onReport?.(report);
      else if (report.type === 'done') done = report.result;
      else failure = report.message;
    });
    const name = job.work.kind === 'import' ? 'import' : 'catch-up';
    child.on('error', (error) =>
      settle(() => reject(new Error(`the ${name} process failed: ${error.message}`))),
    );
    child.on('close', (code, signal) =>
      settle(() => {
        if (done && code === 0) resolve(done);
        else {
          const why = failure ?? lastErrorLine(stderr);
          const stopped = signal ? `signal ${signal}` : `exit code ${code}`;
          reject(
            new Error(`the ${name} process failed (${stopped}) before it was done${why ? `: ${why}` : ''}`),
          );
        }
      }),
    );
  });
}

/** What a Node process that died of an exception printed of it: "Error: <message>". */
function lastErrorLine(stderr: string): string | undefined {
  const lines = stderr.split('\n').filter((line) => /^\w*Error\b/.test(line.trim()));
  return lines.at(-1)?.trim();
}
