import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  REDACTION_RULES,
  redactAndCut,
  redactText,
  redactValue,
  secretKeyKind,
} from '../../src/engine/redact';
import {
  ALNUM,
  BASE64,
  DIGITS,
  HEX,
  LOWER,
  UPPER,
  UPPER_DIGITS,
  URL_SAFE,
  charGenerator,
} from '../support/secretCorpus';

/**
 * Fake secrets are assembled at run time (seeded pseudo-random bodies) so that this file holds no literal
 * that a secret scanner would flag, and so each looks like the real thing: mixed case and digits.
 */
const generate = charGenerator(12345);
function fake(length: number, alphabet = ALNUM): string {
  const out = generate(length, alphabet);
  // Guarantee the character classes random keys have in practice.
  if (length < 3) return out;
  if (alphabet === ALNUM || alphabet === BASE64 || alphabet === URL_SAFE) return `A1b${out.slice(3)}`;
  if (alphabet === HEX) return `a1${out.slice(2)}`;
  return out;
}
const base64 = (text: string) => Buffer.from(text).toString('base64');
const pemBody = `${fake(64, BASE64)}\n${fake(64, BASE64)}\n${fake(20, BASE64)}`;
const pem = (label: string) => `-----BEGIN ${label}-----\n${pemBody}\n-----END ${label}-----`;
const jwt = `${base64('{"alg":"HS256","typ":"JWT"}').replace(/=+$/, '')}.eyJ${fake(40, URL_SAFE)}.${fake(43, URL_SAFE)}`;
const awsSecret = fake(40, BASE64);
const akia = `AKIA${fake(16, UPPER_DIGITS)}`;
const password = 'Tr0ub4dor-3x';

/**
 * Per rule id: texts it redacts (`[input, stored]`; a bare string is a token, expected to become the
 * rule's marker in `see <token> here`) and near misses it must leave exactly as they are.
 */
const CASES: Record<string, { positives: Array<string | [string, string]>; negatives: string[] }> = {
  'private-span': {
    positives: [
      ['keep <private>my plan</private> this', 'keep [REDACTED:private] this'],
      ['a <PRIVATE>x\ny</PRIVATE> b', 'a [REDACTED:private] b'],
      ['before <private>never closed', 'before [REDACTED:private]'],
    ],
    negatives: ['see the <privacy> policy', 'a private key is not shown here', '</private> alone'],
  },
  'pem-private-key': {
    positives: [
      [`key:\n${pem('RSA PRIVATE KEY')}\nafter`, 'key:\n[REDACTED:private-key]\nafter'],
      [pem('OPENSSH PRIVATE KEY'), '[REDACTED:private-key]'],
      [pem('PGP PRIVATE KEY BLOCK'), '[REDACTED:private-key]'],
      [`-----BEGIN PRIVATE KEY-----\n${pemBody}`, '[REDACTED:private-key]'],
    ],
    negatives: [pem('PUBLIC KEY'), pem('CERTIFICATE'), 'generate a PRIVATE KEY with openssl genrsa'],
  },
  'putty-private-key': {
    positives: [
      [
        `Public-Lines: 1\nAAAAC3Nza\nPrivate-Lines: 2\n${fake(64, BASE64)}\n${fake(20, BASE64)}\nPrivate-MAC: 00ff`,
        'Public-Lines: 1\nAAAAC3Nza\nPrivate-Lines: 2\n[REDACTED:private-key]Private-MAC: 00ff',
      ],
    ],
    negatives: ['Private-Lines: see the PuTTY manual', 'Public-Lines: 2\nAAAAC3Nza'],
  },
  'kubernetes-secret': {
    positives: [
      [
        'kind: Secret\ndata:\n  password: czNjcjN0\n  api.key: |\n    bGluZTE=\n    bGluZTI=\ntype: Opaque',
        'kind: Secret\ndata:\n  password: [REDACTED:k8s-secret]\n  api.key: |\n    [REDACTED:k8s-secret]\n    [REDACTED:k8s-secret]\ntype: Opaque',
      ],
      [
        '{"kind": "Secret", "data": {"DATABASE_URL": "cG9zdGdyZXM6", "user": "YQ=="}}',
        '{"kind": "Secret", "data": {"DATABASE_URL": "[REDACTED:k8s-secret]", "user": "[REDACTED:k8s-secret]"}}',
      ],
    ],
    negatives: [
      'kind: ConfigMap\ndata:\n  LOG_LEVEL: info',
      'kind: Secret\ndata:\n  password: ""\n---\nkind: ConfigMap\ndata:\n  mode: fast',
      '{"kind": "ConfigMap", "data": {"a": "b"}}',
    ],
  },
  'anthropic-key': {
    positives: [`sk-ant-api03-${fake(93, URL_SAFE)}AA`, `sk-ant-admin01-${fake(93, URL_SAFE)}AA`],
    negatives: ['sk-ant-short', 'the task-ant-colony-simulation-module-name'],
  },
  'openrouter-key': {
    positives: [`sk-or-v1-${fake(64, HEX)}`],
    negatives: ['sk-or-v1-short'],
  },
  'openai-key': {
    positives: [`sk-${fake(48)}`, `sk-proj-${fake(40)}_${fake(40)}-${fake(20)}`, `sk-${fake(32, HEX)}`],
    negatives: [
      'open the task-list-of-very-long-names-for-testing',
      'sk-learn-compatible-estimator-interface',
      'sk-1234567',
      'desk-Abc123Def456Ghi789Jkl012',
    ],
  },
  'groq-key': { positives: [`gsk_${fake(52)}`], negatives: ['gsk_short', `xgsk_${fake(52)}`] },
  'xai-key': { positives: [`xai-${fake(80)}`], negatives: ['xai-grok-model-name'] },
  'replicate-token': { positives: [`r8_${fake(37)}`], negatives: ['r8_short', 'r8_'] },
  'perplexity-key': { positives: [`pplx-${fake(48)}`], negatives: ['pplx-api-docs'] },
  'huggingface-token': {
    positives: [`hf_${fake(34, UPPER + LOWER)}`, `api_org_${fake(34, UPPER + LOWER)}`],
    negatives: ['hf_hub_download_function_for_modelsx', 'hf_transfer'],
  },
  'langsmith-key': { positives: [`lsv2_pt_${fake(32, HEX)}_${fake(10, HEX)}`], negatives: ['lsv2_pt_short'] },
  'pinecone-key': { positives: [`pcsk_${fake(6)}_${fake(60)}`], negatives: ['pcsk_short_id'] },
  'tavily-key': { positives: [`tvly-${fake(32)}`, `tvly-dev-${fake(32)}`], negatives: ['tvly-search'] },
  'firecrawl-key': { positives: [`fc-${fake(32, HEX)}`], negatives: ['fc-module', `fc-${fake(31, HEX)}`] },
  'elevenlabs-key': {
    positives: [`sk_${fake(48, HEX)}`],
    negatives: ['sk_test_mode', `sk_${fake(40, HEX)}`],
  },
  'aws-bedrock-key': { positives: [`ABSK${fake(128, BASE64)}`], negatives: ['ABSK short'] },
  'github-token': {
    positives: [
      `ghp_${fake(36)}`,
      `gho_${fake(36)}`,
      `ghs_${fake(36)}`,
      `github_pat_${fake(22)}_${fake(59)}`,
    ],
    negatives: ['ghp_short', `xghp_${fake(36)}`, 'github_pat_short', `ghx_${fake(36)}`],
  },
  'gitlab-token': {
    positives: [`glpat-${fake(20, URL_SAFE)}`, `glrt-${fake(20, URL_SAFE)}`, `gldt-${fake(20, URL_SAFE)}`],
    negatives: ['glpat-short', 'glpat alone'],
  },
  'npm-token': {
    positives: [`npm_${fake(36)}`],
    negatives: ['npm_config_cache', 'npm_package_version'],
  },
  'pypi-token': {
    positives: [`pypi-AgEIcHlwaS5vcmc${fake(70, URL_SAFE)}`],
    negatives: ['pypi-simple-index'],
  },
  'rubygems-key': { positives: [`rubygems_${fake(48, HEX)}`], negatives: ['rubygems_api_key:'] },
  'clojars-token': { positives: [`CLOJARS_${fake(60, LOWER + DIGITS)}`], negatives: ['CLOJARS_USERNAME'] },
  'docker-token': { positives: [`dckr_pat_${fake(27, URL_SAFE)}`], negatives: ['dckr_pat_'] },
  'artifactory-key': { positives: [`AKCp${fake(69)}`], negatives: ['AKCp short'] },
  'sourcegraph-token': {
    positives: [`sgp_${fake(16, HEX)}_${fake(40, HEX)}`],
    negatives: ['sgp_local_short'],
  },
  'figma-token': { positives: [`figd_${fake(40, URL_SAFE)}`], negatives: ['figd_short'] },
  'linear-key': { positives: [`lin_api_${fake(40)}`], negatives: ['lin_api_docs'] },
  'atlassian-token': { positives: [`ATATT3xFfGF0${fake(180, URL_SAFE)}`], negatives: ['ATATT3 short'] },
  'notion-token': {
    positives: [`ntn_${fake(46)}`, `secret_${fake(43)}`],
    negatives: ['secret_santa_gift_exchange_list_for_the_team_x', 'ntn_short'],
  },
  'postman-key': { positives: [`PMAK-${fake(24, HEX)}-${fake(34, HEX)}`], negatives: ['PMAK-short'] },
  'airtable-token': {
    positives: [`pat${fake(14)}.${fake(64, HEX)}`],
    negatives: ['path.to.module', 'patterns.ts'],
  },
  'typeform-token': { positives: [`tfp_${fake(59, URL_SAFE)}`], negatives: ['tfp_short'] },
  'contentful-token': { positives: [`CFPAT-${fake(43, URL_SAFE)}`], negatives: ['CFPAT-short'] },
  'frameio-token': { positives: [`fio-u-${fake(64, URL_SAFE)}`], negatives: ['fio-u-short'] },
  'adobe-secret': { positives: [`p8e-${fake(32)}`], negatives: ['p8e-short'] },
  'readme-key': { positives: [`rdme_${fake(70, LOWER + DIGITS)}`], negatives: ['rdme_short'] },
  'sentry-token': {
    positives: [`sntrys_eyJ${fake(80, BASE64)}`, `sntryu_${fake(64, HEX)}`],
    negatives: ['sntrys_short'],
  },
  'grafana-token': {
    positives: [`glsa_${fake(32)}_${fake(8, HEX)}`, `glc_${fake(40, BASE64)}`],
    negatives: ['glc_short', 'glsa_'],
  },
  'newrelic-key': { positives: [`NRAK-${fake(27, UPPER_DIGITS)}`], negatives: ['NRAK-short'] },
  'prefect-key': { positives: [`pnu_${fake(36)}`], negatives: ['pnu_short'] },
  'infracost-key': { positives: [`ico-${fake(32)}`], negatives: ['ico-file.png'] },
  'aws-access-key-id': {
    positives: [akia, `ASIA${fake(16, UPPER_DIGITS)}`],
    negatives: [`AKIA${fake(35, UPPER_DIGITS)}`, `AKIA${fake(15, UPPER_DIGITS)}`, 'AKIA alone'],
  },
  'google-api-key': {
    positives: [`AIza${fake(35, URL_SAFE)}`],
    negatives: [`AIza${fake(34)} short by one`, 'AIzaSy is a prefix'],
  },
  'google-oauth-token': { positives: [`ya29.${fake(150, URL_SAFE)}`], negatives: ['ya29.short'] },
  'google-oauth-secret': { positives: [`GOCSPX-${fake(28, URL_SAFE)}`], negatives: ['GOCSPX-short'] },
  'google-refresh-token': { positives: [`1//0${fake(100, URL_SAFE)}`], negatives: ['1//0 short'] },
  'azure-client-secret': {
    positives: [`${fake(3)}8Q~${fake(34, URL_SAFE)}`],
    negatives: ['abc8Q~short', 'home~/Q~x'],
  },
  'digitalocean-token': { positives: [`dop_v1_${fake(64, HEX)}`], negatives: ['dop_v1_short'] },
  'vault-token': { positives: [`hvs.${fake(90, URL_SAFE)}`], negatives: ['hvs.short', 'this.hvs.value'] },
  'terraform-token': {
    positives: [`${fake(14)}.atlasv1.${fake(67, URL_SAFE)}`],
    negatives: ['app.atlasv1.short'],
  },
  'pulumi-token': { positives: [`pul-${fake(40, HEX)}`], negatives: ['pul-request'] },
  'doppler-token': { positives: [`dp.pt.${fake(43)}`], negatives: ['dp.pt.short'] },
  'databricks-token': { positives: [`dapi${fake(32, HEX)}`], negatives: ['dapi-client'] },
  'dynatrace-token': {
    positives: [`dt0c01.${fake(24, UPPER_DIGITS)}.${fake(64, UPPER_DIGITS)}`],
    negatives: ['dt0c01.short'],
  },
  'flyio-token': { positives: [`fo1_${fake(43, URL_SAFE)}`], negatives: ['fo1_short'] },
  'heroku-key': { positives: [`HRKU-AA${fake(58, URL_SAFE)}`], negatives: ['HRKU-short'] },
  'netlify-token': { positives: [`nfp_${fake(40)}`], negatives: ['nfp_short'] },
  'render-key': { positives: [`rnd_${fake(32)}`], negatives: ['rnd_seed', `rnd_${fake(31)}`] },
  'supabase-key': {
    positives: [`sbp_${fake(40, HEX)}`, `sb_secret_${fake(32, URL_SAFE)}`],
    negatives: ['sbp_short'],
  },
  'neon-key': { positives: [`napi_${fake(64, LOWER + DIGITS)}`], negatives: ['napi_create_function'] },
  'planetscale-token': { positives: [`pscale_tkn_${fake(43, URL_SAFE)}`], negatives: ['pscale_tkn_short'] },
  'tailscale-key': { positives: [`tskey-auth-${fake(11)}-${fake(33)}`], negatives: ['tskey-auth-docs'] },
  'cloudflare-ca-key': { positives: [`v1.0-${fake(24, HEX)}-${fake(146, HEX)}`], negatives: ['v1.0-beta'] },
  'scalingo-token': { positives: [`tk-us-${fake(48, URL_SAFE)}`], negatives: ['tk-us-east'] },
  'alibaba-key': { positives: [`LTAI${fake(20)}`], negatives: ['LTAILORED_SUITS_FOR_ALL'] },
  'yandex-token': { positives: [`y0_${fake(58, URL_SAFE)}`], negatives: ['y0_short'] },
  'openshift-token': { positives: [`sha256~${fake(43, URL_SAFE)}`], negatives: ['sha256~short'] },
  'age-secret-key': {
    positives: [`AGE-SECRET-KEY-1${fake(58, UPPER_DIGITS)}`],
    negatives: ['AGE-SECRET-KEY-1 short'],
  },
  '1password-token': {
    positives: [
      `ops_eyJ${fake(250, BASE64)}`,
      `A3-${fake(6, UPPER_DIGITS)}-${fake(11, UPPER_DIGITS)}-${fake(5, UPPER_DIGITS)}-${fake(5, UPPER_DIGITS)}-${fake(5, UPPER_DIGITS)}`,
    ],
    negatives: ['A3-paper size', 'ops_eyJ short'],
  },
  'base64-private-key': {
    positives: [base64(`${pem('RSA PRIVATE KEY')}\n`)],
    negatives: [base64(`${pem('CERTIFICATE')}\n`)],
  },
  'stripe-key': {
    positives: [`sk_live_${fake(24)}`, `rk_live_${fake(24)}`, `sk_test_${fake(24)}`, `whsec_${fake(32)}`],
    negatives: [
      `pk_live_${fake(24)}`,
      'risk_test_cases_for_the_module',
      'sk_test_short',
      `desk_live_${fake(24)}`,
    ],
  },
  'square-token': {
    positives: [`sq0atp-${fake(22, URL_SAFE)}`, `sq0csp-${fake(43, URL_SAFE)}`],
    negatives: ['sq0atp-short'],
  },
  'shippo-token': { positives: [`shippo_live_${fake(40, HEX)}`], negatives: ['shippo_live_short'] },
  'easypost-key': { positives: [`EZAK${fake(54)}`], negatives: ['EZAK short'] },
  'duffel-token': { positives: [`duffel_test_${fake(43, URL_SAFE)}`], negatives: ['duffel_test_short'] },
  'shopify-token': {
    positives: [`shpat_${fake(32, HEX)}`, `shpss_${fake(32, HEX)}`],
    negatives: ['shpat_short'],
  },
  'sendgrid-key': {
    positives: [`SG.${fake(22, URL_SAFE)}.${fake(43, URL_SAFE)}`],
    negatives: ['SG.short.name'],
  },
  'mailgun-key': {
    positives: [`key-${fake(32, LOWER + DIGITS)}`, `key-${fake(32, HEX)}`],
    negatives: [
      'restored cache key-d41d8cd98f00b204e9800998ecf8427e',
      'cache: key-d41d8cd98f00b204e9800998ecf8427e',
      'key-value-store',
      'a key-value store',
      `monkey-${fake(32, HEX)}`,
    ],
  },
  'mailchimp-key': { positives: [`${fake(32, HEX)}-us21`], negatives: ['en-us', 'campaign-us1'] },
  'brevo-key': { positives: [`xkeysib-${fake(64, HEX)}-${fake(16)}`], negatives: ['xkeysib-short'] },
  'resend-key': {
    positives: [`re_${fake(8)}_${fake(24)}`],
    negatives: ['re_match_all_the_things_in_the_file'],
  },
  'twilio-key': {
    positives: [`SK${fake(32, HEX)}`],
    negatives: [`AC${fake(32, HEX)} is an account id`, 'SKIP_THE_TESTS_IN_CI_FOR_NOW_PLEASE'],
  },
  'telegram-bot-token': {
    positives: [
      `${fake(10, DIGITS)}:AA${fake(33, URL_SAFE)}`,
      [
        `https://api.telegram.org/bot123456789:AA${'x'.repeat(33)}/getMe`,
        'https://api.telegram.org/[REDACTED:telegram-bot-token]/getMe',
      ],
    ],
    negatives: ['12:30:45', '123456789:AA'],
  },
  'slack-token': {
    positives: [
      `xoxb-${fake(11, DIGITS)}-${fake(13, DIGITS)}-${fake(24)}`,
      `xoxp-${fake(11, DIGITS)}-${fake(11, DIGITS)}-${fake(32)}`,
      `xapp-1-A${fake(10, UPPER_DIGITS)}-${fake(13, DIGITS)}-${fake(64, HEX)}`,
    ],
    negatives: ['xoxb alone', 'the xoxb-token setting', 'xapp-config'],
  },
  'dropbox-token': { positives: [`sl.${fake(140, URL_SAFE)}`], negatives: ['sl.short', 'rsl.module'] },
  'mapbox-token': {
    positives: [`sk.eyJ${fake(60, URL_SAFE)}.${fake(22, URL_SAFE)}`],
    negatives: ['pk.eyJ public'],
  },
  jwt: {
    positives: [jwt],
    negatives: [base64('{"alg":"HS256"}'), `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0`, 'eyJ alone'],
  },
  'connection-string': {
    positives: [
      [
        'postgres://app:s3cr3tPass@db.example.com:5432/app',
        'postgres://app:[REDACTED:connection-string]@db.example.com:5432/app',
      ],
      [
        'mongodb+srv://admin:Zx9-pass@cluster0.abc.mongodb.net/t',
        'mongodb+srv://admin:[REDACTED:connection-string]@cluster0.abc.mongodb.net/t',
      ],
      ['redis://:redispass@cache:6379/0', 'redis://:[REDACTED:connection-string]@cache:6379/0'],
      [
        'git clone https://bot:tok3n@github.com/o/r.git',
        'git clone https://bot:[REDACTED:connection-string]@github.com/o/r.git',
      ],
      ['postgres://u:p@ss@host/db', 'postgres://u:[REDACTED:connection-string]@host/db'],
      ['cloudinary://123:abcDEF@cloud', 'cloudinary://123:[REDACTED:connection-string]@cloud'],
    ],
    negatives: [
      'postgres://localhost:5432/db',
      'postgres://user@host/db',
      'https://example.com:8080/path@v2',
      'mongodb://${DB_USER}:${DB_PASS}@mongo:27017',
      'git@github.com:org/repo.git',
    ],
  },
  'ado-password': {
    positives: [
      [
        'Server=x;Uid=sa;Pwd=S3cret!;Encrypt=yes',
        'Server=x;Uid=sa;Pwd=[REDACTED:connection-string];Encrypt=yes',
      ],
    ],
    negatives: ['PWD=/home/dev', 'Server=x;Uid=sa;Pwd=;'],
  },
  'azure-storage-key': {
    positives: [
      [
        `AccountName=a;AccountKey=${fake(86, BASE64)}==;EndpointSuffix=core.windows.net`,
        'AccountName=a;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net',
      ],
      [
        `SharedAccessKeyName=Root;SharedAccessKey=${fake(43, BASE64)}=`,
        'SharedAccessKeyName=Root;SharedAccessKey=[REDACTED:azure-storage-key]',
      ],
    ],
    negatives: ['AccountKey=<your-key>', 'AccountKeyVaultName=vault'],
  },
  'azure-sas': {
    positives: [
      [
        `https://a.blob.core.windows.net/c/f?sv=2022-11-02&sp=r&sig=${fake(30)}%2B${fake(10)}%3D`,
        'https://a.blob.core.windows.net/c/f?sv=2022-11-02&sp=r&sig=[REDACTED:azure-sas]',
      ],
    ],
    negatives: ['sig=short', 'the sig=the_signature_of_the_function_here'],
  },
  'slack-webhook': {
    positives: [
      [
        `https://hooks.slack.com/services/T${fake(8, UPPER_DIGITS)}/B${fake(8, UPPER_DIGITS)}/${fake(24)}`,
        'https://hooks.slack.com/services/[REDACTED:slack-webhook]',
      ],
    ],
    negatives: ['https://hooks.slack.com/', 'https://api.slack.com/services/apps'],
  },
  'discord-webhook': {
    positives: [
      [
        `https://discord.com/api/webhooks/123456/${fake(68, URL_SAFE)}`,
        'https://discord.com/api/webhooks/123456/[REDACTED:discord-webhook]',
      ],
    ],
    negatives: ['https://discord.com/api/webhooks/'],
  },
  'teams-webhook': {
    positives: [
      [
        `https://acme.webhook.office.com/webhookb2/${fake(36, HEX)}@${fake(36, HEX)}/IncomingWebhook/${fake(32, HEX)}`,
        'https://acme.webhook.office.com/webhookb2/[REDACTED:teams-webhook]',
      ],
    ],
    negatives: ['https://acme.webhook.office.com/'],
  },
  'authorization-header': {
    positives: [
      ['Authorization: Bearer abc.def-1234567', 'Authorization: Bearer [REDACTED:auth-header]'],
      [
        `curl -H "Authorization: Basic ${base64('admin:hunter22')}" https://x`,
        'curl -H "Authorization: Basic [REDACTED:auth-header]" https://x',
      ],
      ['{"authorization": "token abcdef123456"}', '{"authorization": "token [REDACTED:auth-header]"}'],
      ['Proxy-Authorization: q1w2e3r4t5', 'Proxy-Authorization: [REDACTED:auth-header]'],
    ],
    negatives: [
      'Authorization: Bearer $TOKEN',
      'the Authorization header is required',
      'Authorization: Bearer',
    ],
  },
  'bearer-token': {
    positives: [
      [
        "curl -H 'X-Api: Bearer 0a1b2c3d4e5f6a7b' https://api",
        "curl -H 'X-Api: Bearer [REDACTED:bearer-token]' https://api",
      ],
    ],
    negatives: ['Bearer', 'the bearer of bad news', 'bearer authentication', 'Bearer tokens expire'],
  },
  'basic-credentials': {
    positives: [[`X-Creds: Basic ${base64('admin:hunter22')}`, 'X-Creds: Basic [REDACTED:basic-auth]']],
    negatives: ['Basic Instructions', 'Basic setup guide'],
  },
  cookie: {
    positives: [
      ['Cookie: session=abc123; theme=dark', 'Cookie: session=[REDACTED:cookie]; theme=[REDACTED:cookie]'],
      ['Set-Cookie: sid=xyz789; Path=/; HttpOnly', 'Set-Cookie: sid=[REDACTED:cookie]; Path=/; HttpOnly'],
      ['curl -b "sessionid=q1w2e3" https://x', 'curl -b "sessionid=[REDACTED:cookie]" https://x'],
    ],
    negatives: ['cookie: string;', 'curl -b cookies.txt https://x', 'git checkout -b feature'],
  },
  'curl-user': {
    positives: [
      ['curl -u admin:hunter22 https://x', 'curl -u admin:[REDACTED:basic-auth] https://x'],
      ['curl -s --user bot:pw123 https://x', 'curl -s --user bot:[REDACTED:basic-auth] https://x'],
      ['curl -uadmin:hunter22 https://x', 'curl -uadmin:[REDACTED:basic-auth] https://x'],
      ['curl -sfu admin:hunter22 https://x', 'curl -sfu admin:[REDACTED:basic-auth] https://x'],
    ],
    negatives: [
      'curl -u admin https://x',
      'git push -u origin main',
      'curl -sS https://x:8443/health',
      'curl --user-agent "Agent/1.0" https://x',
    ],
  },
  'secret-flag': {
    positives: [
      ['cli --token abc123', 'cli --token [REDACTED:token]'],
      ['deploy --password S3cret --yes', 'deploy --password [REDACTED:password] --yes'],
      ['mysql --password=hunter2 db', 'mysql --password=[REDACTED:password] db'],
      ['wget --http-password="p w" x', 'wget --http-password="[REDACTED:password]" x'],
    ],
    negatives: [
      'tool --password-file /run/pw',
      '--token $TOKEN',
      'psql --no-password db',
      '--token --verbose',
      'oauth2c --token-type bearer',
      'login --token && next',
    ],
  },
  'password-flag': {
    positives: [
      ['mysql -u root -pS3cret app', 'mysql -u root -p[REDACTED:password] app'],
      ["sshpass -p 'S3cret!' ssh h", "sshpass -p '[REDACTED:password]' ssh h"],
      ['sqlcmd -S db -U sa -P S3cret -Q x', 'sqlcmd -S db -U sa -P [REDACTED:password] -Q x'],
      ['redis-cli -a S3cret ping', 'redis-cli -a [REDACTED:password] ping'],
      ['docker login -u me -p S3cret reg', 'docker login -u me -p [REDACTED:password] reg'],
      [
        'openssl pkcs12 -passout pass:S3cret -out a',
        'openssl pkcs12 -passout pass:[REDACTED:password] -out a',
      ],
      ['keytool -list -storepass S3cret', 'keytool -list -storepass [REDACTED:password]'],
      ['zip -P S3cret a.zip f', 'zip -P [REDACTED:password] a.zip f'],
      ['ldapsearch -x -w S3cret -b dc=x', 'ldapsearch -x -w [REDACTED:password] -b dc=x'],
      ['smbclient //fs/s -U bk%S3cret', 'smbclient //fs/s -U bk%[REDACTED:password]'],
      [
        'htpasswd -b -c /etc/.htpasswd admin S3cret',
        'htpasswd -b -c /etc/.htpasswd admin [REDACTED:password]',
      ],
      ['htpasswd -nbB admin S3cret > users', 'htpasswd -nbB admin [REDACTED:password] > users'],
      ['redis-cli -h cache -a S3cret ping', 'redis-cli -h cache -a [REDACTED:password] ping'],
    ],
    negatives: [
      'mysql -u root -p app',
      'mysql -P 3306 -h db',
      'docker login -u me --password-stdin',
      'ssh -p 2222 host',
      'docker run -p 8080:80 nginx',
      'htpasswd -v .htpasswd admin',
      'redis-cli --askpass ping',
    ],
  },
  pgpass: {
    positives: [
      ['db.example.com:5432:app:app_user:S3cret', 'db.example.com:5432:app:app_user:[REDACTED:password]'],
      ['x\n*:*:*:postgres:pw-123\ny', 'x\n*:*:*:postgres:[REDACTED:password]\ny'],
    ],
    negatives: ['root:x:0:0:root:/root:/bin/bash', 'elapsed 12:30:45:123:456', 'src/a.ts:10:5: error: no'],
  },
  'pgpass-in-command': {
    positives: [
      [
        "echo 'db.example.com:5432:app:admin:S3cret!9' >> ~/.pgpass",
        "echo 'db.example.com:5432:app:admin:[REDACTED:password]' >> ~/.pgpass",
      ],
      [
        'printf "%s\\n" "*:*:*:postgres:pw-123" > "$PGPASSFILE"',
        'printf "%s\\n" "*:*:*:postgres:[REDACTED:password]" > "$PGPASSFILE"',
      ],
    ],
    negatives: [
      'chmod 600 ~/.pgpass  # hostname:port:database:username:password',
      'echo 12:30:45:123:456 >> ~/.pgpass.log',
      "echo 'db:5432:app:admin:$PGPASS' >> ~/.pgpass",
    ],
  },
  netrc: {
    positives: [
      [
        'machine api.example.com login bot password S3cret',
        'machine api.example.com login bot password [REDACTED:password]',
      ],
      ['machine h\n  login u\n  password S3cret', 'machine h\n  login u\n  password [REDACTED:password]'],
    ],
    negatives: ['the machine learning password reset flow', 'default password policy'],
  },
  'password-line': {
    positives: [['  password S3cret-1', '  password [REDACTED:password]']],
    negatives: ['password reset', 'Password Manager'],
  },
  'docker-auth': {
    positives: [
      [
        `{"auths": {"r": {"auth": "${base64('dev:S3cret')}"}}}`,
        '{"auths": {"r": {"auth": "[REDACTED:docker-auth]"}}}',
      ],
    ],
    negatives: ['{"auth": "oauth2"}', '{"auth": "bm90IGEgY3JlZGVudGlhbA=="}'],
  },
  'aws-secret-key-beside-id': {
    positives: [
      [
        `Access key ID,Secret access key\n${akia},${awsSecret}`,
        'Access key ID,Secret access key\n[REDACTED:aws-access-key-id],[REDACTED:aws-secret-key]',
      ],
    ],
    negatives: ['[REDACTED:aws-access-key-id] created by commit 9fceb02d0ae598e95dc970b74767f19372d61af8'],
  },
  'aws-secret-key-alone': {
    positives: [
      [`${awsSecret}\n`, '[REDACTED:aws-secret-key]\n'],
      [`  "${awsSecret}"`, '  "[REDACTED:aws-secret-key]"'],
    ],
    negatives: [
      '9fceb02d0ae598e95dc970b74767f19372d61af8',
      `${'QUJD'.repeat(19)}\n${'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNk'.slice(0, 40)}`,
    ],
  },
  'aws-secret-key': {
    positives: [
      [`aws_secret_access_key = ${awsSecret}`, 'aws_secret_access_key = [REDACTED:aws-secret-key]'],
      [`{"SecretAccessKey": "${awsSecret}"}`, '{"SecretAccessKey": "[REDACTED:aws-secret-key]"}'],
      [
        `aws configure set aws_secret_access_key ${awsSecret}`,
        'aws configure set aws_secret_access_key [REDACTED:aws-secret-key]',
      ],
    ],
    negatives: ['set the aws secret access key in the console', `aws_secret_access_key = ${'x'.repeat(39)}`],
  },
  'secret-assignment': {
    positives: [
      ['DB_PASSWORD=hunter2', 'DB_PASSWORD=[REDACTED:password]'],
      ['"password": "pw1"', '"password": "[REDACTED:password]"'],
      ["passwd: 'x y z'", "passwd: '[REDACTED:password]'"],
      ['{\\"password\\": \\"pw2\\"}', '{\\"password\\": \\"[REDACTED:password]\\"}'],
      ['export GITHUB_TOKEN="abc123"', 'export GITHUB_TOKEN="[REDACTED:token]"'],
      ['GET /cb?access_token=abc123&x=1', 'GET /cb?access_token=[REDACTED:token]&x=1'],
      ["api_key: 'xyz789'", "api_key: '[REDACTED:api-key]'"],
      ['curl -H "X-API-Key: q1w2e3r4"', 'curl -H "X-API-Key: [REDACTED:api-key]"'],
      ['client_secret=abcdef', 'client_secret=[REDACTED:secret]'],
      ["SECRET_KEY = 'django-insecure-k#8z^(x!w@3n'", "SECRET_KEY = '[REDACTED:secret]'"],
      ['APP_KEY=base64:q1w2e3r4t5y6=', 'APP_KEY=[REDACTED:secret]'],
      ['SECRET_KEY_BASE=9f86d081884c7d65', 'SECRET_KEY_BASE=[REDACTED:secret]'],
      ['SMTP_PASS=S3cret MYSQL_PWD=S3cret', 'SMTP_PASS=[REDACTED:password] MYSQL_PWD=[REDACTED:password]'],
      ['{"password": 918273645}', '{"password": [REDACTED:password]}'],
      ['{"password": ["a1", "b2"]}', '{"password": [REDACTED:password]}'],
      ['{"secret": {"value": "q1"}}', '{"secret": [REDACTED:secret]}'],
    ],
    negatives: [
      'Enter your password to continue',
      'password_hint=blue',
      'password: string;',
      'token?: AccessToken;',
      'max_tokens=4096',
      'tokenizer = load()',
      'const token = getToken();',
      'const apiKey = await loadKey();',
      'apiKey: config.apiKey',
      'token=${TOKEN}',
      'PWD=/home/me',
      'secrets: inherit',
      'API_KEY=your-api-key-here',
      'const secret = [1, 2];',
      'id-token: write',
    ],
  },
  'password-in-prose': {
    positives: [
      ['The DB password is S3cret-99.', 'The DB password is [REDACTED:password].'],
      [
        "my password for the admin panel was 'hunter'",
        "my password for the admin panel was '[REDACTED:password]'",
      ],
      [`pw is ${password}`, 'pw is [REDACTED:password]'],
      [`the vpn password's ${password}`, "the vpn password's [REDACTED:password]"],
    ],
    negatives: [
      'The password is required.',
      'the password is at least 12 characters',
      'Your password was changed',
      'the password is Invalid',
      "the password's strength meter",
    ],
  },
  'password-given-in-prose': {
    positives: [
      [`I set my password to ${password} for now`, 'I set my password to [REDACTED:password] for now'],
      [`use the password ${password} on staging.`, 'use the password [REDACTED:password] on staging.'],
      [`log in with password "two words"`, 'log in with password "[REDACTED:password]"'],
    ],
    negatives: [
      'the password reset flow sends a link',
      'use the password manager',
      'set your password to something long',
      'changed the password to match the policy',
      'enter your password again',
      'set the password to $DB_PASS',
    ],
  },
  'config-set': {
    positives: [
      [
        `aws configure set aws_secret_access_key ${awsSecret.slice(0, 20)}`,
        'aws configure set aws_secret_access_key [REDACTED:aws-secret-key]',
      ],
      [
        'aws configure set --profile prod aws_session_token FwoGZXIvYXdz1x',
        'aws configure set --profile prod aws_session_token [REDACTED:token]',
      ],
      [
        'npm config set //npm.example.com/:_authToken 3f2a-91c',
        'npm config set //npm.example.com/:_authToken [REDACTED:token]',
      ],
      ['git config --global github.token gh0Xq', 'git config --global github.token [REDACTED:token]'],
    ],
    negatives: [
      'aws configure set region eu-west-1',
      'aws configure get aws_secret_access_key --profile prod',
      'aws configure set aws_access_key_id --profile prod',
      'git config --global credential.helper store',
      'npm config set //npm.example.com/:_authToken ${NPM_TOKEN}',
      'the config token expires tomorrow',
    ],
  },
  'laravel-app-key': {
    positives: [
      `base64:${fake(43, BASE64)}=`,
      [
        `echo "APP_KEY=base64:${'Ab1'.repeat(14)}c=" >> .env`,
        'echo "APP_KEY=[REDACTED:laravel-app-key]" >> .env',
      ],
    ],
    negatives: [
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADU=',
      `base64:${'a'.repeat(43)}=`,
      'APP_KEY=\nAPP_ENV=local',
    ],
  },
};

function expected(ruleId: string, positive: string | [string, string]): [string, string] {
  if (typeof positive !== 'string') return positive;
  const kind = REDACTION_RULES.find((rule) => rule.id === ruleId)!.kind;
  return [`see ${positive} here`, `see [REDACTED:${kind}] here`];
}

describe('redaction rules', () => {
  for (const [id, { positives, negatives }] of Object.entries(CASES)) {
    test(`${id}: redacts its secrets`, () => {
      for (const positive of positives) {
        const [input, stored] = expected(id, positive);
        const result = redactText(input);
        assert.equal(result.text, stored, `${id}: ${JSON.stringify(input)}`);
        assert.ok(result.count >= 1, `${id}: nothing counted for ${JSON.stringify(input)}`);
        assert.deepEqual(redactText(stored), { text: stored, count: 0 }, `${id}: redacting again changed it`);
      }
    });
    test(`${id}: leaves near misses alone`, () => {
      for (const text of negatives) {
        assert.deepEqual(redactText(text), { text, count: 0 }, `${id}: ${JSON.stringify(text)} was changed`);
      }
    });
  }

  test('every rule has positive and near-miss cases', () => {
    for (const rule of REDACTION_RULES) {
      const cases = CASES[rule.id];
      assert.ok(cases && cases.positives.length > 0 && cases.negatives.length > 0, `no cases for ${rule.id}`);
    }
    assert.deepEqual(
      Object.keys(CASES).filter((id) => !REDACTION_RULES.some((rule) => rule.id === id)),
      [],
      'cases for rules that do not exist',
    );
  });
});

describe('redactText', () => {
  test('counts each secret once, several in one text', () => {
    const ghp = `ghp_${fake(36)}`;
    const { text, count } = redactText(`a ${ghp} b ${akia} c DB_PASSWORD=pw <private>z</private>`);
    assert.equal(count, 4);
    assert.equal(
      text,
      'a [REDACTED:github-token] b [REDACTED:aws-access-key-id] c DB_PASSWORD=[REDACTED:password] [REDACTED:private]',
    );
  });

  test('a token named by an assignment is marked as what it is, once', () => {
    const openai = `sk-${fake(48)}`;
    const { text, count } = redactText(`OPENAI_API_KEY=${openai}\nAuthorization: Bearer ${jwt}`);
    assert.equal(text, 'OPENAI_API_KEY=[REDACTED:openai-key]\nAuthorization: Bearer [REDACTED:jwt]');
    assert.equal(count, 2);
  });

  test('a token right after an escaped newline in JSON text is found', () => {
    const ghp = `ghp_${fake(36)}`;
    assert.equal(redactText(`"line\\n${ghp}"`).text, '"line\\n[REDACTED:github-token]"');
  });

  test('plain text passes through untouched', () => {
    const text = 'Edited src/app.ts: replaced fetchUser() with loadUser(); 12 tests passed in 3.2s';
    assert.deepEqual(redactText(text), { text, count: 0 });
  });

  test('large inputs stay linear (no catastrophic backtracking)', { timeout: 60_000 }, () => {
    const big = [
      'a'.repeat(1_000_000),
      fake(1_000_000, BASE64),
      'password'.repeat(100_000),
      'token=' + 'x'.repeat(500_000),
      'sk-'.repeat(300_000),
      'postgres://' + 'u'.repeat(200_000) + ':' + 'p'.repeat(200_000),
      '-----BEGIN PRIVATE KEY-----'.repeat(20_000),
      'curl '.repeat(100_000),
      'mysql -u '.repeat(100_000),
      `${'a'.repeat(60)}:5432:`.repeat(20_000),
      `${fake(40, BASE64)}\n`.repeat(20_000),
      'kind: Secret\ndata:\n' + '  k: v\n'.repeat(100_000),
      'htpasswd -b '.repeat(100_000),
      'git config --global '.repeat(50_000),
      'aws configure set ' + 'x'.repeat(500_000) + '_token',
      'use the password '.repeat(60_000),
      "set my password's ".repeat(60_000),
      '~/.pgpass ' + 'db:5432:a:'.repeat(100_000),
      'curl -uuuu'.repeat(100_000),
      'base64:'.repeat(100_000),
    ];
    for (const text of big) assert.equal(typeof redactText(text).text, 'string');
  });
});

describe('secretKeyKind', () => {
  test('names that announce a secret', () => {
    const cases: Array<[string, string]> = [
      ['password', 'password'],
      ['db_password', 'password'],
      ['passphrase', 'password'],
      ['DB_PASS', 'password'],
      ['MYSQL_PWD', 'password'],
      ['token', 'token'],
      ['GITHUB_TOKEN', 'token'],
      ['accessToken', 'token'],
      ['Authorization', 'token'],
      ['Cookie', 'token'],
      ['api_key', 'api-key'],
      ['apiKey', 'api-key'],
      ['x-api-key', 'api-key'],
      ['api_keys', 'api-key'],
      ['secret', 'secret'],
      ['client_secret', 'secret'],
      ['access_key', 'secret'],
      ['private_key', 'secret'],
      ['credentials', 'secret'],
      ['APP_KEY', 'secret'],
      ['secret_key_base', 'secret'],
    ];
    for (const [name, kind] of cases) assert.equal(secretKeyKind(name), kind, name);
  });
  test('names that only look like it', () => {
    for (const name of [
      'session_id',
      'tool_use_id',
      'max_tokens',
      'input_tokens',
      'cache_read_input_tokens',
      'tokenizer',
      'password_hint',
      'secretary',
      'keyboard',
      'cwd',
      'PWD',
      'OLDPWD',
      'prompt',
      'auth',
    ]) {
      assert.equal(secretKeyKind(name), undefined, name);
    }
  });
});

describe('redactValue', () => {
  test('walks objects and arrays, redacts key-named secrets, keeps shape and key order', () => {
    const ghp = `ghp_${fake(36)}`;
    const input = {
      session_id: 'abc',
      tool_input: {
        command: `curl -H "Authorization: Bearer ${ghp}" x`,
        env: { GITHUB_TOKEN: 'plain', PWD: '/w' },
      },
      tool_response: [{ text: `key ${akia}` }, 42, null, true],
      usage: { input_tokens: 10, max_tokens: 100 },
      password: 'hunter2',
      apiKey: '${API_KEY}',
      token: '',
    };
    const { value, count, cuts } = redactValue(input);
    assert.deepEqual(value, {
      session_id: 'abc',
      tool_input: {
        command: 'curl -H "Authorization: Bearer [REDACTED:github-token]" x',
        env: { GITHUB_TOKEN: '[REDACTED:token]', PWD: '/w' },
      },
      tool_response: [{ text: 'key [REDACTED:aws-access-key-id]' }, 42, null, true],
      usage: { input_tokens: 10, max_tokens: 100 },
      password: '[REDACTED:password]',
      apiKey: '${API_KEY}',
      token: '',
    });
    assert.deepEqual(Object.keys(value), Object.keys(input));
    assert.equal(count, 4);
    assert.deepEqual(cuts, []);
    assert.equal(input.password, 'hunter2', 'the input is not modified');
  });

  test('a value under a secret-named key is hidden whatever its type; booleans and null stay', () => {
    const input = {
      password: 918273645,
      api_keys: ['k1', 'k2'],
      credentials: { user: 'svc', value: 'v1' },
      token: { value: 't1', expires_in: 3600 },
      secret: true,
      auth_token: null,
      cookies: [],
    };
    const { value, count } = redactValue(input);
    assert.deepEqual(value, {
      password: '[REDACTED:password]',
      api_keys: '[REDACTED:api-key]',
      credentials: '[REDACTED:secret]',
      token: '[REDACTED:token]',
      secret: true,
      auth_token: null,
      cookies: [],
    });
    assert.equal(count, 4);
    assert.deepEqual(redactValue(value).value, value, 'redacting again changes nothing');
  });

  test('a private key sent one line per element (an Edit structuredPatch) is hidden on every line', () => {
    const body = pemBody.split('\n');
    const lines = [
      ' const a = 1;',
      '-old',
      '+-----BEGIN RSA PRIVATE KEY-----',
      ...body.map((l) => `+${l}`),
      '+-----END RSA PRIVATE KEY-----',
      ' tail',
    ];
    const { value, count } = redactValue({ structuredPatch: [{ lines }] });
    const stored = value.structuredPatch[0].lines;
    assert.equal(stored.length, lines.length, 'every line keeps its place');
    assert.deepEqual(stored, [
      ' const a = 1;',
      '-old',
      ...Array.from({ length: body.length + 2 }, () => '+[REDACTED:private-key]'),
      ' tail',
    ]);
    assert.equal(count, 1);
    for (const line of body) assert.ok(!JSON.stringify(value).includes(line.slice(0, 20)));
    assert.deepEqual(redactValue(value).value, value, 'redacting again changes nothing');
  });

  test('a Kubernetes Secret sent one line per element keeps its names and loses its values', () => {
    const lines = [
      '+apiVersion: v1',
      '+kind: Secret',
      '+data:',
      '+  DATABASE_URL: cG9zdGdyZXM6Ly8=',
      '+  tls.key: a2V5',
    ];
    const { value } = redactValue({ lines });
    assert.deepEqual(value.lines, [
      '+apiVersion: v1',
      '+kind: Secret',
      '+data:',
      '+  DATABASE_URL: [REDACTED:k8s-secret]',
      '+  tls.key: [REDACTED:k8s-secret]',
    ]);
  });

  test('a __proto__ key stays an own property', () => {
    const input = JSON.parse('{"__proto__": {"x": 1}, "a": "b"}') as Record<string, unknown>;
    const { value } = redactValue(input);
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.equal(JSON.stringify(value), '{"__proto__":{"x":1},"a":"b"}');
  });

  test('long strings are cut with their original size noted, secrets near the cut included', () => {
    const ghp = `ghp_${fake(36)}`;
    const long = `${'x'.repeat(994)} ${ghp}${'y'.repeat(5000)}`;
    const { value, cuts, count } = redactValue({ out: { text: long } }, { maxStringLength: 1000 });
    const text = (value as { out: { text: string } }).out.text;
    assert.ok(!text.includes(ghp.slice(0, 8)), 'no part of the straddling token is kept');
    assert.match(text, /…\[truncated: 6035 bytes in all\]$/);
    assert.equal(count, 1);
    assert.deepEqual(cuts, [{ path: 'out.text', bytes: 6035, kept: 1000, reason: 'length' }]);
  });

  test('deep nesting is flattened to text at the depth bound, iteratively', () => {
    const ghp = `ghp_${fake(36)}`;
    let deep: unknown = { secret_leaf: 'x', note: `t ${ghp}` };
    for (let i = 0; i < 2000; i++) deep = { child: deep };
    const { value, cuts, count } = redactValue(deep, { maxDepth: 10 });
    let node = value as Record<string, unknown>;
    for (let i = 0; i < 10; i++) node = node.child as Record<string, unknown>;
    assert.equal(typeof node, 'string');
    assert.ok(!(node as unknown as string).includes(ghp));
    assert.equal(cuts.length, 1);
    assert.equal(cuts[0].reason, 'nesting');
    assert.equal(cuts[0].path, Array(10).fill('child').join('.'));
    assert.ok(count >= 1);
  });

  test('paths name odd keys and array indexes unambiguously', () => {
    const { cuts } = redactValue({ 'a b': [{ x: 'z'.repeat(50) }] }, { maxStringLength: 10 });
    assert.equal(cuts[0].path, '["a b"][0].x');
  });
});

describe('redactAndCut', () => {
  test('short text is only redacted', () => {
    assert.deepEqual(redactAndCut(`a ${akia}`, 100), { text: 'a [REDACTED:aws-access-key-id]', count: 1 });
  });
  test('never splits a surrogate pair', () => {
    const { text } = redactAndCut(`${'a'.repeat(9)}😀${'b'.repeat(20)}`, 10);
    assert.ok(text.startsWith('a'.repeat(9) + '…'), text);
  });
});
