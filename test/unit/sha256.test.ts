import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { sha256Hex } from '../../src/engine/kernel/sha256';

test('sha256Hex gives node:crypto digest for paths, non-ASCII text and every padding length', () => {
  const texts = [
    '',
    'abc',
    '/home/dev/shop',
    'C:\\Users\\Ana\\projets\\café',
    '/srv/项目/🚀',
    ...Array.from({ length: 140 }, (_, n) => 'x'.repeat(n)),
  ];
  for (const text of texts) {
    assert.equal(sha256Hex(text), createHash('sha256').update(text).digest('hex'), JSON.stringify(text));
  }
});
