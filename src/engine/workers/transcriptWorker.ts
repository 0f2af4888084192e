/** The transcript worker's entry (bundled as dist/transcriptWorker.js): reads the transcripts' chunks asked for. */
import { parentPort } from 'node:worker_threads';
import { LineReader } from '../kernel/appendedLines';
import type { TranscriptChunks } from '../transcripts/transcriptChunks';
import { readTranscript } from '../transcripts/transcriptChunks';
import type { TranscriptWorkerReply, TranscriptWorkerRequest } from '../transcripts/transcriptReaders';

const readings = new Map<number, TranscriptChunks>();
const lineReaders = [new LineReader(), new LineReader()];

async function answer(request: TranscriptWorkerRequest): Promise<string | undefined> {
  switch (request.kind) {
    case 'open':
      readings.set(request.reading, await readTranscript(request.request, lineReaders[request.reading % 2]));
      return undefined;
    case 'next': {
      const reading = readings.get(request.reading);
      if (!reading) throw new Error('no such transcript is open');
      return JSON.stringify(await reading.next());
    }
    case 'close':
      await readings.get(request.reading)?.close();
      readings.delete(request.reading);
      return undefined;
  }
}

// One request at a time, in the order asked: a file's chunks follow each other, and a file's reader state
// (uses waiting for results, the latest report) is the chunks before.
let queue = Promise.resolve();
parentPort?.on('message', (request: TranscriptWorkerRequest) => {
  queue = queue.then(async () => {
    let reply: TranscriptWorkerReply;
    try {
      reply = { id: request.id, json: await answer(request) };
    } catch (error) {
      reply = { id: request.id, error: String(error) };
    }
    parentPort?.postMessage(reply);
  });
});
