/**
 * Secrets in the formats of credential files, shown by a Read, written by a Write or printed by a command:
 * `.pgpass` and `.netrc` lines, Docker's `config.json`, and an AWS secret access key with no name before
 * it (the console's `accessKeys.csv`, the output of `aws configure get aws_secret_access_key`).
 */
import { type Rule, afterPrefix } from './ruleShape';
import {
  isBasicCredential,
  isPlaceholder,
  looksLikePassword,
  marker,
  mixesCaseAndDigits,
} from './valueChecks';

/** What comes before a line's text: a Read's line number (`  12→`, `12\t`) or a diff's `+`/`-`. */
const LINE_PREFIX = /^(?:[ \t]*\d+[\t→]|[+-])?[ \t]*/;
/** A line start and that prefix, opening the group of what to keep (regex source). */
const LINE_START = `^(${LINE_PREFIX.source.slice(1)}`;

/** A `.pgpass` host is a name, an address or `*`, with a letter, a dot or `*` (not a time of day). */
const isPgpassHost = (host: string) => /[A-Za-z.*]/.test(host);

/** 40 base64 characters standing alone: the shape of an AWS secret access key. */
const AWS_SECRET = String.raw`(?<![A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`;

/** The line before `offset` is a long base64 line: the 40 characters end a wrapped blob, not a key. */
function endsWrappedBase64(input: string, offset: number): boolean {
  const end = input.lastIndexOf('\n', offset - 1);
  if (end <= 0) return false;
  const previous = input.slice(input.lastIndexOf('\n', end - 1) + 1, end).trim();
  return /^[A-Za-z0-9+/]{60,}$/.test(previous);
}

export const FILE_RULES: Rule[] = [
  {
    id: 'pgpass',
    kind: 'password',
    triggers: [':'],
    // hostname:port:database:username:password, the host a name, an address or `*` (not a time of day).
    // The search starts at `:port:` and looks back for the line start: far faster than trying every line.
    pattern: new RegExp(
      String.raw`:(?:\d{1,5}|\*):(?<=${LINE_PREFIX.source}[\w.*-]+:(?:\d{1,5}|\*):)[^:\s]+:[^:\s]+:([^\s:]\S*)(?=\r?$)`,
      'gm',
    ),
    replace: (match, [password = ''], input, offset) => {
      const host = input.slice(input.lastIndexOf('\n', offset) + 1, offset).replace(LINE_PREFIX, '');
      return isPgpassHost(host) ? match.slice(0, -password.length) + marker('password') : match;
    },
  },
  {
    id: 'pgpass-in-command',
    kind: 'password',
    triggers: ['pgpass'],
    // A `.pgpass` line written by a command (`echo 'db:5432:app:admin:pw' >> ~/.pgpass`): anywhere a word
    // starts, when the text names the file (or PGPASSFILE).
    // The search starts at `:port:` and looks back for the host, as above.
    pattern: new RegExp(
      String.raw`:(?:\d{1,5}|\*):(?<=(?<![^\s'"=])([\w.*-]+):(?:\d{1,5}|\*):)[^:\s'"]+:[^:\s'"]+:([^\s'"]+)`,
      'g',
    ),
    replace: (match, [host = '', password = '']) =>
      isPgpassHost(host) && !isPlaceholder(password)
        ? match.slice(0, -password.length) + marker('password')
        : match,
  },
  {
    id: 'netrc',
    kind: 'password',
    // `default` entries have a login too; a bare `default` is in every hook payload (`permission_mode`).
    triggers: ['machine', 'login'],
    // A login (or account) between the machine and the password tells a netrc entry from prose.
    pattern:
      /(\b(?:machine[ \t\r\n]+\S+|default(?=[ \t\r\n]+login))(?:[ \t\r\n]+(?:login|account|port|protocol)[ \t\r\n]+\S+){1,4}[ \t\r\n]+password[ \t\r\n]+)(\S+)/g,
    replace: afterPrefix('password'),
  },
  {
    id: 'password-line',
    kind: 'password',
    triggers: ['password'],
    // A `.netrc` entry cut into lines (one per array element of an edit): `password <value>` alone.
    pattern: new RegExp(`${LINE_START}password[ \\t]+)(\\S+)(?=[ \\t]*\\r?$)`, 'gm'),
    replace: (match, [prefix, value = '']) =>
      looksLikePassword(value) ? prefix + marker('password') : match,
  },
  {
    id: 'docker-auth',
    kind: 'docker-auth',
    triggers: ['auth'],
    pattern: /(\\?"auth\\?"[^\S\r\n]*:[^\S\r\n]*\\?")([A-Za-z0-9+/]{8,}={0,2})(?=\\?")/g,
    replace: (match, [prefix, value]) =>
      isBasicCredential(value ?? '') ? prefix + marker('docker-auth') : match,
  },
  {
    id: 'aws-secret-key-beside-id',
    kind: 'aws-secret-key',
    triggers: ['akia', 'asia', 'abia', 'acca', 'aws-access-key-id'],
    // On the line of an access key id (or what became of it): a CSV row, a table, `export` lines.
    pattern: new RegExp(
      String.raw`((?:(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}|\[REDACTED:aws-access-key-id\])[^\r\n]{0,160}?)${AWS_SECRET}`,
      'g',
    ),
    replace: (match, [prefix = '', secret = '']) =>
      mixesCaseAndDigits(secret) ? prefix + marker('aws-secret-key') : match,
  },
  {
    id: 'aws-secret-key-alone',
    kind: 'aws-secret-key',
    triggers: 'any',
    minLength: 40,
    pattern: new RegExp(`${LINE_START}["']?)([A-Za-z0-9/+]{40})(?=["']?[ \\t]*\\r?$)`, 'gm'),
    replace: (match, [prefix = '', secret = ''], input, offset) =>
      mixesCaseAndDigits(secret) && !endsWrappedBase64(input, offset)
        ? prefix + marker('aws-secret-key')
        : match,
  },
];
