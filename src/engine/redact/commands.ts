/** Passwords and tokens given to commands on their command line. */
import { kindOfName } from './names';
import { type Rule, replaceQuoted } from './rule';
import { isPlaceholder, marker } from './values';

/** A flag's value: quoted, or a word that is not the next flag. */
const VALUE = String.raw`("[^"\r\n]*"|'[^'\r\n]*'|[^\s'"-][^\s'"]*)`;

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
  ['htpasswd', '-[a-zA-Z]*b[a-zA-Z]*[ \\t]+\\S+[ \\t]+\\S+[ \\t]+'],
];

/** Secret words a `--flag` may end in (`--password`, `--db-password`, `--registry-token`). */
const FLAG_WORDS = 'password|passwd|pass|token|secret|api-key|apikey|access-key|secret-key|client-secret';

export const COMMAND_RULES: Rule[] = [
  {
    id: 'curl-user',
    kind: 'basic-auth',
    triggers: ['curl'],
    pattern: /(\bcurl\b[^\n]{0,500}?[^\S\r\n](?:-u|--user)(?:=|[^\S\r\n]+)["']?[^\s:"']+:)([^\s"']+)/g,
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
