/**
 * One message transcript read a chunk at a time into what its lines come to (`ChunkActivity`), with no
 * database: the bytes read, their lines parsed into session items by the agent's adapter, and those items
 * paired and summarised by a `SessionItemReader`. Runs inline, or on the transcript worker for large imports
 * (transcriptReaders.ts); the import writes each chunk with the offset it ends at.
 */
import * as fs from 'node:fs';
import { TRANSCRIPT_ADAPTERS } from '../agents';
import type { TranscriptAdapter } from '../agents/adapter';
import type { TranscriptFileContext } from '../agents/transcriptEntry';
import { ChunkFingerprints, type Fingerprint, type LineReader } from '../kernel/appendedLines';
import type { AgentId } from '../../shared/agents';
import { type ChunkActivity, type SessionFileOptions, SessionItemReader } from './sessionItemReader';

/** Which file to read, from where, and as what. Plain data: it is sent to the transcript worker as is. */
export interface TranscriptFileRequest {
  file: string;
  agent: AgentId;
  start: number;
  chunkBytes: number;
  context: TranscriptFileContext;
  options: SessionFileOptions;
}

/** One chunk of a transcript: `length` 0 once nothing complete follows (the end, or a torn last line). */
export interface TranscriptChunk {
  length: number;
  /** The offset after the chunk, and what identifies the file's content up to it. */
  end: number;
  mark: Fingerprint;
  lines: number;
  malformed: number;
  activity: ChunkActivity;
}

/** A transcript's chunks, read in turn. */
export interface TranscriptChunks {
  next(): Promise<TranscriptChunk>;
  close(): Promise<void>;
}

function transcriptAdapter(agent: AgentId): TranscriptAdapter {
  const adapter = TRANSCRIPT_ADAPTERS.find((candidate) => candidate.id === agent);
  if (!adapter) throw new Error(`no transcript reader for ${agent}`);
  return adapter;
}

/** Reads a file's chunks on this thread; `reader`'s buffer is reused from file to file. */
export async function readTranscript(
  request: TranscriptFileRequest,
  reader: LineReader,
): Promise<TranscriptChunks> {
  const adapter = transcriptAdapter(request.agent);
  const handle = await fs.promises.open(request.file, 'r');
  const items = new SessionItemReader(adapter, request.options);
  const marks = new ChunkFingerprints(handle);
  const { context } = request;
  let offset = request.start;
  return {
    async next() {
      const chunk = await reader.read(handle, offset, request.chunkBytes);
      offset += chunk?.length ?? 0;
      // Before the reader's next read reuses the buffer that holds the chunk's bytes.
      const mark = await marks.at(offset, chunk?.kind === 'lines' ? chunk.bytes : undefined);
      let lines = 0;
      let malformed = 0;
      if (chunk?.kind === 'lines') {
        for (const line of chunk.lines) {
          if (line.trim() === '') continue;
          lines++;
          const parsed = adapter.transcripts.parseLine(line);
          if (parsed.ok) for (const item of adapter.transcripts.items(parsed.entry, context)) items.add(item);
          else malformed++;
        }
      } else if (chunk?.kind === 'oversized') [lines, malformed] = [1, 1];
      return {
        length: chunk?.length ?? 0,
        end: offset,
        mark,
        lines,
        malformed,
        activity: items.take(),
      };
    },
    close: () => handle.close(),
  };
}
