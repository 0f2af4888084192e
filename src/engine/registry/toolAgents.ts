/**
 * Which agents can use a tool: the agent whose config declares it (as its adapter's scan said), and the
 * agents whose sessions called it.
 */

/** The agents of a tool, the declaring one first, each once. */
export function toolAgents(declaredBy: string | null, usedBy: string | null): string[] {
  const used = (usedBy ?? '').split(',').filter(Boolean);
  return [...new Set([...(declaredBy ? [declaredBy] : []), ...used])];
}
