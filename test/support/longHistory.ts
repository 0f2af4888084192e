/**
 * A long history as Claude Code leaves it, built from code: many sessions over weeks, many tools (MCP servers
 * and tools with long names, skills, subagents), long file paths, failures, and a session in progress whose
 * context is 80% full, so the dashboard shows every part with names that do not fit a 300 px sidebar.
 */
import * as path from 'node:path';
import {
  type ToolTurn,
  assistantTextLine,
  promptLine,
  toolTurnLines,
  transcriptPath,
  writeTranscript,
} from './transcripts';

const SESSIONS = 40;
const MIN = 60_000;

const PROMPTS = [
  'Find out why the invoice reconciliation job double-counts refunds issued after the monthly cut-off date',
  'Migrate the customer notification preferences service from the legacy REST client to the generated one',
  'Write integration tests for the multi-currency ledger export, including the rounding edge cases',
  'Profile the dashboard query that times out for accounts with more than ten thousand subscriptions',
  'Review the pull request that rewrites the webhook retry scheduler and list the risks',
];

const FILES = [
  'services/billing/reconciliation/src/internal/refunds/lateRefundAdjustmentCalculator.ts',
  'services/notifications/preferences/src/adapters/legacyRestClient/customerPreferencesGateway.ts',
  'packages/ledger-export/src/formats/multiCurrency/roundingStrategies/bankersRoundingWithCarry.ts',
  'apps/dashboard/src/features/subscriptions/queries/useSubscriptionsForAccountWithPagination.ts',
  'services/webhooks/scheduler/src/retry/exponentialBackoffWithJitterAndDeadLetterQueue.ts',
];

/** Tools of every kind, the MCP ones named as long as real servers name them; some fail. */
function turnsOf(session: number, project: string, startAt: number): ToolTurn[] {
  const file = (i: number) => path.join(project, FILES[(session + i) % FILES.length]);
  const steps: Array<Omit<ToolTurn, 'tokens' | 'at' | 'resultChars'>> = [
    { tool: 'Read', input: { file_path: file(0) } },
    { tool: 'Grep', input: { pattern: 'reconcileRefundsAfterCutoff', path: 'services' } },
    {
      tool: 'mcp__atlassian-confluence-enterprise__search_pages_by_space_and_label',
      input: { q: 'refunds' },
    },
    {
      tool: 'mcp__github-enterprise-server__list_pull_request_review_comments',
      input: { pr: 4821 + session },
    },
    { tool: 'Edit', input: { file_path: file(1), old_string: 'a', new_string: 'b' } },
    { tool: 'Bash', input: { command: 'pnpm --filter @billing/reconciliation test -- --runInBand' } },
    {
      tool: 'mcp__postgres-readonly-analytics-replica__run_explain_analyze_query',
      input: { sql: 'select 1' },
      error: session % 3 === 0,
    },
    { tool: 'Skill', input: { skill: 'database-migration-safety-checklist-for-zero-downtime-deploys' } },
    { tool: 'Task', input: { subagent_type: 'security-reviewer-for-payment-flows', prompt: 'review' } },
    { tool: 'Bash', input: { command: 'pnpm run build:all-services' }, error: session % 4 === 1 },
    {
      tool: 'mcp__playwright__browser_navigate',
      input: { url: 'http://localhost:3000' },
      error: session % 5 === 2,
    },
    { tool: 'Read', input: { file_path: file(2) } },
  ];
  return steps.slice(0, 6 + (session % 7)).map((step, i) => ({
    ...step,
    resultChars: 2_000 + ((session * 7 + i * 13) % 20) * 400,
    tokens: 20_000 + i * 8_000,
    at: startAt + (i + 1) * 2 * MIN,
  }));
}

/** Writes the history's transcripts into `claudeDir` for `project`; the last session ends `now`. */
export function writeLongHistory(claudeDir: string, project: string, now = Date.now()): void {
  for (let session = 0; session < SESSIONS; session++) {
    const sessionId = `long-${String(session).padStart(2, '0')}-${(0xb111 + session * 4099).toString(16)}`;
    const last = session === SESSIONS - 1;
    // Every 18 h over the last month; the last session started half an hour ago and is still going.
    const startAt = last ? now - 30 * MIN : now - (SESSIONS - session) * 18 * 60 * MIN;
    const base = { sessionId, cwd: project };
    const turns = turnsOf(session, project, startAt);
    writeTranscript(transcriptPath(claudeDir, project, sessionId), [
      promptLine({ ...base, text: PROMPTS[session % PROMPTS.length], at: startAt }),
      ...toolTurnLines({ ...base, turns }),
      assistantTextLine({
        ...base,
        text: 'Done: the change is in place and its tests pass.',
        // The session in progress is at 80% of a 200k window, so the advice shows.
        tokens: last ? 160_000 : turns.at(-1)!.tokens + 5_000,
        at: last ? now - 2 * MIN : turns.at(-1)!.at + MIN,
      }),
    ]);
  }
}
