/** Names and text from a repository or an agent are shown and sent as the one line a reader sees. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unlinked, visibleLine } from '../../src/shared/visibleText';

test('line breaks, carriage returns and terminal escapes become single spaces', () => {
  assert.equal(visibleLine('notes\ntouch PWNED\r\nx.md'), 'notes touch PWNED x.md');
  assert.equal(visibleLine('pdf\n!touch /tmp/PWNED\n'), 'pdf !touch /tmp/PWNED');
  assert.equal(visibleLine('\u001b[2J\u001b]0;title\u0007name'), '[2J ]0;title name');
  assert.equal(visibleLine('a\u0085b\u2028c\u2029d'), 'a b c d');
});

test('bidirectional overrides and invisible characters cannot reorder or hide a name', () => {
  assert.equal(visibleLine('invoice\u202egpj.exe'), 'invoice gpj.exe');
  assert.equal(visibleLine('a\u2066b\u2069c\u200fd\u061ce'), 'a b c d e');
  assert.equal(visibleLine('\ufeffzero\u200bwidth'), 'zero width');
});

test('ordinary text, accents and emoji sequences are kept as they are', () => {
  assert.equal(visibleLine('  café — naïve 日本語 👩‍💻  '), 'café — naïve 日本語 👩‍💻');
  assert.equal(visibleLine('src/a b.ts'), 'src/a b.ts');
});

test('a name shaped like a markdown link stays text in a notification', () => {
  assert.equal(
    unlinked('Disabled [x](command:workbench.action.quit) for p'),
    'Disabled [x] (command:workbench.action.quit) for p',
  );
  assert.equal(unlinked('plain [brackets] and (parens)'), 'plain [brackets] and (parens)');
});
