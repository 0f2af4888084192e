/** Types of a project's activity that the host only passes on (the facade exports them as `ActivityTypes`). */
export type { IngestResult } from '../../log/ingest';
export type { CatchUpResult } from '../catchUp';
export type { TranscriptImportProgress, TranscriptImportResult } from '../../transcripts';
export type { ViewScheduler, ViewSettings, ViewTimers } from '../viewScheduler';
