/**
 * A session is live while its transcript keeps growing. Claude Code answers within minutes while it works,
 * so a transcript untouched for half an hour belongs to a session that has ended or been left: its gauge is
 * history, not a warning, and advice about it would act on nothing.
 */
const SESSION_IDLE_MS = 30 * 60_000;

export function isSessionActive(updatedAt: number | null, now: number): boolean {
  return updatedAt !== null && now - updatedAt < SESSION_IDLE_MS;
}
