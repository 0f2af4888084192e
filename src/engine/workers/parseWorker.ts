/** The parse worker's entry (bundled as dist/parseWorker.js): reads and parses the chunks asked for. */
import { parentPort, workerData } from 'node:worker_threads';
import { readChunk } from '../log/chunkParse';
import type { ParseWorkerData, ReadRequest } from '../log/chunkReaders';
import { routerFor } from '../log/routing';
import { answerRequests } from '../kernel/workerRequests';

const { routes, chunkBytes } = workerData as ParseWorkerData;
const belongsHere = routerFor(routes);

if (parentPort)
  answerRequests(parentPort, ({ fd, offset, ingestedAt }: ReadRequest) =>
    JSON.stringify(readChunk(fd, offset, chunkBytes, ingestedAt, belongsHere)),
  );
