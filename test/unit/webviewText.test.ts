/** Names in the dashboard are shown as the text a reader sees: nothing hidden, nothing reordered. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shownText } from '../../webview/shownText';

test('a name with a bidi override, escapes or line breaks reads as it is, the spaces around it kept', () => {
  assert.equal(shownText('invoice\u202egpj.exe'), 'invoice gpj.exe');
  assert.equal(shownText('srv\u001b[2J\u200b\u2066x '), 'srv [2J x ');
  assert.equal(shownText(' · '), ' · ');
  assert.equal(shownText(' '), ' ');
  assert.equal(shownText('first line\nsecond\u202e line'), 'first line\nsecond line');
});
