import { userPromptText } from '../userPrompt';
import type { TranscriptEntry } from '../transcriptEntry';

/**
 * Which user lines of a transcript are prompts the person typed, and their text in the form the
 * UserPromptSubmit hook reports it (userPromptText decides on the text, as for every agent).
 *
 * Not prompts whatever their text: tool results; `isMeta` lines (reminders, caveats Claude Code adds); the
 * summary written after a compaction; sidechain lines (a subagent's task is written by the main agent).
 */
export function promptText(entry: TranscriptEntry): string | undefined {
  if (entry.type !== 'user' || entry.meta || entry.compactSummary || entry.sidechain) return undefined;
  if (entry.toolResults.length > 0 || entry.userText === undefined) return undefined;
  return userPromptText(entry.userText);
}
