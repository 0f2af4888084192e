/**
 * Credentials inside URLs and connection strings: the password of `scheme://user:password@host`, ADO
 * `Pwd=`, Azure account keys and SAS signatures, webhook URLs (whose path is the credential).
 */
import { type Rule, afterPrefix } from './ruleShape';
import { isPlaceholder, looksRandom, marker } from './valueChecks';

/** A webhook URL whose secret is its path after `prefix` (regex source, up to the part to hide). */
function webhook(id: string, trigger: string, prefix: string): Rule {
  return {
    id,
    kind: id,
    triggers: [trigger],
    pattern: new RegExp(`(${prefix})[A-Za-z0-9_/+=@-]{8,}`, 'g'),
    replace: (_m, [kept]) => kept + marker(id),
  };
}

export const CONNECTION_RULES: Rule[] = [
  {
    id: 'connection-string',
    kind: 'connection-string',
    triggers: ['://'],
    // Any scheme: the password goes, user and host stay. A password may itself hold an `@`.
    pattern: /\b([a-z][a-z0-9+.-]{1,30}:\/\/[^\s:/?#@'"`]*:)([^\s/?#'"`]+)@(?=[A-Za-z0-9[])/gi,
    replace: (match, [prefix, password]) =>
      isPlaceholder(password ?? '') ? match : `${prefix}${marker('connection-string')}@`,
  },
  {
    id: 'ado-password',
    kind: 'connection-string',
    triggers: ['pwd'],
    // `Server=...;Uid=sa;Pwd=...;` (a bare `PWD=` is the shell's working directory).
    pattern: /(;[ \t]*pwd[ \t]*=[ \t]*)([^;'"\r\n]+)/gi,
    replace: afterPrefix('connection-string'),
  },
  {
    id: 'azure-storage-key',
    kind: 'azure-storage-key',
    triggers: ['accountkey', 'sharedaccesskey'],
    pattern: /((?:AccountKey|SharedAccessKey)[ \t]*=[ \t]*)([A-Za-z0-9+/]{20,}={0,2})/gi,
    replace: afterPrefix('azure-storage-key'),
  },
  {
    id: 'azure-sas',
    kind: 'azure-sas',
    triggers: ['sig='],
    // The signature of a shared access signature URL or token; other query values stay.
    pattern: /(\bsig=)([A-Za-z0-9%+/=_-]{20,})/g,
    replace: (match, [prefix, value]) =>
      /%[0-9A-Fa-f]{2}/.test(value ?? '') || looksRandom(value ?? '') ? prefix + marker('azure-sas') : match,
  },
  webhook(
    'slack-webhook',
    'hooks.slack.com',
    String.raw`https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/`,
  ),
  webhook(
    'discord-webhook',
    'discord',
    String.raw`https?:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/[0-9]+\/`,
  ),
  webhook(
    'teams-webhook',
    'webhook.office.com',
    String.raw`https:\/\/[a-z0-9-]+\.webhook\.office\.com\/webhookb2\/`,
  ),
];
