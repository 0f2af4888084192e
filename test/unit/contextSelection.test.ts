import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  IMPORTANCE,
  MODE_THRESHOLDS,
  calculateRelevanceScore,
  relevanceParts,
  selectRelevantContext,
} from '../../src/engine/context/selection';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-22T12:00:00Z');
const entry = (
  type: string,
  hoursAgo: number,
  text = 'something happened',
  agentType: string | null = null,
) => ({
  type,
  text,
  createdAt: NOW - hoursAgo * HOUR,
  agentType,
});

describe('seed 001: relevance scoring', () => {
  test('the formula: 0.4 recency + 0.3 importance + 0.2 agent match + 0.1 keywords, in [0, 1]', () => {
    const parts = relevanceParts(entry('decision', 12, 'use sqlite for storage', 'plan'), {
      now: NOW,
      agentType: 'plan',
      keywords: ['sqlite', 'postgres'],
    });
    assert.equal(parts.recency, Math.exp(-0.5));
    assert.equal(parts.importance, 1);
    assert.equal(parts.agentMatch, 1);
    assert.equal(parts.keywordMatch, 0.5);
    assert.equal(parts.score, 0.4 * Math.exp(-0.5) + 0.3 + 0.2 + 0.05);
    const max = calculateRelevanceScore(entry('decision', 0, 'a b', 'x'), {
      now: NOW,
      agentType: 'x',
      keywords: [],
    });
    assert.ok(max <= 1 && max >= 0);
  });

  test('1. a recent observation (1 min ago) scores higher than an old one (1 day ago)', () => {
    const options = { now: NOW };
    assert.ok(
      calculateRelevanceScore(entry('feature', 1 / 60), options) >
        calculateRelevanceScore(entry('feature', 24), options),
    );
  });

  test('2. a decision scores higher than a pattern', () => {
    const options = { now: NOW };
    assert.ok(
      calculateRelevanceScore(entry('decision', 2), options) >
        calculateRelevanceScore(entry('pattern', 2), options),
    );
    assert.deepEqual(
      Object.entries(IMPORTANCE)
        .sort((a, b) => b[1] - a[1])
        .map(([type]) => type),
      [
        'decision',
        'problem',
        'warning',
        'refactor',
        'success',
        'discovery',
        'feature',
        'bugfix',
        'pattern',
        'solution',
      ],
    );
    assert.equal(relevanceParts(entry('whatever', 0), options).importance, 0.3, 'anything else weighs 0.3');
  });

  test('3. the same agent type adds 0.2 over a different one', () => {
    const plan = calculateRelevanceScore(entry('success', 3, 'x', 'plan'), { now: NOW, agentType: 'plan' });
    const build = calculateRelevanceScore(entry('success', 3, 'x', 'build'), { now: NOW, agentType: 'plan' });
    assert.ok(Math.abs(plan - build - 0.2) < 1e-12);
  });

  test('4. a keyword match adds a bonus when the text contains recent keywords', () => {
    const options = { now: NOW, keywords: ['migration', 'users'] };
    const match = calculateRelevanceScore(entry('feature', 5, 'Wrote the users table migration'), options);
    const none = calculateRelevanceScore(entry('feature', 5, 'Styled the header'), options);
    assert.ok(Math.abs(match - none - 0.1) < 1e-12);
  });

  test('5. conservative mode keeps only scores of 0.6 or more', () => {
    const entries = [entry('decision', 0.1), entry('decision', 30), entry('pattern', 0.1)];
    const kept = selectRelevantContext(entries, { now: NOW, mode: 'conservative' });
    assert.equal(MODE_THRESHOLDS.conservative, 0.6);
    assert.ok(kept.every((item) => item.relevance >= 0.6));
    assert.deepEqual(
      kept.map((item) => item.type),
      ['decision'],
    );
  });

  test('6. aggressive mode lowers the bar to 0.3 and keeps more', () => {
    const entries = [
      entry('decision', 0.1),
      entry('decision', 30),
      entry('pattern', 0.1),
      entry('pattern', 40),
    ];
    const aggressive = selectRelevantContext(entries, { now: NOW, mode: 'aggressive' });
    const conservative = selectRelevantContext(entries, { now: NOW, mode: 'conservative' });
    assert.equal(MODE_THRESHOLDS.aggressive, 0.3);
    assert.ok(aggressive.length > conservative.length);
    assert.ok(aggressive.every((item) => item.relevance >= 0.3));
    assert.deepEqual(
      aggressive.map((item) => item.relevance),
      [...aggressive.map((item) => item.relevance)].sort((a, b) => b - a),
    );
  });
});
