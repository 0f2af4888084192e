/** Past sessions read into a project's database: Claude Code's transcripts and the other agents' session files. */
export {
  type TranscriptImportProgress,
  type TranscriptImportResult,
  importTranscripts,
} from './importTranscripts';
export { encodeProjectDir, findActiveTranscript } from '../agents/claudeCode/transcriptFiles';
