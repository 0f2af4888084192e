/** Credentials in HTTP headers: Authorization, Bearer and Basic credentials, cookies. */
import type { Rule } from './ruleShape';
import { isBasicCredential, isPlaceholder, marker } from './valueChecks';

/** A header that names its scheme but whose credentials are a variable (`Bearer $TOKEN`). */
const AUTH_SCHEME = /^(?:bearer|basic|token|bot|digest|apikey|negotiate)$/i;

/** Cookie values go, their names stay; in `Set-Cookie` only the first pair is a cookie (then attributes). */
function redactCookies(pairs: string, onlyFirst: boolean): string {
  let seen = 0;
  return pairs.replace(/([^=;\s]+=)([^;]*)/g, (pair, name: string, value: string) => {
    if ((onlyFirst && seen++ > 0) || isPlaceholder(value.trim())) return pair;
    return name + marker('cookie');
  });
}

export const HEADER_RULES: Rule[] = [
  {
    id: 'authorization-header',
    kind: 'auth-header',
    triggers: ['authorization'],
    pattern:
      /\b((?:proxy-)?authorization\\?["']?[^\S\r\n]*[:=][^\S\r\n]*\\?["']?(?:(?:bearer|basic|token|bot|digest|apikey|negotiate)[^\S\r\n]+)?)([A-Za-z0-9._~+/=:-]{6,})/gi,
    replace: (match, [prefix, value]) =>
      isPlaceholder(value ?? '') || AUTH_SCHEME.test(value ?? '') ? match : prefix + marker('auth-header'),
  },
  {
    id: 'bearer-token',
    kind: 'bearer-token',
    triggers: ['bearer'],
    pattern: /\b(bearer[^\S\r\n]+)([A-Za-z0-9._~+/-]{8,}=*)/gi,
    // Prose ("bearer authentication") has no digits and is short.
    replace: (match, [prefix, value = '']) =>
      /[0-9]/.test(value) || value.length >= 24 ? prefix + marker('bearer-token') : match,
  },
  {
    id: 'basic-credentials',
    kind: 'basic-auth',
    triggers: ['basic'],
    pattern: /\b(basic[^\S\r\n]+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/gi,
    // Real Basic credentials are base64 of "user:password".
    replace: (match, [prefix, value]) =>
      isBasicCredential(value ?? '') ? prefix + marker('basic-auth') : match,
  },
  {
    id: 'cookie',
    kind: 'cookie',
    triggers: ['cookie', 'curl'],
    // `Cookie:`/`Set-Cookie:` headers, and curl's `-b`/`--cookie` given pairs rather than a cookie file.
    pattern:
      /\b((set-)?cookie\\?["']?[^\S\r\n]*:[^\S\r\n]*\\?["']?)([^\r\n"'\\]*=[^\r\n"'\\]*)|(\bcurl\b[^\r\n]{0,500}?[^\S\r\n](?:-b|--cookie)[^\S\r\n]+["']?)([^\s"']*=[^\s"']*)/gi,
    replace: (_match, [header, set, pairs, curl, curlPairs]) =>
      pairs !== undefined
        ? `${header}${redactCookies(pairs, set !== undefined)}`
        : `${curl}${redactCookies(curlPairs ?? '', false)}`,
  },
];
