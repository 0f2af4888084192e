/**
 * The one line the extension types into an agent's terminal, after the user has read (and perhaps edited)
 * it. Pure, so that what may reach a terminal is decided where tests can see it.
 */
import { visibleLine } from '../../shared/visibleText';

/** Long enough for any `/compact` with focus; a line longer than this was not read before being sent. */
export const TERMINAL_LINE_CHARS = 2000;

/**
 * Why `text` cannot be sent as it stands (shown under the input box while the user edits), or undefined.
 * Hidden characters are no reason: they are sent as spaces.
 */
export function terminalLineProblem(text: string): string | undefined {
  const line = visibleLine(text);
  if (!line) return 'Nothing to send.';
  if (line.length > TERMINAL_LINE_CHARS)
    return `Too long to send: ${line.length} characters, at most ${TERMINAL_LINE_CHARS}.`;
  return undefined;
}

/**
 * What is typed for `text`: one visible line, so that the Enter after it is the only one the terminal gets
 * (a line break inside would be a prompt of its own, a `!` line a shell command in Claude Code), or
 * undefined when it cannot be sent.
 */
export function terminalLine(text: string): string | undefined {
  return terminalLineProblem(text) === undefined ? visibleLine(text) : undefined;
}
