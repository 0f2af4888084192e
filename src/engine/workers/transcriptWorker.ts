/** The transcript worker's entry (bundled as dist/transcriptWorker.js): reads the transcripts' chunks asked for. */
import { parentPort } from 'node:worker_threads';
import { LineReader } from '../kernel/appendedLines';
import { answerRequests } from '../kernel/workerRequests';
import { type TranscriptChunks, readTranscript } from '../transcripts/transcriptChunks';
import type { TranscriptWorkerRequest } from '../transcripts/transcriptReaders';

const readings = new Map<number, TranscriptChunks>();
// One buffer for every file: requests are answered one at a time, so no two reads are ever under way.
const lineReader = new LineReader();

// Answered one at a time, in the order asked: a file's chunks follow each other, and a file's reader state
// (uses waiting for results, the latest report) is the chunks before.
if (parentPort)
  answerRequests(parentPort, async (request: TranscriptWorkerRequest): Promise<string | null> => {
    switch (request.kind) {
      case 'open':
        readings.set(request.reading, await readTranscript(request.request, lineReader));
        return null;
      case 'next': {
        const reading = readings.get(request.reading);
        if (!reading) throw new Error('no such transcript is open');
        return JSON.stringify(await reading.next());
      }
      case 'close':
        await readings.get(request.reading)?.close();
        readings.delete(request.reading);
        return null;
    }
  });
