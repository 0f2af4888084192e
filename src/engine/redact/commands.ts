/** Passwords and tokens given to commands on their command line. */
import { SECRET_WORDS, kindOfName } from './names';
import { type Rule, replaceQuoted } from './ruleShape';
import { isPlaceholder, marker } from './valueChecks';

/** A flag's value: quoted, or a word that is neither the next flag nor a shell operator (`&&`, `>`, `|`). */
const VALUE = String.raw`("[^"\r\n]*"|'[^'\r\n]*'|[^\s'"&|;<>()-][^\s'"]*)`;

/**
 * Commands whose password flag has no `--password` spelling: `[command names, flag and what joins it to
 * the value]`, as regex source. Attached-only flags (`mysql -pSECRET`) are so because `-p value` there
 * prompts and takes `value` as something else (a database).
 */
const PASSWORD_FLAGS: Array<[string, string]> = [
  ['mysql[a-z_-]*|mariadb[a-z_-]*', '-p'],
  ['sshpass', '-p[ \\t]*'],
  ['sqlcmd|bcp|osql|isql', '-P[ \\t]*'],
  ['redis-cli', '-a[ \\t]+'],
  ['mongo(?:sh|dump|restore|import|export|stat|top)?', '-p[ \\t]+'],
  ['login', '-p[ \\t]+'],
  ['ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn)', '-w[ \\t]+'],
  ['zip|unzip|zipcloak', '-P[ \\t]+'],
  ['7z[ar]?', '-p'],
  ['smbclient|rpcclient|smbmap', '-U[ \\t]*[^%\\s]+%'],
  ['openssl', '-pass(?:in|out)?[ \\t]+pass:'],
  ['keytool|jarsigner', '-(?:src|dest)?(?:store|key)pass[ \\t]+'],
  // `-b [-c ...] file user password`, or `-nb user password` (no file): the password is the last word.
  [
    'htpasswd',
    '-(?=[a-zA-Z]*b)[a-zA-Z]+(?:[ \\t]+-[a-zA-Z]+){0,4}(?:[ \\t]+[^\\s-]\\S*)?[ \\t]+[^\\s-]\\S*[ \\t]+',
  ],
];

/** Secret words a `--flag` may end in (`--password`, `--db-password`, `--registry-token`). */
const FLAG_WORDS = 'password|passwd|pass|token|secret|api-key|apikey|access-key|secret-key|client-secret';

export const COMMAND_RULES: Rule[] = [
  {
    id: 'config-set',
    kind: 'secret',
    triggers: ['config'],
    // `aws configure set [--profile p] aws_secret_access_key VALUE`, `npm config set //host/:_authToken
    // VALUE`, `git config --global github.token VALUE`: a setting whose name ends in a secret word, then
    // its value as the next word. `aws configure get ...` names the setting without its value.
    pattern: new RegExp(
      String.raw`(\bconfig(?:ure[ \t]+set|[ \t]+set|(?<=\bgit[ \t]+config))(?:[ \t]+--?[\w-]+(?:[ \t]+[^\s'"&|;<>()-]\S*)?){0,4}?[ \t]+([^\s'"=]*?(?:${SECRET_WORDS}))[ \t]+)${VALUE}`,
      'gi',
    ),
    replace: (match, [prefix = '', name = '', value = '']) =>
      replaceQuoted(
        match,
        prefix,
        value,
        /secret_?access_?key$/i.test(name) ? 'aws-secret-key' : kindOfName(name),
      ),
  },
  {
    id: 'curl-user',
    kind: 'basic-auth',
    triggers: ['curl'],
    // `-u user:pw`, `-uuser:pw`, `-su user:pw` (short flags run together), `--user=user:pw`.
    pattern:
      /(\bcurl\b[^\n]{0,500}?[^\S\r\n](?:-[A-Za-z]*u[^\S\r\n]*|--user(?:=|[^\S\r\n]+))["']?[^\s:"']+:)([^\s"']+)/g,
    replace: (match, [prefix, password]) =>
      isPlaceholder(password ?? '') ? match : prefix + marker('basic-auth'),
  },
  {
    id: 'secret-flag',
    kind: 'secret',
    triggers: ['--'],
    pattern: new RegExp(`(--(?!no-)(?:[a-z0-9]+-)*(${FLAG_WORDS})(?:=|[^\\S\\r\\n]+))${VALUE}`, 'gi'),
    replace: (match, [prefix = '', name = '', value = '']) =>
      replaceQuoted(match, prefix, value, kindOfName(name)),
  },
  {
    id: 'password-flag',
    kind: 'password',
    triggers: [
      'mysql',
      'mariadb',
      'sshpass',
      'sqlcmd',
      'bcp',
      'osql',
      'isql',
      'redis-cli',
      'mongo',
      'login',
      'ldap',
      'zip',
      '7z',
      'smbclient',
      'rpcclient',
      'smbmap',
      'openssl',
      'keytool',
      'jarsigner',
      'htpasswd',
    ],
    pattern: new RegExp(
      `(\\b(?:${PASSWORD_FLAGS.map(([commands, flag]) => `(?:${commands})\\b[^\\n|;&]{0,300}?[ \\t]${flag}`).join('|')}))${VALUE}`,
      'g',
    ),
    replace: (match, [prefix = '', value = '']) => replaceQuoted(match, prefix, value, 'password'),
  },
];
