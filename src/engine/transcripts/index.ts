/** Past sessions read into a project's database: the agents' transcripts and session files. */
export {
  type TranscriptImportProgress,
  type TranscriptImportResult,
  importTranscripts,
} from './importTranscripts';
