/**
 * Secrets announced by a name: `NAME=value`, `"name": value`, `Header: value`, YAML `name: value`, and a
 * password written in a sentence ("the password is ...").
 */
import { SECRET_WORDS, kindOfName } from './names';
import type { Rule } from './ruleShape';
import { isCodeReference, isPlaceholder, looksLikePassword, marker } from './valueChecks';

/** Where the name ending at `end` starts: names are letters, digits and `_.-`. */
function nameStart(input: string, end: number): number {
  let start = end;
  while (start > 0 && /[A-Za-z0-9_.-]/.test(input[start - 1])) start--;
  return start;
}

/** Punctuation that ends a sentence rather than a password written in it. */
const TRAILING_PUNCTUATION = /[.,;:!?)]+$/;

/** The words for a password in prose (regex source). */
const PASSWORD_WORD = 'pass(?:word|phrase|wd|code)';
/** A password written in a sentence: quoted, or a word (regex source). */
const PROSE_VALUE = String.raw`("[^"\r\n]+"|'[^'\r\n]+'|\x60[^\x60\r\n]+\x60|[^\s"'\x60]+)`;

/** Group 1 leads to a password in prose, group 2: a quoted value, or a word that looks like a password. */
const proseValue: Rule['replace'] = (match, [prefix = '', value = '']) => {
  if (/^["'`]/.test(value))
    return isPlaceholder(value.slice(1, -1)) ? match : `${prefix}${value[0]}${marker('password')}${value[0]}`;
  const end = TRAILING_PUNCTUATION.exec(value)?.[0] ?? '';
  const word = value.slice(0, value.length - end.length);
  return looksLikePassword(word) ? `${prefix}${marker('password')}${end}` : match;
};

export const ASSIGNMENT_RULES: Rule[] = [
  {
    id: 'aws-secret-key',
    kind: 'aws-secret-key',
    triggers: ['secret'],
    // 40 base64 characters right after a secret-key name (assignment, YAML, JSON, `aws configure set`).
    pattern:
      /((?:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)\\?["']?(?:[^\S\r\n]*[:=][^\S\r\n]*|[^\S\r\n]+)\\?["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    replace: (_match, [prefix]) => prefix + marker('aws-secret-key'),
  },
  {
    id: 'secret-assignment',
    kind: 'secret',
    triggers: ['pass', 'secret', 'token', 'key', '_pw', '-pw'],
    // NAME = value, NAME: value, "NAME": "value", NAME := value; the name must end in a secret word. The
    // search starts at that word (fast) and the rest of the name is read backwards. A JSON name may hold an
    // array or object of literals, which goes whole.
    pattern: new RegExp(
      String.raw`(${SECRET_WORDS})((?:\\?["'])?[^\S\r\n]*(:=|=|:)[^\S\r\n]*)` +
        String.raw`(?:\\"((?:[^"\\\r\n]|\\(?!"))*)\\"|"([^"\r\n]*)"|'([^'\r\n]*)'|(\[[^\[\]\r\n]{1,500}\]|\{[^{}\r\n]{1,500}\})|([^\s"'\x60&,;<>(){}\[\]]+))`,
      'gi',
    ),
    replace: (
      match,
      [word = '', assign = '', separator = '', escaped, double, single, literal, bare = ''],
      input,
      offset,
    ) => {
      const start = nameStart(input, offset);
      const name = input.slice(start, offset) + word;
      const kind = kindOfName(name);
      const prefix = word + assign;
      if (escaped !== undefined) return isPlaceholder(escaped) ? match : `${prefix}\\"${marker(kind)}\\"`;
      if (double !== undefined) return isPlaceholder(double) ? match : `${prefix}"${marker(kind)}"`;
      if (single !== undefined) return isPlaceholder(single) ? match : `${prefix}'${marker(kind)}'`;
      if (literal !== undefined) {
        const quotedName = /["']/.test(input[start - 1] ?? '');
        return quotedName && !isPlaceholder(literal) ? prefix + marker(kind) : match;
      }
      if (isPlaceholder(bare) || isCodeReference(bare, name, separator, input, offset + match.length))
        return match;
      return prefix + marker(kind);
    },
  },
  {
    id: 'password-in-prose',
    kind: 'password',
    triggers: ['password', 'passphrase', 'passwd', 'passcode', 'pw'],
    // "the password is hunter2", "my password for the admin panel was 'x'", "the vpn password's x".
    pattern: new RegExp(
      String.raw`\b((?:${PASSWORD_WORD}|pw)(?:[^\S\r\n]+(?:for|of|to|on)(?:[^\S\r\n]+[\w.@-]+){1,3})?(?:[^\S\r\n]+(?:is|was|will be|would be|remains|set to|changed to|reset to|updated to)|['\u2019]s)(?:[^\S\r\n]*:)?[^\S\r\n]+)${PROSE_VALUE}`,
      'gi',
    ),
    replace: proseValue,
  },
  {
    id: 'password-given-in-prose',
    kind: 'password',
    triggers: ['password', 'passphrase', 'passwd', 'passcode'],
    // "I set my password to hunter2", "use the password hunter2", "log in with password hunter2": a verb
    // that gives the password, up to two words, the password word, then the value. The search starts at
    // the password word and looks back for the verb.
    pattern: new RegExp(
      String.raw`(${PASSWORD_WORD}(?<=\b(?:set|change|changed|reset|update|updated|use|using|with|enter|type|try)[^\S\r\n]+(?:[\w-]+[^\S\r\n]+){0,2}${PASSWORD_WORD})[^\S\r\n]+(?:to[^\S\r\n]+)?)${PROSE_VALUE}`,
      'gi',
    ),
    replace: proseValue,
  },
];
