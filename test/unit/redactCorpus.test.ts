/**
 * The redaction corpus (test/support/secretCorpus.ts) through what stores or shows text: the recorder's
 * event-log line, the memory observation made from it, the sample kept of a rejected line.
 */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { describe, test } from 'node:test';
import { sampleOf } from '../../src/engine/events/eventLine';
import { normalisePayload } from '../../src/engine/agents/payloads';
import { analyseAgentEvent } from '../../src/engine/memory/eventMemory';
import { redactValue } from '../../src/engine/redact';
import { enabledRules } from '../../src/engine/redact/text';
import {
  PLACEMENTS,
  NON_SECRETS,
  SECRETS,
  type CorpusFigures,
  leakedParts,
  measureCorpus,
  recorded,
} from '../support/secretCorpus';

const report = (items: CorpusFigures['leaks'] | CorpusFigures['altered']) =>
  items.map((item) => `${item.kind} in ${item.placement}`).join('\n');

describe('redaction corpus', () => {
  const figures = measureCorpus(recorded);

  test('holds 100+ fake secrets of 60+ kinds in every placement, and 50+ look-alikes', () => {
    assert.ok(figures.secrets >= 100, `${figures.secrets} secrets`);
    assert.ok(figures.kinds >= 60, `${figures.kinds} kinds`);
    assert.equal(figures.placements, 9);
    assert.ok(figures.nonSecrets >= 50, `${figures.nonSecrets} non-secrets`);
  });

  test('no secret reaches the event log, in any placement', () => {
    assert.equal(figures.leaks.length, 0, `leaked:\n${report(figures.leaks)}`);
  });

  test('look-alike non-secrets are stored as they are (at most 1 in 50 altered)', () => {
    const altered = new Set(figures.altered.map((item) => item.kind)).size;
    assert.ok(altered * 50 <= figures.nonSecrets, `altered:\n${report(figures.altered)}`);
  });

  test('redacting a recorded payload again changes nothing', () => {
    for (const secret of SECRETS) {
      for (const placement of PLACEMENTS) {
        const stored = recorded(placement.payload(secret.text, secret.command ?? false));
        const again = redactValue(stored);
        assert.ok(
          isDeepStrictEqual(again.value, stored) && again.count === 0,
          `${secret.kind} in ${placement.name}`,
        );
      }
    }
  });

  test('memory observations made from recorded events keep no secret', () => {
    for (const secret of SECRETS) {
      for (const placement of PLACEMENTS) {
        const stored = recorded(placement.payload(secret.text, secret.command ?? false));
        const event = normalisePayload(stored);
        const item = event && analyseAgentEvent(event);
        const text = item && 'draft' in item ? item.draft.text : '';
        assert.deepEqual(leakedParts(text, secret.parts), [], `${secret.kind} in ${placement.name}: ${text}`);
      }
    }
  });

  test('short texts searched literal by literal enable the same rules as the scan of long ones', () => {
    const texts = [...SECRETS.map((secret) => secret.text), ...NON_SECRETS.map(([, text]) => text)];
    for (const text of [...texts, texts.join('\n')]) {
      assert.deepEqual(enabledRules(text, 'literals'), enabledRules(text, 'scan'), text);
    }
    assert.ok(enabledRules(texts.join('\n'), 'scan').length > 50, 'the corpus announces most rules');
  });

  test('the sample kept of a rejected line keeps no secret', () => {
    for (const secret of SECRETS) {
      // A line that is no JSON, and a payload cut short (its escapes read as the parsed text would be).
      for (const line of [
        secret.text,
        `{"prompt": ${JSON.stringify(`Why does this fail?\n${secret.text}`)}`,
      ]) {
        assert.deepEqual(leakedParts(sampleOf(line), secret.parts), [], `${secret.kind}: ${sampleOf(line)}`);
      }
    }
  });
});
