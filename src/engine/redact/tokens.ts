/**
 * Tokens recognised by a prefix their issuer gives them, one rule per issuer. The checklist of kinds is the
 * public rule list of secret scanners (gitleaks' config/gitleaks.toml); the patterns are our own, loose on
 * length where issuers have changed formats, and a few ask for random-looking bodies where words share the
 * prefix.
 */
import { type Rule, token } from './ruleShape';
import { looksRandom, mixesCaseAndDigits } from './valueChecks';

const mixedCase = (s: string) => /[A-Z]/.test(s) && /[a-z]/.test(s);
/**
 * `key-` + 32 characters with letters and digits: Mailgun's keys, hex (most) or base 36. A cache key named
 * by a content digest (`restored cache key-<md5>`) shares the shape: the word `cache` before it tells.
 */
const mailgunKey = (s: string, input: string, offset: number) =>
  /[a-z]/.test(s) &&
  /[0-9]/.test(s) &&
  !/\bcache\W{0,3}$/i.test(input.slice(Math.max(0, offset - 10), offset));
/** Base64 of a PEM block: only a private key's is a secret (certificates travel the same way). */
const encodedPrivateKey = (s: string) =>
  Buffer.from(s.slice(0, 64), 'base64').toString('latin1').includes('PRIVATE KEY');

export const TOKEN_RULES: Rule[] = [
  // AI model providers.
  token('anthropic-key', 'anthropic-key', ['sk-ant-'], 'sk-ant-[A-Za-z0-9_-]{20,}', looksRandom),
  token('openrouter-key', 'openrouter-key', ['sk-or-'], 'sk-or-v1-[a-f0-9]{64}'),
  token(
    'openai-key',
    'openai-key',
    ['sk-'],
    'sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}',
    looksRandom,
  ),
  token('groq-key', 'groq-key', ['gsk_'], 'gsk_[A-Za-z0-9]{48,56}'),
  token('xai-key', 'xai-key', ['xai-'], 'xai-[A-Za-z0-9]{70,90}'),
  token('replicate-token', 'replicate-token', ['r8_'], 'r8_[A-Za-z0-9]{37}'),
  token('perplexity-key', 'perplexity-key', ['pplx-'], 'pplx-[A-Za-z0-9]{40,56}'),
  token(
    'huggingface-token',
    'huggingface-token',
    ['hf_', 'api_org_'],
    '(?:hf|api_org)_[A-Za-z0-9]{34}',
    mixedCase,
  ),
  token('langsmith-key', 'langsmith-key', ['lsv2_'], 'lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}'),
  token('pinecone-key', 'pinecone-key', ['pcsk_'], 'pcsk_[A-Za-z0-9_]{50,}'),
  token('tavily-key', 'tavily-key', ['tvly-'], 'tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}'),
  token('firecrawl-key', 'firecrawl-key', ['fc-'], 'fc-[a-f0-9]{32}'),
  token('elevenlabs-key', 'elevenlabs-key', ['sk_'], 'sk_[a-f0-9]{48}'),
  token('aws-bedrock-key', 'aws-bedrock-key', ['absk'], 'ABSK[A-Za-z0-9+/]{100,}={0,2}'),

  // Code hosting, package registries, developer tools.
  token(
    'github-token',
    'github-token',
    ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    'gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,}',
  ),
  token(
    'gitlab-token',
    'gitlab-token',
    [
      'glpat-',
      'gldt-',
      'glptt-',
      'glrt-',
      'glcbt-',
      'glft-',
      'glimt-',
      'glagent-',
      'gloas-',
      'glsoat-',
      'glffct-',
      'gr1348941',
    ],
    '(?:glpat|gldt|glptt|glrt|glcbt|glft|glimt|glagent|gloas|glsoat|glffct)-[A-Za-z0-9_.-]{20,}|GR1348941[A-Za-z0-9_-]{20,}',
  ),
  token('npm-token', 'npm-token', ['npm_'], 'npm_[A-Za-z0-9]{36}'),
  token('pypi-token', 'pypi-token', ['pypi-'], 'pypi-AgE[A-Za-z0-9_-]{50,}'),
  token('rubygems-key', 'rubygems-key', ['rubygems_'], 'rubygems_[a-f0-9]{48}'),
  token('clojars-token', 'clojars-token', ['clojars_'], 'CLOJARS_[a-z0-9]{60}'),
  token('docker-token', 'docker-token', ['dckr_'], 'dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}'),
  token(
    'artifactory-key',
    'artifactory-key',
    ['akcp', 'cmvmdgtu'],
    'AKCp[A-Za-z0-9]{69}|cmVmdGtu[A-Za-z0-9]{56}',
  ),
  token('sourcegraph-token', 'sourcegraph-token', ['sgp_'], 'sgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}'),
  token('figma-token', 'figma-token', ['figd_'], 'figd_[A-Za-z0-9_-]{40,}'),
  token('linear-key', 'linear-key', ['lin_api_', 'lin_oauth_'], 'lin_(?:api|oauth)_[A-Za-z0-9]{40}'),
  token('atlassian-token', 'atlassian-token', ['atatt3'], 'ATATT3[A-Za-z0-9_=-]{100,}'),
  token(
    'notion-token',
    'notion-token',
    ['ntn_', 'secret_'],
    'ntn_[A-Za-z0-9]{40,50}|secret_[A-Za-z0-9]{43}',
    looksRandom,
  ),
  token('postman-key', 'postman-key', ['pmak-'], 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}'),
  token('airtable-token', 'airtable-token', ['pat'], String.raw`pat[A-Za-z0-9]{14}\.[a-f0-9]{64}`),
  token('typeform-token', 'typeform-token', ['tfp_'], 'tfp_[A-Za-z0-9_.=-]{50,}'),
  token('contentful-token', 'contentful-token', ['cfpat-'], 'CFPAT-[A-Za-z0-9_-]{43}'),
  token('frameio-token', 'frameio-token', ['fio-u-'], 'fio-u-[A-Za-z0-9_=-]{64}'),
  token('adobe-secret', 'adobe-secret', ['p8e-'], 'p8e-[A-Za-z0-9]{32}'),
  token('readme-key', 'readme-key', ['rdme_'], 'rdme_[a-z0-9]{70}'),
  token(
    'sentry-token',
    'sentry-token',
    ['sntrys_', 'sntryu_'],
    'sntrys_eyJ[A-Za-z0-9_=+/-]{50,}|sntryu_[a-f0-9]{64}',
  ),
  token(
    'grafana-token',
    'grafana-token',
    ['glc_', 'glsa_'],
    'glc_[A-Za-z0-9+/_-]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}',
  ),
  token(
    'newrelic-key',
    'newrelic-key',
    ['nrak-', 'nrii-', 'nraa-', 'nrjs-'],
    'NR(?:AK|II|AA)-[A-Z0-9]{27}|NRJS-[a-f0-9]{19}',
  ),
  token('prefect-key', 'prefect-key', ['pnu_'], 'pnu_[A-Za-z0-9]{36}'),
  token('infracost-key', 'infracost-key', ['ico-'], 'ico-[A-Za-z0-9]{32}'),

  // Cloud and infrastructure.
  token(
    'aws-access-key-id',
    'aws-access-key-id',
    ['akia', 'asia', 'abia', 'acca'],
    '(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}',
  ),
  token('google-api-key', 'google-api-key', ['aiza'], 'AIza[0-9A-Za-z_-]{35}'),
  token('google-oauth-token', 'google-oauth-token', ['ya29.'], String.raw`ya29\.[A-Za-z0-9_-]{20,}`),
  token('google-oauth-secret', 'google-oauth-secret', ['gocspx-'], 'GOCSPX-[A-Za-z0-9_-]{28}'),
  token('google-refresh-token', 'google-refresh-token', ['1//0'], '1//0[A-Za-z0-9_-]{40,}'),
  token(
    'azure-client-secret',
    'azure-client-secret',
    ['q~'],
    String.raw`[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}`,
  ),
  token(
    'digitalocean-token',
    'digitalocean-token',
    ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    'do[opr]_v1_[a-f0-9]{64}',
  ),
  token('vault-token', 'vault-token', ['hvs.', 'hvb.', 'hvr.'], String.raw`hv[sbr]\.[A-Za-z0-9_-]{24,}`),
  token(
    'terraform-token',
    'terraform-token',
    ['.atlasv1.'],
    String.raw`[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}`,
  ),
  token('pulumi-token', 'pulumi-token', ['pul-'], 'pul-[a-f0-9]{40}'),
  token(
    'doppler-token',
    'doppler-token',
    ['dp.'],
    String.raw`dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}`,
  ),
  token('databricks-token', 'databricks-token', ['dapi'], String.raw`dapi[a-f0-9]{32}(?:-\d)?`),
  token('dynatrace-token', 'dynatrace-token', ['dt0c01.'], String.raw`dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}`),
  token(
    'flyio-token',
    'flyio-token',
    ['fo1_', 'fm1', 'fm2'],
    'fo1_[A-Za-z0-9_-]{40,}|fm[12][ar]?_[A-Za-z0-9+/_-]{50,}={0,3}',
  ),
  token('heroku-key', 'heroku-key', ['hrku-'], 'HRKU-[A-Za-z0-9_-]{60}'),
  token('netlify-token', 'netlify-token', ['nfp_'], 'nfp_[A-Za-z0-9]{36,40}'),
  token('render-key', 'render-key', ['rnd_'], 'rnd_[A-Za-z0-9]{32}'),
  token(
    'supabase-key',
    'supabase-key',
    ['sbp_', 'sb_secret_'],
    'sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,}',
  ),
  token('neon-key', 'neon-key', ['napi_'], 'napi_[a-z0-9]{64}'),
  token(
    'planetscale-token',
    'planetscale-token',
    ['pscale_'],
    'pscale_(?:tkn|pw|oauth)_[A-Za-z0-9=._-]{32,64}',
  ),
  token('tailscale-key', 'tailscale-key', ['tskey-'], 'tskey-[a-z]+-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}'),
  token('cloudflare-ca-key', 'cloudflare-ca-key', ['v1.0-'], String.raw`v1\.0-[a-f0-9]{24}-[a-f0-9]{146}`),
  token('scalingo-token', 'scalingo-token', ['tk-us-'], 'tk-us-[A-Za-z0-9_-]{48}'),
  token('alibaba-key', 'alibaba-key', ['ltai'], 'LTAI[A-Za-z0-9]{12,24}', looksRandom),
  token('yandex-token', 'yandex-token', ['y0_'], 'y0_[A-Za-z0-9_-]{55,60}'),
  token('openshift-token', 'openshift-token', ['sha256~'], 'sha256~[A-Za-z0-9_-]{43}'),
  token('age-secret-key', 'age-secret-key', ['age-secret-key-1'], 'AGE-SECRET-KEY-1[0-9A-Z]{58}'),
  token(
    '1password-token',
    '1password-token',
    ['ops_eyj', 'a3-'],
    'ops_eyJ[A-Za-z0-9+/_-]{100,}={0,3}|A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}',
  ),
  token(
    'base64-private-key',
    'private-key',
    ['ls0tls1crudjtib'],
    'LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}',
    encodedPrivateKey,
  ),

  // Laravel's APP_KEY as `key:generate` prints it and .env holds it: 32 random bytes in base64.
  token('laravel-app-key', 'laravel-app-key', ['base64:'], 'base64:[A-Za-z0-9+/]{43}=', (s) =>
    mixesCaseAndDigits(s.slice('base64:'.length)),
  ),

  // Payments, messaging, e-mail.
  token(
    'stripe-key',
    'stripe-key',
    ['_live_', '_test_', 'whsec_'],
    '(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}',
  ),
  token(
    'square-token',
    'square-token',
    ['eaaa', 'sq0atp-', 'sq0csp-'],
    '(?:EAAA|sq0atp-)[A-Za-z0-9_-]{22,60}|sq0csp-[A-Za-z0-9_-]{43}',
    looksRandom,
  ),
  token('shippo-token', 'shippo-token', ['shippo_'], 'shippo_(?:live|test)_[a-f0-9]{40}'),
  token('easypost-key', 'easypost-key', ['ezak', 'eztk'], 'EZ[AT]K[A-Za-z0-9]{54}'),
  token('duffel-token', 'duffel-token', ['duffel_'], 'duffel_(?:test|live)_[A-Za-z0-9_=-]{43}'),
  token(
    'shopify-token',
    'shopify-token',
    ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}',
  ),
  token('sendgrid-key', 'sendgrid-key', ['sg.'], String.raw`SG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{40,50}`),
  token('mailgun-key', 'mailgun-key', ['key-'], 'key-[0-9a-z]{32}', mailgunKey),
  // Triggered by the data centre (`-us1` to `-us9...`), not by every `-use`: the pattern starts with hex.
  token(
    'mailchimp-key',
    'mailchimp-key',
    ['-us1', '-us2', '-us3', '-us4', '-us5', '-us6', '-us7', '-us8', '-us9'],
    '[0-9a-f]{32}-us[0-9]{1,2}',
  ),
  token('brevo-key', 'brevo-key', ['xkeysib-'], 'xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}'),
  token('resend-key', 'resend-key', ['re_'], 're_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}', looksRandom),
  token('twilio-key', 'twilio-key', ['sk'], 'SK[0-9a-fA-F]{32}'),
  // In API URLs the token follows `bot`: `api.telegram.org/bot<token>/getMe`.
  token('telegram-bot-token', 'telegram-bot-token', [':aa'], '(?:bot)?[0-9]{6,12}:AA[A-Za-z0-9_-]{33}'),
  token(
    'slack-token',
    'slack-token',
    ['xox', 'xapp-'],
    String.raw`xox[abposre]-[0-9][A-Za-z0-9-]{8,}|xoxe\.xox[bp]-1-[A-Za-z0-9-]{100,}|xapp-[0-9]+-[A-Za-z0-9-]{10,}`,
  ),
  token('dropbox-token', 'dropbox-token', ['sl.'], String.raw`sl\.[A-Za-z0-9._-]{130,}`),
  token(
    'mapbox-token',
    'mapbox-token',
    ['sk.eyj'],
    String.raw`sk\.eyJ[A-Za-z0-9_-]{50,}\.[A-Za-z0-9_-]{20,}`,
  ),
  token('jwt', 'jwt', ['eyj'], String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}`),
];
