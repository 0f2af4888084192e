/** Claude Code's transcripts as message transcripts (agents/adapter.ts): where they are, and how to read them. */
import * as path from 'node:path';
import type { MessageTranscripts } from '../adapter';
import { readDiskFacts } from './contextFiles';
import { promptText } from './promptText';
import {
  candidateTranscripts,
  claudeConfigDirs,
  findActiveTranscript,
  listTranscripts,
  sessionOfPath,
} from './transcriptFiles';
import { transcriptItems, transcriptToolEvents } from './transcriptItems';
import { parseTranscriptLine, recogniseClaudeTranscript } from './transcriptLine';

/** The config folder of a transcript at `<config>/projects/<project>/<session>.jsonl`, if it is one. */
function configDirOf(transcript: string): string | undefined {
  const projects = path.dirname(path.dirname(transcript));
  return path.basename(projects) === 'projects' ? path.dirname(projects) : undefined;
}

export const claudeTranscripts: MessageTranscripts = {
  parseLine: parseTranscriptLine,
  // A transcript just created is empty: nothing in it can be misread.
  recognise: (head) => head.trim() === '' || recogniseClaudeTranscript(head),
  promptOf: promptText,
  items: transcriptItems,
  toolEvents: transcriptToolEvents,
  find: (roots, dir) =>
    (dir ? [dir] : claudeConfigDirs()).flatMap((folder) => candidateTranscripts(folder, roots)),
  list: listTranscripts,
  active: findActiveTranscript,
  sessionOf: sessionOfPath,
  // The user's memory files, skills and agents are in the config folder holding the transcript (one kept
  // elsewhere gets the project's only), unless a folder is given.
  contextFiles: (projectRoot, transcript, dir) =>
    readDiskFacts({ projectRoot, claudeDir: dir ?? configDirOf(transcript) }),
};
