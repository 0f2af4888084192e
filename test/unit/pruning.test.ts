import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type AdviceInput, MAX_RECOMMENDATIONS, advise, scoreItems } from '../../src/engine/pruning/advisor';
import type { ContextItem } from '../../src/engine/live/contextItems';
import { compactCommand } from '../../src/engine/pruning/focus';
import { itemTags, promptKeywords } from '../../src/engine/context/keywords';
import { band, frequencyPoints, recencyPoints, relevancePoints } from '../../src/engine/pruning/scoring';

const MIN = 60_000;
const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('seed 004 tiers', () => {
  test('recency points by time since last access', () => {
    const table: Array<[number, number]> = [
      [0, 10],
      [5 * MIN, 10],
      [5 * MIN + 1, 8],
      [15 * MIN, 8],
      [15 * MIN + 1, 6],
      [30 * MIN, 6],
      [31 * MIN, 4],
      [60 * MIN, 4],
      [61 * MIN, 2],
      [120 * MIN, 2],
      [121 * MIN, 0],
      [24 * 60 * MIN, 0],
    ];
    for (const [age, points] of table) assert.equal(recencyPoints(age), points, `${age / MIN} min`);
  });

  test('frequency points by accesses this session', () => {
    const table: Array<[number, number]> = [
      [0, 0],
      [1, 2],
      [2, 4],
      [3, 4],
      [4, 6],
      [6, 6],
      [7, 8],
      [9, 8],
      [10, 10],
      [42, 10],
    ];
    for (const [count, points] of table) assert.equal(frequencyPoints(count), points, `${count} accesses`);
  });

  test('relevance points by the share of tags among the prompt keywords', () => {
    const keywords = ['api', 'endpoint', 'authentication', 'design', 'rest'];
    const table: Array<[string[], number]> = [
      [['api', 'rest', 'design', 'endpoint'], 10], // 4/4
      [['api', 'rest', 'design', 'fastapi'], 10], // 3/4 = 0.75
      [['api', 'rest', 'radix', 'react'], 8], // 2/4 = 0.5
      [['api', 'react', 'radix'], 6], // 1/3 = 0.33
      [['api', 'react', 'radix', 'tailwind', 'vite'], 4], // 1/5 = 0.2
      [['api', ...'abcdefghij'.split('').map((c) => `x${c}x`)], 2], // 1/11 = 0.09: any overlap
      [['radix', 'primitives'], 0], // none
      [[], 2], // an item without tags is generic
    ];
    for (const [tags, points] of table) assert.equal(relevancePoints(tags, keywords), points, tags.join(','));
    assert.equal(relevancePoints(['api'], []), 2, 'a prompt without keywords makes everything generic');
  });

  test('bands of the total', () => {
    const table: Array<[number, string]> = [
      [0, 'prune'],
      [8, 'prune'],
      [9, 'consider'],
      [15, 'consider'],
      [16, 'keep-unless-critical'],
      [22, 'keep-unless-critical'],
      [23, 'keep'],
      [30, 'keep'],
    ];
    for (const [total, expected] of table) assert.equal(band(total), expected, String(total));
  });

  test('prompt keywords: 3+ letters, stop words removed, first 20 distinct', () => {
    assert.deepEqual(promptKeywords('Design a REST API endpoint for the user authentication'), [
      'design',
      'rest',
      'api',
      'endpoint',
      'user',
      'authentication',
    ]);
    assert.deepEqual(promptKeywords('Yes, okay - keep going and continue'), [], 'replies name no task');
    const many = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    assert.equal(promptKeywords(many).length, 20);
    assert.deepEqual(itemTags('skills/api-design-framework'), ['api', 'design', 'framework']);
    assert.deepEqual(itemTags('src/auth/loginHandler.ts'), ['auth', 'login', 'handler']);
  });

  test("the seed's worked examples (its third example misreads its own recency tiers: 10 min is 8 points)", () => {
    const prompt = 'Design a REST API endpoint for user authentication';
    const [apiSkill, radix] = scoreItems({
      now: NOW,
      latestPrompt: prompt,
      items: [
        {
          id: 'a',
          type: 'skill',
          name: 'api-design-framework',
          accesses: 8,
          lastAccessAt: NOW - 3 * MIN,
          tokens: 650,
          measured: false,
          tags: ['api', 'rest', 'design'],
        },
        {
          id: 'b',
          type: 'skill',
          name: 'radix-primitives',
          accesses: 1,
          lastAccessAt: NOW - 90 * MIN,
          tokens: 450,
          measured: false,
        },
      ],
    });
    assert.deepEqual(
      [apiSkill.recency, apiSkill.frequency, apiSkill.relevance, apiSkill.score, apiSkill.band],
      [10, 8, 10, 28, 'keep'],
    );
    assert.deepEqual(
      [radix.recency, radix.frequency, radix.relevance, radix.score, radix.band],
      [2, 2, 0, 4, 'prune'],
    );
    const [frontend] = scoreItems({
      now: NOW,
      latestPrompt: 'Optimize database queries',
      items: [
        {
          id: 'c',
          type: 'subagent',
          name: 'frontend-ui-developer',
          accesses: 2,
          lastAccessAt: NOW - 10 * MIN,
          tokens: 1500,
          measured: false,
        },
      ],
    });
    assert.deepEqual(
      [frontend.recency, frontend.frequency, frontend.relevance, frontend.score, frontend.band],
      [8, 4, 0, 12, 'consider'],
    );
  });
});

/** Items whose totals are known: relevance is 0 for all (the prompt shares no words with them). */
function itemsWithScores(): ContextItem[] {
  // recency + frequency: 0+0, 2+2, 4+4, 6+4, 8+6, 10+6, 10+8, 10+10
  const shapes: Array<[number, number]> = [
    [300, 0],
    [100, 1],
    [45, 2],
    [20, 3],
    [10, 5],
    [2, 6],
    [1, 8],
    [0, 12],
  ];
  return shapes.map(([minutesAgo, accesses], i) => ({
    id: `file:/repo/src/module${i}.ts`,
    type: 'file',
    name: `/repo/src/zzq${i}.ts`,
    accesses,
    lastAccessAt: NOW - minutesAgo * MIN,
    tokens: 1000 * (i + 1),
    measured: false,
  }));
}

describe('seed 004 phases', () => {
  const base = { now: NOW, items: itemsWithScores(), latestPrompt: 'optimise the database layer' };

  test('scores of the test items', () => {
    assert.deepEqual(
      scoreItems(base).map((item) => item.score),
      [0, 4, 8, 10, 14, 16, 18, 20],
    );
  });

  test('under 70%: silent', () => {
    const advice = advise({ ...base, percent: 69.9 });
    assert.equal(advice.phase, 'silent');
    assert.deepEqual(advice.recommendations, []);
  });

  test('70-80%: the bottom quarter', () => {
    const advice = advise({ ...base, percent: 72 });
    assert.equal(advice.phase, 'identify');
    assert.deepEqual(
      advice.recommendations.map((rec) => [rec.score, rec.priority]),
      [
        [0, 'HIGH'],
        [4, 'HIGH'],
      ],
    );
  });

  test('80-90%: prune under 10, review 10-15', () => {
    const advice = advise({ ...base, percent: 85 });
    assert.equal(advice.phase, 'aggressive');
    assert.deepEqual(
      advice.recommendations.map((rec) => [rec.score, rec.priority]),
      [
        [0, 'HIGH'],
        [4, 'HIGH'],
        [8, 'HIGH'],
        [10, 'MED'],
        [14, 'MED'],
      ],
    );
    assert.equal(advice.totalSavingTokens, 1000 + 2000 + 3000 + 4000 + 5000);
    assert.ok(advice.recommendations.every((rec) => rec.action === 'closeFile' && rec.reason.length > 0));
    assert.deepEqual(advice.warnings, []);
  });

  test('over 90%: prune under 16 and warn that the context is critical', () => {
    const advice = advise({ ...base, percent: 91 });
    assert.equal(advice.phase, 'critical');
    assert.deepEqual(
      advice.recommendations.map((rec) => rec.score),
      [0, 4, 8, 10, 14],
    );
    assert.ok(advice.warnings.some((warning) => /critical/.test(warning)));
  });

  test('95% or more: compaction first, then the prune list, five at most', () => {
    const advice = advise({ ...base, percent: 96 });
    assert.equal(advice.phase, 'compact');
    assert.equal(advice.recommendations.length, MAX_RECOMMENDATIONS);
    assert.deepEqual(
      advice.recommendations.map((rec) => rec.action),
      ['compact', 'closeFile', 'closeFile', 'closeFile', 'closeFile'],
    );
  });

  test('first prompt of a session: recency 10 and frequency 0 for everything', () => {
    const scored = scoreItems({ ...base, firstPrompt: true });
    assert.ok(scored.every((item) => item.recency === 10 && item.frequency === 0));
  });

  test('rapid growth: more than 20 points within 5 minutes is a warning', () => {
    const history = [
      { at: NOW - 10 * MIN, percent: 30 },
      { at: NOW - 4 * MIN, percent: 50 },
      { at: NOW - 1 * MIN, percent: 70 },
    ];
    assert.ok(
      advise({ ...base, percent: 72, usageHistory: history }).warnings.some((w) =>
        /Rapid context growth: \+22/.test(w),
      ),
    );
    assert.ok(!advise({ ...base, percent: 69, usageHistory: history }).warnings.some((w) => /Rapid/.test(w)));
  });

  test('pinned or dismissed items are never suggested; MCP servers are disabled, skills compacted', () => {
    const items: ContextItem[] = [
      ...itemsWithScores(),
      {
        id: 'mcp:playwright',
        type: 'mcp_server',
        name: 'playwright',
        accesses: 0,
        lastAccessAt: NOW - 300 * MIN,
        tokens: 9000,
        measured: false,
      },
      {
        id: 'skill:pdf',
        type: 'skill',
        name: 'pdf-forms',
        accesses: 0,
        lastAccessAt: NOW - 300 * MIN,
        tokens: 700,
        measured: false,
      },
    ];
    const excluded = new Set(['file:/repo/src/module0.ts']);
    const advice = advise({ ...base, items, percent: 85, excluded });
    assert.ok(!advice.recommendations.some((rec) => excluded.has(rec.itemId)));
    assert.deepEqual(
      advice.recommendations.slice(0, 2).map((rec) => [rec.itemId, rec.action]),
      [
        ['mcp:playwright', 'disableServer'],
        ['skill:pdf', 'compact'],
      ],
      'equal scores: the bigger saving first',
    );
  });

  test('all context relevant: no candidates and a hint to compact old decisions', () => {
    const advice = advise({
      now: NOW,
      percent: 85,
      latestPrompt: 'fix the login handler',
      items: [
        {
          id: 'f',
          type: 'file',
          name: '/repo/src/loginHandler.ts',
          accesses: 12,
          lastAccessAt: NOW,
          tokens: 500,
          measured: false,
        },
      ],
    });
    assert.deepEqual(advice.recommendations, []);
    assert.ok(advice.warnings.some((warning) => /relevant/.test(warning)));
  });

  test('/compact keeps the current task (latest prompts, files being edited), never a tool or server name', () => {
    const items: ContextItem[] = [
      ...itemsWithScores(),
      {
        id: 'mcp_server:playwright',
        type: 'mcp_server',
        name: 'playwright',
        accesses: 12,
        lastAccessAt: NOW,
        tokens: 3000,
        measured: false,
      },
      {
        id: 'file:/repo/src/retryPolicy.ts',
        type: 'file',
        name: '/repo/src/retryPolicy.ts',
        accesses: 3,
        lastAccessAt: NOW - MIN,
        editedAt: NOW - MIN,
        tokens: 900,
        measured: false,
      },
    ];
    const advice = advise({
      ...base,
      items,
      percent: 85,
      recentPrompts: ['Now make the retries back off', 'optimise the database layer'],
    });
    assert.equal(
      compactCommand(advice),
      '/compact Keep what matters for the current task: retries, back, off, optimise, database, layer; ' +
        'files being edited: retryPolicy.ts. Drop the details of: zzq0.ts, zzq1.ts, zzq2.ts, zzq3.ts, zzq4.ts.',
    );
    assert.equal(
      compactCommand(advise({ ...base, items: [], percent: 85, latestPrompt: 'ok' })),
      '/compact Keep the current task, its decisions and open problems.',
      'nothing to name: the task in general words, not a list of tools',
    );
  });
});

describe('the words beside a score', () => {
  const item = (minutesAgo: number, accesses: number): ContextItem => ({
    id: 'file:/repo/src/legacyReport.ts',
    type: 'file',
    name: '/repo/src/legacyReport.ts',
    accesses,
    lastAccessAt: NOW - minutesAgo * MIN,
    tokens: 5000,
    measured: false,
  });
  const advice = (items: ContextItem[], extra: Partial<AdviceInput> = {}) =>
    advise({ now: NOW, percent: 85, latestPrompt: 'optimise the database layer', items, ...extra });

  test('each recommendation says why in plain words and what it saves, then how the tiers make its score', () => {
    const [rec] = advice([item(125, 1)]).recommendations;
    assert.equal(rec.score, 2);
    assert.equal(
      rec.reason,
      'unused for 2 h 5 min after one use, unrelated to your latest prompt; saves ≈5.0k',
    );
    const [recent] = advice([{ ...item(5, 1), measured: true, tokens: 3100 }]).recommendations;
    assert.equal(recent.reason, 'used once, 5 min ago, unrelated to your latest prompt; saves 3.1k');
    assert.equal(
      rec.explanation,
      '2 of 30, prune now (0-8): recency 0 (over 2 h) + frequency 2 (1 use) + relevance 0 (unrelated)',
    );
  });

  test('a score that moves with time says why: the age shown agrees with the tier either side of each boundary', () => {
    const at = (minutes: number) => advice([item(minutes, 2)]).recommendations[0];
    const table: Array<[number, string, number]> = [
      [5, 'used 2 times, last 5 min ago,', 10],
      [5.01, 'used 2 times, last 6 min ago,', 8],
      [30, 'used 2 times, last 30 min ago,', 6],
      [30.01, 'used 2 times, last 31 min ago,', 4],
      [120, 'used 2 times, last 2 h ago,', 2],
      [120.01, 'unused for 2 h 1 min after 2 uses,', 0],
    ];
    for (const [minutes, words, recency] of table) {
      const rec = at(minutes);
      assert.ok(rec.reason.startsWith(words), `${minutes} min: ${rec.reason}`);
      assert.match(rec.explanation, new RegExp(`recency ${recency} \\(`), `${minutes} min`);
    }
  });

  test('use counts are this session’s (or since the last compaction), never "never used"', () => {
    const server: ContextItem = {
      id: 'mcp_server:github',
      type: 'mcp_server',
      name: 'github',
      accesses: 0,
      lastAccessAt: NOW - 40 * MIN,
      tokens: 1200,
      measured: false,
    };
    assert.equal(
      advice([server]).recommendations[0].reason,
      'loaded 40 min ago, not used this session, unrelated to your latest prompt; saves ≈1.2k',
    );
    assert.match(
      advice([server], { compacted: true }).recommendations[0].reason,
      /not used since the last compaction/,
    );
    assert.equal(
      advice([item(125, 1)], { compacted: true }).recommendations[0].reason,
      'unused for 2 h 5 min after one use since the last compaction, unrelated to your latest prompt; saves ≈5.0k',
    );
    assert.ok(!advice([server]).recommendations.some((rec) => /never/.test(rec.reason)));
  });

  test('at 95% the compaction comes first with a saving in tokens, not a blank', () => {
    const items = [item(125, 1)];
    const [first] = advice(items, { percent: 96, conversationTokens: 150_000 }).recommendations;
    assert.deepEqual([first.type, first.savingTokens, first.savingMeasured], ['session', 150_000, false]);
    const [withoutBreakdown] = advice(items, { percent: 96 }).recommendations;
    assert.equal(
      withoutBreakdown.savingTokens,
      5000,
      'the listed drops when the conversation is not measured',
    );
  });
});
