/** The parse worker's entry (bundled as dist/parseWorker.js): reads and parses the chunks asked for. */
import { parentPort, workerData } from 'node:worker_threads';
import { readChunk } from '../log/chunkParse';
import type { ParseWorkerData, ReadReply, ReadRequest } from '../log/chunkReaders';
import { routerFor } from '../log/routing';

const { routes, chunkBytes } = workerData as ParseWorkerData;
const belongsHere = routerFor(routes);

parentPort?.on('message', ({ id, fd, offset, ingestedAt }: ReadRequest) => {
  let reply: ReadReply;
  try {
    reply = { id, json: JSON.stringify(readChunk(fd, offset, chunkBytes, ingestedAt, belongsHere)) };
  } catch (error) {
    reply = { id, error: String(error) };
  }
  parentPort?.postMessage(reply);
});
