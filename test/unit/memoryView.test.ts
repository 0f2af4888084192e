/** Pure presentation logic of the memory in VS Code: search box parsing, search as you type, clipping. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OBSERVATION_TYPES } from '../../src/engine/memory';
import {
  MEMORY_TYPES,
  MEMORY_TYPE_ICONS,
  memoryTypeIcon,
  oneLineClip,
  parseMemoryQuery,
  typingQuery,
} from '../../src/shared/memory';
import { clockTime } from '../../src/shared/relativeTime';

describe('memory presentation', () => {
  test('the shared type list is the engine’s, each with an icon', () => {
    assert.deepEqual([...MEMORY_TYPES], [...OBSERVATION_TYPES]);
    for (const type of MEMORY_TYPES) assert.ok(MEMORY_TYPE_ICONS[type]);
    assert.equal(memoryTypeIcon('bugfix'), 'bug');
    assert.equal(memoryTypeIcon('something else'), 'note');
  });

  test('type: filters are taken out of the query; unknown ones stay words', () => {
    assert.deepEqual(parseMemoryQuery('type:bugfix login'), { query: 'login', types: ['bugfix'] });
    assert.deepEqual(parseMemoryQuery('t:Problem,warning  "rate limit"  '), {
      query: '"rate limit"',
      types: ['problem', 'warning'],
    });
    assert.deepEqual(parseMemoryQuery('type:nonsense retry'), { query: 'type:nonsense retry', types: [] });
    assert.deepEqual(parseMemoryQuery(''), { query: '', types: [] });
  });

  test('the word being typed is a prefix, unless the query says otherwise', () => {
    assert.equal(typingQuery('token buck'), 'token buck*');
    assert.equal(typingQuery('token '), 'token ');
    assert.equal(typingQuery('build*'), 'build*');
    assert.equal(typingQuery('"rate limit"'), '"rate limit"');
    assert.equal(typingQuery('"rate lim'), '"rate lim');
    assert.equal(typingQuery('login OR'), 'login OR');
    assert.equal(typingQuery('api.tsx'), 'api.tsx*');
    // One or two letters would stand for thousands of words: they are searched as typed.
    assert.equal(typingQuery('api.ts'), 'api.ts');
    assert.equal(typingQuery('to'), 'to');
    assert.equal(typingQuery('what?'), 'what?');
    assert.equal(typingQuery(''), '');
  });

  test('one line, cut with an ellipsis', () => {
    assert.equal(oneLineClip('a\n  b\tc', 10), 'a b c');
    assert.equal(oneLineClip('abcdefghijkl', 6), 'abcde…');
  });

  test('when: the local time of day, with the day when it was not today', () => {
    // Local dates, so the expectations hold in any time zone.
    const now = new Date(2026, 2, 12, 9, 5).getTime(); // Thursday 12 March 2026, 09:05
    const at = (month: number, day: number, hour: number, minute: number, year = 2026) =>
      clockTime(new Date(year, month, day, hour, minute).getTime(), now);
    assert.equal(at(2, 12, 0, 1), '00:01');
    assert.equal(at(2, 12, 9, 5), '09:05');
    assert.equal(at(2, 11, 23, 59), 'yesterday 23:59', 'six minutes ago, but yesterday');
    assert.equal(at(2, 11, 14, 32), 'yesterday 14:32');
    assert.equal(at(2, 9, 14, 32), 'Mon 14:32');
    assert.equal(at(2, 6, 8, 0), 'Fri 08:00');
    assert.equal(at(2, 5, 18, 45), '5 Mar 18:45', 'a week ago names the date');
    assert.equal(at(11, 31, 22, 10, 2025), '31 Dec 2025 22:10');
  });
});
