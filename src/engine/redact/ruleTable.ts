/**
 * The rule table, in the order rules run: spans and blocks first (they hide everything inside), then
 * tokens known by their prefix, then secrets known by their context, and names last, so that
 * `GITHUB_TOKEN=ghp_...` is marked as a GitHub token and the assignment then sees a marker and stops.
 */
import { ASSIGNMENT_RULES } from './assignments';
import { BLOCK_RULES } from './blocks';
import { COMMAND_RULES } from './commands';
import { CONNECTION_RULES } from './connections';
import { FILE_RULES } from './files';
import { HEADER_RULES } from './headers';
import type { Rule } from './ruleShape';
import { TOKEN_RULES } from './tokens';

export const RULES: readonly Rule[] = [
  ...BLOCK_RULES,
  ...TOKEN_RULES,
  ...CONNECTION_RULES,
  ...HEADER_RULES,
  ...COMMAND_RULES,
  ...FILE_RULES,
  ...ASSIGNMENT_RULES,
];

/** The rules by id and kind, for documentation and tests. */
export const REDACTION_RULES: ReadonlyArray<{ id: string; kind: string }> = RULES.map(({ id, kind }) => ({
  id,
  kind,
}));
