/** One line for a user-facing message (stacks stay in the log). */
export function shortMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
