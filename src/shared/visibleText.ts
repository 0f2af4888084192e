/**
 * Text that came from a repository or an agent, made safe to show or send as one line: what a reader sees is
 * all there is. Shared by the engine (context, memory, terminal commands), the host, the CLI and the webview.
 */

/**
 * Characters that change how the rest of a line is shown or read without being seen: C0 and C1 controls
 * (line breaks, escape sequences), DEL, bidirectional overrides and isolates (`invoice<U+202E>gpj.exe` shows as `invoiceexe.jpg`), line and
 * paragraph separators, and invisible joiners/markers that hide text from a reader. The zero-width joiner
 * stays: emoji sequences need it and it moves nothing.
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200c\u200e\u200f\u2028-\u202e\u2060-\u206f\ufeff]+/g;

/** `text` as one visible line: each run of hidden characters and white space becomes one space. */
export function visibleLine(text: string): string {
  return text.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * `text` with each hidden character other than a line break or a tab written as a `\uXXXX` escape: for output
 * that must stay exact (JSON a program reads) yet never carry a raw escape sequence or override to a terminal.
 */
export function escapeHidden(text: string): string {
  return text.replace(INVISIBLE, (run) =>
    run.replace(/[^\n\t]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/**
 * `message` for a VS Code notification: it turns `[text](command:...)` into a link that runs the command, so
 * a name shaped like one (a file, a server key) must stay text.
 */
export function unlinked(message: string): string {
  return message.replace(/\]\(/g, '] (');
}
