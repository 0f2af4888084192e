/** What _Import Agent History_ says when it is done: the figures, and the first file it could not read. */
import type { ActivityTypes } from '../../engine';
import { unlinked, visibleLine } from '../../shared/visibleText';

export function importSummary(result: ActivityTypes.TranscriptImportResult): {
  message: string;
  problems: boolean;
} {
  const found =
    `${result.toolCalls.toLocaleString('en-US')} tool calls (${result.failures.toLocaleString('en-US')} failed), ` +
    `${result.prompts.toLocaleString('en-US')} prompts and ${result.sessions.toLocaleString('en-US')} sessions`;
  const files = `${result.files} transcript ${result.files === 1 ? 'file' : 'files'} read, ${result.skippedFiles} unchanged`;
  const malformed = result.malformed ? `; ${result.malformed} malformed lines skipped` : '';
  const message = `${result.cancelled ? 'Import stopped; kept' : 'Imported'} ${found} (${files}${malformed}).`;
  if (result.problems.length === 0) return { message, problems: false };
  // Each file is imported or reported on its own: the first problem said here, all of them in the log. Its
  // file name is the repository's or the agent's: one line, and never a link.
  const more = result.problems.length > 1 ? ` and ${result.problems.length - 1} more (see the log)` : '';
  return {
    message: unlinked(`${message} Not imported: ${visibleLine(result.problems[0])}${more}.`),
    problems: true,
  };
}
