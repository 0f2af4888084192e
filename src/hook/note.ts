/** The recorder's one way to say something went wrong: a line on stderr, never an exception. */
import { writeSync } from 'node:fs';

export function note(error: unknown): void {
  try {
    writeSync(2, `context-deck hook: ${error instanceof Error ? error.message : String(error)}\n`);
  } catch {
    // Nowhere left to say it.
  }
}
