/** Names that announce a secret: object keys, variables, settings, headers. */

/**
 * Name endings that announce a secret, as regex source; a name must end with one. Common starts are
 * factored out: the assignment rule searches for this alternation in every text that mentions a secret.
 */
export const SECRET_WORDS = [
  'pass(?:word|wd|phrase)',
  'secret(?:[_-]?key(?:[_-]?base)?)?',
  'token',
  // Framework and service secrets named for what they do: Laravel APP_KEY, Rails SECRET_KEY_BASE and
  // RAILS_MASTER_KEY, Azure's subscription and account keys.
  '(?:api|access|private|auth|app|master|encryption|signing|subscription|account)[_-]?key',
  // DB_PASS, MYSQL_PWD, SMTP_PW: the separator keeps the shell's PWD and OLDPWD out.
  '[_-](?:pass|pwd|pw)',
].join('|');

/** Object keys: the same endings, and a few whose whole value is a credential. */
const SECRET_KEY = new RegExp(
  `(?:${SECRET_WORDS}|authorization|cookies?|credentials?|passwords|secrets|api[_-]?keys)$`,
  'i',
);

/** The marker kind for a secret announced by `name`. */
export function kindOfName(name: string): string {
  const n = name.toLowerCase();
  if (/(?:pass(?:words?|wd|phrase)?|pwd|pw)$/.test(n)) return 'password';
  if (/(?:token|authorization|cookies?)$/.test(n)) return 'token';
  if (/api[_-]?keys?$/.test(n)) return 'api-key';
  return 'secret';
}

/**
 * When an object key's name says its value is a secret (`password`, `apiKey`, `GITHUB_TOKEN`,
 * `client_secret`, `Authorization`, ...), the kind to redact its value as.
 * Names that merely contain such a word (`max_tokens`, `tokenizer`, `password_hint`) are not secrets.
 */
export function secretKeyKind(key: string): string | undefined {
  if (key.length > 100 || !SECRET_KEY.test(key)) return undefined;
  return kindOfName(key);
}
