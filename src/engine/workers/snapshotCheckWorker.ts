/** The snapshot check worker's entry (bundled as dist/snapshotCheckWorker.js): see snapshotCheck.ts. */
import { parentPort, workerData } from 'node:worker_threads';
import { integrityHere } from '../storage/snapshotCheck';

const { image, offset, length } = workerData as { image: SharedArrayBuffer; offset: number; length: number };

void integrityHere(Buffer.from(image, offset, length)).then((result) => {
  parentPort?.postMessage(result);
  process.exit(0);
});
