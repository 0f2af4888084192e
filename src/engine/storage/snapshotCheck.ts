/**
 * The integrity check of a snapshot before it is used, on a worker thread: `PRAGMA integrity_check` reads
 * every page (0.26-0.49 s for a year of history, 81 MB), and every open and every follower's reload runs one. The
 * file is read into shared memory, so the worker checks the very bytes the caller then opens, uncopied.
 * Without the worker's script beside the bundle (running from source) the check runs on the caller's thread.
 */
import * as fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { bundledScript } from '../kernel/bundledScript';
import { NO_FOLLOW_NO_WAIT } from '../kernel/privateFiles';
import { loadSqlJs } from '../kernel/sqlJs';

/**
 * A file's bytes in memory another thread can read without a copy; undefined when there is no file. Throws
 * when it cannot be read or is no regular file (a folder, a link, a FIFO: never followed, never waited on).
 */
export async function readShared(file: string): Promise<Buffer | undefined> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | NO_FOLLOW_NO_WAIT);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new Error('it is a symbolic link, not a file');
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile())
      throw new Error(`it is ${stat.isDirectory() ? 'a folder' : 'a special file'}, not a regular file`);
    const { size } = stat;
    const bytes = Buffer.from(new SharedArrayBuffer(size));
    let read = 0;
    while (read < size) {
      const { bytesRead } = await handle.read(bytes, read, size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return bytes.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/** `ok`, or what SQLite found wrong (or why the bytes would not open). */
export async function integrityHere(bytes: Buffer): Promise<string> {
  const SQL = await loadSqlJs();
  try {
    const db = new SQL.Database(bytes);
    try {
      return String(db.exec('PRAGMA integrity_check')[0]?.values[0]?.[0]);
    } finally {
      db.close();
    }
  } catch (error) {
    return (error as Error).message;
  }
}

export interface IntegrityCheck {
  /** `ok`, or what is wrong. */
  verdict: string;
  /** Whether the worker answered (else it ran on this thread). */
  onWorker: boolean;
}

/** The integrity check of `bytes` (read by `readShared`), on `workerFile` when given, else here. */
export function integrityOf(
  bytes: Buffer,
  workerFile = bundledScript('snapshotCheckWorker.js'),
): Promise<IntegrityCheck> {
  const here = async () => ({ verdict: await integrityHere(bytes), onWorker: false });
  if (!workerFile || !(bytes.buffer instanceof SharedArrayBuffer)) return here();
  return new Promise((resolve) => {
    let answer: string | undefined;
    // A worker that cannot start or dies checks nothing: the check runs here instead.
    const inline = () => void here().then(resolve);
    try {
      const worker = new Worker(workerFile, {
        workerData: { image: bytes.buffer, offset: bytes.byteOffset, length: bytes.byteLength },
      });
      worker.on('message', (verdict: string) => (answer = verdict));
      worker.on('error', () => undefined);
      worker.on('exit', () =>
        answer === undefined ? inline() : resolve({ verdict: answer, onWorker: true }),
      );
    } catch {
      inline();
    }
  });
}
