/**
 * A corpus of fake secrets and look-alike non-secrets, for the redaction test and the benchmark.
 *
 * Every secret is assembled at run time from a prefix and generated characters (a seeded generator, so runs
 * agree): no complete realistic secret literal sits in the repository, where push-protection scanners
 * would flag it. Each secret sits in the text it comes in (a config line, a command, an output) and that
 * text is placed in each part of a hook payload that carries text: a Bash command and its stdout, a Write's
 * content, an Edit's `structuredPatch` (one line per array element), a Read's result, a prompt, an MCP
 * result. A few values that are not strings sit under secret-named keys of an MCP call.
 */
import { isDeepStrictEqual } from 'node:util';
import { buildRecord } from '../../src/engine/log/hookRecord';
import { type Payload, hookExample } from './events';

export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const ALNUM = UPPER + LOWER + DIGITS;
export const HEX = '0123456789abcdef';
export const BASE64 = `${ALNUM}+/`;
export const URL_SAFE = `${ALNUM}_-`;
export const UPPER_DIGITS = UPPER + DIGITS;
/** What people put in passwords, minus characters that would end the surrounding syntax. */
const PASSWORD = `${ALNUM}!%^*-_=+.~`;

/** Seeded characters (a 32-bit LCG read from its high bits): runs agree, and no literal is needed. */
export function charGenerator(seed: number): (length: number, alphabet?: string) => string {
  let state = seed >>> 0;
  return (length, alphabet = ALNUM) => {
    let out = '';
    for (let i = 0; i < length; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      out += alphabet[Math.floor((state / 2 ** 32) * alphabet.length)];
    }
    return out;
  };
}

/** Builds one secret, remembering each generated part: what must not survive redaction. */
class Parts {
  readonly parts: string[] = [];
  constructor(private readonly generate: ReturnType<typeof charGenerator>) {}

  chars(length: number, alphabet = ALNUM): string {
    return this.keep(this.plain(length, alphabet));
  }

  /** Generated characters that are no secret (an id beside one). */
  plain(length: number, alphabet = ALNUM): string {
    return this.generate(length, alphabet);
  }

  /** A secret made of what was generated elsewhere (base64 of a credential...). */
  keep(part: string): string {
    this.parts.push(part);
    return part;
  }

  password(length = 14): string {
    return this.chars(length, PASSWORD);
  }
}

export interface FakeSecret {
  /** What kind of secret, for reports. */
  kind: string;
  /** The text the secret arrives in. */
  text: string;
  /** The generated parts that must not be stored, whole or in part. */
  parts: string[];
  /** The text is a command line (a Bash command as it is; other texts are written with a heredoc). */
  command?: boolean;
}

/** A value under a secret-named key of an MCP call that is not a string. */
export interface FakeStructured {
  kind: string;
  input: Payload;
  parts: string[];
}

const pem = (p: Parts, label: string) =>
  [
    `-----BEGIN ${label}-----`,
    ...Array.from({ length: 6 }, () => p.chars(64, BASE64)),
    p.chars(28, BASE64),
    `-----END ${label}-----`,
  ].join('\n');

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** A private key as kubeconfig holds it; its encoded header is no secret (certificates share it). */
function encodedKey(p: Parts): string {
  const encoded = base64(`${pem(p, 'RSA PRIVATE KEY')}\n`);
  p.keep(encoded.slice(48));
  return encoded;
}

/** `[kind, build(parts) -> text, command?]`: the corpus, 60+ kinds. */
const SECRET_SPECS: Array<[string, (p: Parts) => string, boolean?]> = [
  // AI providers.
  [
    'anthropic-key',
    (p) => `curl https://api.anthropic.com/v1/models -H "x-api-key: sk-ant-api03-${p.chars(93, URL_SAFE)}AA"`,
    true,
  ],
  ['anthropic-admin-key', (p) => `admin key in use: sk-ant-admin01-${p.chars(93, URL_SAFE)}AA`],
  ['openai-project-key', (p) => `client = OpenAI("sk-proj-${p.chars(74, URL_SAFE)}")`],
  ['openai-key', (p) => `Found key sk-${p.chars(20)}T3BlbkFJ${p.chars(20)} in the shell history`],
  ['openrouter-key', (p) => `OPENROUTER sk-or-v1-${p.chars(64, HEX)}`],
  ['deepseek-key', (p) => `ds = "sk-${p.chars(32, HEX)}"`],
  ['groq-key', (p) => `groq: gsk_${p.chars(52)}`],
  ['xai-key', (p) => `XAI xai-${p.chars(80)}`],
  ['replicate-token', (p) => `replicate r8_${p.chars(37)}`],
  ['perplexity-key', (p) => `pplx-${p.chars(48)}`],
  ['huggingface-token', (p) => `HF access: hf_${p.chars(34, UPPER + LOWER)}`],
  ['huggingface-org-token', (p) => `org api_org_${p.chars(34, UPPER + LOWER)}`],
  ['langsmith-key', (p) => `LANGCHAIN lsv2_pt_${p.chars(32, HEX)}_${p.chars(10, HEX)}`],
  ['pinecone-key', (p) => `pc = Pinecone("pcsk_${p.chars(6)}_${p.chars(60)}")`],
  ['tavily-key', (p) => `tvly-${p.chars(32)}`],
  ['firecrawl-key', (p) => `FirecrawlApp("fc-${p.chars(32, HEX)}")`],
  ['elevenlabs-key', (p) => `voice client sk_${p.chars(48, HEX)}`],
  ['aws-bedrock-key', (p) => `bedrock ABSK${p.chars(128, BASE64)}`],
  // Code hosting, registries, developer tools.
  [
    'github-token',
    (p) => `git remote set-url origin https://ghp_${p.chars(36)}@github.com/acme/app.git`,
    true,
  ],
  ['github-fine-grained-token', (p) => `github_pat_${p.chars(22)}_${p.chars(59)}`],
  [
    'github-oauth-token',
    (p) => `github.com\n  ✓ Logged in to github.com account dev\n  - Token: gho_${p.chars(36)}`,
  ],
  [
    'gitlab-token',
    (p) => `curl --header "PRIVATE-TOKEN: glpat-${p.chars(20, URL_SAFE)}" https://gitlab.com/api/v4/projects`,
    true,
  ],
  [
    'gitlab-runner-token',
    (p) => `gitlab-runner register --url https://gitlab.com --token glrt-${p.chars(20, URL_SAFE)}`,
    true,
  ],
  ['npm-token', (p) => `//registry.npmjs.org/:_authToken=npm_${p.chars(36)}`],
  [
    'pypi-token',
    (p) => `twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmc${p.chars(70, URL_SAFE)} dist/*`,
    true,
  ],
  ['rubygems-key', (p) => `---\n:rubygems_api_key: rubygems_${p.chars(48, HEX)}`],
  [
    'docker-token',
    (p) => `echo dckr_pat_${p.chars(27, URL_SAFE)} | docker login -u dev --password-stdin`,
    true,
  ],
  [
    'docker-auth',
    (p) => `{"auths": {"https://index.docker.io/v1/": {"auth": "${p.keep(base64(`dev:${p.password()}`))}"}}}`,
  ],
  ['artifactory-key', (p) => `X-JFrog-Art-Api AKCp${p.chars(69)}`],
  ['sourcegraph-token', (p) => `SRC sgp_${p.chars(16, HEX)}_${p.chars(40, HEX)}`],
  ['figma-token', (p) => `figd_${p.chars(40, URL_SAFE)}`],
  ['linear-key', (p) => `linear: lin_api_${p.chars(40)}`],
  ['atlassian-token', (p) => `jira ATATT3xFfGF0${p.chars(180, URL_SAFE)}`],
  ['notion-token', (p) => `notion = Client(auth="ntn_${p.chars(46)}")`],
  ['postman-key', (p) => `PMAK-${p.chars(24, HEX)}-${p.chars(34, HEX)}`],
  ['airtable-token', (p) => `airtable pat${p.chars(14)}.${p.chars(64, HEX)}`],
  ['sentry-token', (p) => `sentry-cli --auth sntrys_eyJ${p.chars(80, BASE64)}_${p.chars(43, BASE64)}`],
  ['grafana-token', (p) => `grafana glsa_${p.chars(32)}_${p.chars(8, HEX)}`],
  ['newrelic-key', (p) => `NRAK-${p.chars(27, UPPER_DIGITS)}`],
  ['databricks-token', (p) => `databricks dapi${p.chars(32, HEX)}`],
  ['doppler-token', (p) => `doppler dp.pt.${p.chars(43)}`],
  [
    'terraform-token',
    (p) => `credentials "app.terraform.io" {\n  token = "${p.chars(14)}.atlasv1.${p.chars(67, URL_SAFE)}"\n}`,
  ],
  ['pulumi-token', (p) => `pulumi login: pul-${p.chars(40, HEX)}`],
  ['typeform-token', (p) => `tfp_${p.chars(59, URL_SAFE)}`],
  ['contentful-token', (p) => `CFPAT-${p.chars(43, URL_SAFE)}`],
  ['prefect-key', (p) => `prefect cloud login -k pnu_${p.chars(36)}`, true],
  ['readme-key', (p) => `rdme_${p.chars(70, LOWER + DIGITS)}`],
  // Cloud and infrastructure.
  [
    'aws-access-key-csv',
    (p) => `Access key ID,Secret access key\nAKIA${p.chars(16, UPPER_DIGITS)},${p.chars(40, BASE64)}\n`,
  ],
  ['aws-secret-key-output', (p) => `${p.chars(40, BASE64)}\n`],
  [
    'aws-credentials-file',
    (p) =>
      `[default]\naws_access_key_id = AKIA${p.chars(16, UPPER_DIGITS)}\naws_secret_access_key = ${p.chars(40, BASE64)}\naws_session_token = ${p.chars(300, BASE64)}`,
  ],
  [
    'azure-storage-key',
    (p) =>
      `DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey=${p.chars(86, BASE64)}==;EndpointSuffix=core.windows.net`,
  ],
  [
    'azure-sas',
    (p) =>
      `https://acmestore.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-01-01T00:00:00Z&spr=https&sig=${p.chars(20)}%2B${p.chars(12)}%2F${p.chars(9)}%3D`,
  ],
  [
    'azure-service-bus-key',
    (p) =>
      `Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${p.chars(43, BASE64)}=`,
  ],
  [
    'azure-client-secret',
    (p) => `az login --service-principal -u app-id --tenant t ${p.chars(3)}8Q~${p.chars(34, URL_SAFE)}`,
    true,
  ],
  [
    'google-api-key',
    (p) => `https://maps.googleapis.com/maps/api/geocode/json?address=x&key=AIza${p.chars(35, URL_SAFE)}`,
  ],
  ['google-oauth-token', (p) => `ya29.${p.chars(150, URL_SAFE)}\n`],
  [
    'google-oauth-secret',
    (p) =>
      `{"installed": {"client_id": "123-abc.apps.googleusercontent.com", "client_secret": "GOCSPX-${p.chars(28, URL_SAFE)}"}}`,
  ],
  ['google-refresh-token', (p) => `refresh: 1//0${p.chars(100, URL_SAFE)}`],
  [
    'gcp-service-account-key',
    (p) => `{"type": "service_account", "private_key": "${pem(p, 'PRIVATE KEY').replace(/\n/g, '\\n')}\\n"}`,
  ],
  ['digitalocean-token', (p) => `doctl auth init -t dop_v1_${p.chars(64, HEX)}`, true],
  ['vault-token', (p) => `vault login hvs.${p.chars(90, URL_SAFE)}`, true],
  ['heroku-key', (p) => `heroku HRKU-AA${p.chars(58, URL_SAFE)}`],
  ['netlify-token', (p) => `netlify deploy --auth nfp_${p.chars(40)}`, true],
  ['supabase-token', (p) => `supabase login --token sbp_${p.chars(40, HEX)}`, true],
  ['planetscale-token', (p) => `pscale_tkn_${p.chars(43, URL_SAFE)}`],
  ['tailscale-key', (p) => `tailscale up --authkey tskey-auth-${p.chars(11)}-${p.chars(33)}`, true],
  ['cloudflare-origin-ca-key', (p) => `v1.0-${p.chars(24, HEX)}-${p.chars(146, HEX)}`],
  ['alibaba-key', (p) => `aliyun LTAI${p.chars(20)}`],
  ['flyio-token', (p) => `fly fo1_${p.chars(43, URL_SAFE)}`],
  ['age-secret-key', (p) => `# created: 2025-01-01\nAGE-SECRET-KEY-1${p.chars(58, UPPER_DIGITS)}`],
  ['1password-token', (p) => `OP ops_eyJ${p.chars(250, BASE64)}`],
  [
    'kubeconfig-client-key',
    (p) =>
      `users:\n- name: admin\n  user:\n    client-certificate-data: ${base64('-----BEGIN CERTIFICATE-----\nMIIB\n')}\n    client-key-data: ${encodedKey(p)}`,
  ],
  [
    'kubernetes-secret',
    (p) =>
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n  DATABASE_URL: ${p.keep(base64(`postgres://app:${p.password()}@db/app`))}\n  tls.crt: ${base64('cert')}\nstringData:\n  webhook: ${p.chars(32)}`,
  ],
  [
    'kubernetes-secret-json',
    (p) =>
      `{\n  "apiVersion": "v1",\n  "kind": "Secret",\n  "data": {\n    "smtp": "${p.keep(base64(p.password()))}"\n  }\n}`,
  ],
  // Payments, messaging, e-mail.
  ['stripe-key', (p) => `Stripe.api_key = sk_live_${p.chars(24)}`],
  ['stripe-webhook-secret', (p) => `whsec_${p.chars(32)}`],
  ['square-token', (p) => `square sq0atp-${p.chars(22, URL_SAFE)}`],
  ['shopify-token', (p) => `X-Shopify-Access-Token shpat_${p.chars(32, HEX)}`],
  ['sendgrid-key', (p) => `sg = SendGridAPIClient("SG.${p.chars(22, URL_SAFE)}.${p.chars(43, URL_SAFE)}")`],
  ['mailgun-key', (p) => `MAILGUN = "key-${p.chars(32, LOWER + DIGITS)}"`],
  [
    'mailgun-hex-key',
    (p) => `const mg = mailgun.client({ username: 'api', key: 'key-${p.chars(32, HEX)}' });`,
  ],
  ['mailchimp-key', (p) => `mailchimp ${p.chars(32, HEX)}-us21`],
  ['twilio-key', (p) => `twilio SK${p.chars(32, HEX)}`],
  ['twilio-auth-token', (p) => `export TWILIO_AUTH_TOKEN=${p.chars(32, HEX)}`],
  [
    'telegram-bot-token',
    (p) => `curl https://api.telegram.org/bot${p.chars(10, DIGITS)}:AA${p.chars(33, URL_SAFE)}/getMe`,
    true,
  ],
  ['slack-bot-token', (p) => `SLACK xoxb-${p.chars(12, DIGITS)}-${p.chars(13, DIGITS)}-${p.chars(24)}`],
  [
    'slack-webhook',
    (p) =>
      `https://hooks.slack.com/services/T${p.chars(8, UPPER_DIGITS)}/B${p.chars(8, UPPER_DIGITS)}/${p.chars(24)}`,
  ],
  [
    'discord-webhook',
    (p) => `https://discord.com/api/webhooks/${p.plain(18, DIGITS)}/${p.chars(68, URL_SAFE)}`,
  ],
  [
    'teams-webhook',
    (p) =>
      `https://acme.webhook.office.com/webhookb2/${p.chars(36, HEX)}@${p.chars(36, HEX)}/IncomingWebhook/${p.chars(32, HEX)}/${p.chars(36, HEX)}`,
  ],
  ['brevo-key', (p) => `xkeysib-${p.chars(64, HEX)}-${p.chars(16)}`],
  ['resend-key', (p) => `resend re_${p.chars(8)}_${p.chars(24)}`],
  ['dropbox-token', (p) => `dropbox sl.${p.chars(140, URL_SAFE)}`],
  ['mapbox-token', (p) => `mapbox sk.eyJ${p.chars(60, URL_SAFE)}.${p.chars(22, URL_SAFE)}`],
  // HTTP credentials.
  [
    'bearer-token',
    (p) => `curl -H "Authorization: Bearer ${p.chars(40, URL_SAFE)}" https://api.example.com/v1/me`,
    true,
  ],
  ['basic-credentials', (p) => `Authorization: Basic ${p.keep(base64(`svc:${p.password()}`))}`],
  ['api-key-header', (p) => `curl -H "X-API-Key: ${p.chars(32)}" https://api.example.com/items`, true],
  [
    'cookie',
    (p) =>
      `curl -b "sessionid=${p.chars(32, LOWER + DIGITS)}; csrftoken=${p.chars(32)}" https://app.example.com/`,
    true,
  ],
  [
    'set-cookie',
    (p) => `HTTP/1.1 200 OK\nSet-Cookie: session=${p.chars(40, URL_SAFE)}; Path=/; HttpOnly; Secure`,
  ],
  [
    'jwt',
    (p) =>
      `this token fails: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${p.chars(60, URL_SAFE)}.${p.chars(43, URL_SAFE)}`,
  ],
  // Passwords.
  ['postgres-url', (p) => `DATABASE_URL postgres://app:${p.chars(16, `${ALNUM}-_.~`)}@db.internal:5432/app`],
  [
    'mongodb-url',
    (p) => `mongosh "mongodb+srv://admin:${p.chars(16, `${ALNUM}-_.~`)}@cluster0.abcde.mongodb.net/test"`,
    true,
  ],
  [
    'ado-connection-string',
    (p) => `Server=tcp:acme.database.windows.net;Database=app;Uid=sa;Pwd=${p.password()};Encrypt=yes;`,
  ],
  ['mysql-password-flag', (p) => `mysql -u root -p${p.password()} app < dump.sql`, true],
  ['sshpass', (p) => `sshpass -p '${p.password()}' ssh deploy@10.0.0.5 uptime`, true],
  ['sqlcmd-password', (p) => `sqlcmd -S localhost -U sa -P ${p.password()} -Q "SELECT 1"`, true],
  ['redis-password', (p) => `redis-cli -h cache -a ${p.password()} ping`, true],
  ['docker-login-password', (p) => `docker login -u dev -p ${p.password()} registry.example.com`, true],
  [
    'openssl-passout',
    (p) => `openssl pkcs12 -export -in cert.pem -inkey key.pem -passout pass:${p.password()} -out cert.p12`,
    true,
  ],
  ['keytool-storepass', (p) => `keytool -list -keystore app.jks -storepass ${p.password()}`, true],
  ['zip-password', (p) => `zip -r -P ${p.password()} backup.zip data/`, true],
  [
    'ldap-password',
    (p) => `ldapsearch -x -D cn=admin,dc=acme,dc=org -w ${p.password()} -b dc=acme,dc=org`,
    true,
  ],
  ['smbclient-password', (p) => `smbclient //fs/share -U backup%${p.password()} -c ls`, true],
  ['curl-user', (p) => `curl -u admin:${p.password()} https://ci.example.com/api/json`, true],
  ['curl-user-attached', (p) => `curl -sfuadmin:${p.password()} https://ci.example.com/api/json`, true],
  [
    'mysql-password-spaced',
    (p) => `mysqldump --password ${p.password()} --single-transaction app > app.sql`,
    true,
  ],
  ['psql-url', (p) => `psql postgresql://admin:${p.password()}@db.example.com:5432/app -c 'select 1'`, true],
  ['pgpassword', (p) => `PGPASSWORD=${p.password()} pg_dump -h db.example.com -U admin app > app.sql`, true],
  ['token-flag-spaced', (p) => `./deploy.sh --env prod --token ${p.chars(32, HEX)} --yes`, true],
  [
    'aws-configure-set',
    (p) =>
      `aws configure set aws_access_key_id AKIA${p.chars(16, UPPER_DIGITS)} && aws configure set aws_secret_access_key ${p.chars(40, BASE64)}`,
    true,
  ],
  [
    'aws-configure-set-session-token',
    (p) => `aws configure set --profile prod aws_session_token ${p.chars(300, BASE64)}`,
    true,
  ],
  [
    'npm-config-set-token',
    (p) =>
      `npm config set //npm.pkg.example.com/:_authToken ${p.chars(8, HEX)}-${p.chars(4, HEX)}-${p.chars(4, HEX)}-${p.chars(4, HEX)}-${p.chars(12, HEX)}`,
    true,
  ],
  [
    'htpasswd-batch',
    (p) => `htpasswd -b -c /etc/nginx/.htpasswd admin ${p.password()} && nginx -s reload`,
    true,
  ],
  ['htpasswd-stdout', (p) => `htpasswd -nbB admin ${p.password()} > users.txt`, true],
  [
    'pgpass-in-command',
    (p) => `echo 'db.example.com:5432:app:admin:${p.password()}' >> ~/.pgpass && chmod 600 ~/.pgpass`,
    true,
  ],
  [
    'http-password-flag',
    (p) => `wget --user=ci --http-password=${p.password()} https://repo.example.com/a.tar.gz`,
    true,
  ],
  ['pass-variable', (p) => `export SMTP_PASS=${p.password()}\nexport MYSQL_PWD='${p.password()}'`],
  [
    'pgpass',
    (p) =>
      `db.example.com:5432:app:app_user:${p.chars(16, `${ALNUM}!%^*-_=+.~`)}\n*:*:*:postgres:${p.password()}`,
  ],
  [
    'netrc',
    (p) =>
      `machine api.example.com\n  login bot\n  password ${p.password()}\nmachine ftp.example.com login anon password ${p.password()}`,
  ],
  ['password-in-prose', (p) => `The staging DB password is ${p.password()} until we rotate it.`],
  ['password-in-prose-quoted', (p) => `my password for the admin panel was '${p.password()}'`],
  ['password-in-prose-colon', (p) => `my password: ${p.password()}`],
  ['password-in-prose-set', (p) => `I set my password to ${p.password()} for now, will change it later`],
  [
    'password-in-prose-use',
    (p) => `Log in as admin and use the password ${p.password()} on the staging box.`,
  ],
  ['password-in-prose-possessive', (p) => `fyi the vpn password's ${p.password()}`],
  // Framework and application secrets.
  ['laravel-app-key', (p) => `APP_NAME=Acme\nAPP_KEY=base64:${p.chars(43, BASE64)}=\nAPP_DEBUG=false`],
  ['laravel-app-key-command', (p) => `echo "APP_KEY=base64:${p.chars(43, BASE64)}=" >> .env`, true],
  [
    'laravel-key-generate',
    (p) =>
      `php artisan key:generate\n\n   INFO  Application key [base64:${p.chars(43, BASE64)}=] set successfully.`,
  ],
  ['rails-secret-key-base', (p) => `SECRET_KEY_BASE=${p.chars(128, HEX)}`],
  [
    'django-secret-key',
    (p) => `SECRET_KEY = 'django-insecure-${p.chars(50, `${LOWER + DIGITS}!@#$%^&*(-_=+)`)}'`,
  ],
  ['flask-secret-key', (p) => `app.secret_key = "${p.chars(32)}"`],
  ['json-password-number', (p) => `{"user": "svc", "password": ${p.chars(9, DIGITS)}}`],
  ['json-password-array', (p) => `{"password": ["${p.password()}", "${p.password()}"]}`],
  ['json-secret-object', (p) => `{"secret": {"value": "${p.chars(32)}", "version": 3}}`],
  ['private-span', (p) => `note: <private>${p.chars(12, LOWER)} ${p.chars(10, LOWER)}</private> and more`],
  // Private keys.
  ['rsa-private-key', (p) => pem(p, 'RSA PRIVATE KEY')],
  ['openssh-private-key', (p) => pem(p, 'OPENSSH PRIVATE KEY')],
  ['ec-private-key', (p) => pem(p, 'EC PRIVATE KEY')],
  ['pkcs8-private-key', (p) => `key material follows\n${pem(p, 'PRIVATE KEY')}\nend of file`],
  ['pgp-private-key', (p) => pem(p, 'PGP PRIVATE KEY BLOCK')],
  [
    'putty-private-key',
    (p) =>
      `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: dev\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIF3\nx2Q\nPrivate-Lines: 1\n${p.chars(44, BASE64)}\nPrivate-MAC: ${'0'.repeat(64)}`,
  ],
];

const STRUCTURED_SPECS: Array<[string, (p: Parts) => Payload]> = [
  ['password-number', (p) => ({ host: 'db', password: Number(`9${p.chars(8, DIGITS)}`) })],
  ['api-keys-array', (p) => ({ api_keys: [p.chars(32), p.chars(32)] })],
  ['credentials-object', (p) => ({ credentials: { user: 'svc', value: p.chars(24) } })],
  ['token-object', (p) => ({ token: { value: p.chars(40), expires_in: 3600 } })],
];

function build<T>(seed: number, make: (p: Parts) => T): { value: T; parts: string[] } {
  const parts = new Parts(charGenerator(seed));
  const value = make(parts);
  return { value, parts: parts.parts };
}

export const SECRETS: FakeSecret[] = SECRET_SPECS.map(([kind, make, command], index) => {
  const { value, parts } = build(1000 + index, make);
  return { kind, text: value, parts, ...(command ? { command } : {}) };
});

export const STRUCTURED_SECRETS: FakeStructured[] = STRUCTURED_SPECS.map(([kind, make], index) => {
  const { value, parts } = build(5000 + index, make);
  return { kind, input: value, parts };
});

/** Texts that look like secrets but are not: they must be stored exactly as they are. */
export const NON_SECRETS: Array<[string, string]> = [
  [
    'git-log',
    'commit 3f786850e387550fdab836ed7e6dc881de23001b\nAuthor: Dev <dev@example.com>\n\n    Fix the parser',
  ],
  ['git-rev-parse', '9fceb02d0ae598e95dc970b74767f19372d61af8\n'],
  ['git-oneline', 'a1b2c3d Fix login\ne4f5a6b Add tests\n'],
  [
    'uuid',
    'request 123e4567-e89b-42d3-a456-426614174000 failed; retry id 9b2f4c1e-7d3a-4e8b-9c6f-0a1b2c3d4e5f',
  ],
  ['sha256sum', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  node-v20.tar.gz'],
  ['npm-integrity', `"integrity": "sha512-${'Zm9vYmFyYmF6'.repeat(7)}Q9x2w=="`],
  ['docker-digest', 'node@sha256:2b436f8c6f1e0d4a1c9a6b1f6b0e1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b'],
  [
    'data-uri-image',
    `<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk${'+P+/HgAFhAJ/wlseKgAAAABJRU5ErkJggg'.repeat(40)}==">`,
  ],
  [
    'wrapped-base64',
    `${Array.from({ length: 5 }, (_, i) => `QWxhZGRpbjpvcGVuIHNlc2FtZQ${i}ZZhbmRvbSBiYXNlNjQgZGF0YSBmb3IgYSB0ZXN0IG9mIHdyYXBwaW5nIGEx`).join('\n')}\nQ29udGludWVkIGRhdGEgZW5kcyBoZXJlIG5vdzE3Mg==`,
  ],
  [
    'aws-arn',
    'arn:aws:iam::123456789012:role/service-role/AcmeLambdaRole and arn:aws:s3:::acme-bucket/logs/*',
  ],
  ['s3-url', 's3://acme-backups/2025/01/01/db.sql.gz'],
  ['token-from-call', 'const token = getToken();\nconst apiKey = await loadApiKey(config);'],
  ['password-type', 'interface Login {\n  user: string;\n  password: string;\n  token?: AccessToken;\n}'],
  ['env-reference', 'const key = process.env.GITHUB_TOKEN ?? process.env.NPM_TOKEN;'],
  ['workflow-secret', 'env:\n  NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n  API_KEY: ${{ secrets.API_KEY }}'],
  ['django-env-secret', 'SECRET_KEY = os.environ["SECRET_KEY"]\nDEBUG = False'],
  ['shell-pwd', 'PWD=/home/dev/project\nOLDPWD=/tmp\nSHLVL=1'],
  ['max-tokens', '{"model": "claude-sonnet-4", "max_tokens": 4096, "input_tokens": 1200}'],
  ['password-hint', 'password_hint: "first pet"\npassword_min_length: 12'],
  [
    'password-prose',
    'Enter your password to continue. The password is required and must be at least 12 characters.',
  ],
  ['password-heading', '## Password reset\nUsers can reset their password from the settings page.'],
  ['bearer-prose', 'Bearer tokens expire after an hour; use the refresh token flow.'],
  [
    'ssh-public-key',
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE dev@laptop',
  ],
  [
    'public-key-pem',
    `-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEVs/o5+uQbTjL3chynL4wXgUg2R9\nq9UU8I5mEovUf86QZ7kOBIjJwqnzD1omageEHWwHdBO6B+dFabmdT9POxg==\n-----END PUBLIC KEY-----`,
  ],
  ['certificate', '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUAbCdEfGh\n-----END CERTIFICATE-----'],
  [
    'configmap',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  LOG_LEVEL: info\n  FEATURE_FLAGS: "a,b,c"',
  ],
  [
    'kubeconfig-ca',
    `clusters:\n- cluster:\n    certificate-authority-data: ${Buffer.from('-----BEGIN CERTIFICATE-----\nMIIC5zCCAc+gAwIBAgIBADANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJlcm5ldGVz\n').toString('base64')}\n    server: https://10.0.0.1:6443`,
  ],
  ['etc-passwd', 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin'],
  ['times', 'elapsed 12:30:45:123:456 since start\n2025-01-01T10:00:00Z INFO server listening on :8080'],
  ['ipv6', 'inet6 fe80::1ff:fe23:4567:890a/64 scope link'],
  ['versions', '"dependencies": {"react": "^18.3.1", "typescript": "5.6.3"}'],
  ['css-colors', '.panel { color: #1e1e1e; background: #fafafa; border: 1px solid #d4d4d4; }'],
  ['go-sum', 'github.com/google/uuid v1.6.0 h1:NIvaJDMOsjHA8n1jAhLSgzrAzy1Hgr+hNrb57e+94F0='],
  [
    'yarn-checksum',
    `  checksum: ${'9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'.repeat(2)}`,
  ],
  ['stripe-publishable-key', 'Stripe("pk_live_51HxYzAbCdEfGhIjKlMnOpQr")'],
  ['sentry-dsn', 'dsn: "https://0123456789abcdef0123456789abcdef@o123456.ingest.sentry.io/1234567"'],
  ['analytics-id', "gtag('config', 'G-ABC123XYZ9');"],
  [
    'sklearn-prose',
    'pip install scikit-learn; the sk-learn-compatible estimator and the task-list-of-items module',
  ],
  ['git-branch', 'git push -u origin main && git checkout -b feature/login-page'],
  ['mysql-prompt', 'mysql -u root -p app_db'],
  ['docker-login-stdin', 'cat token.txt | docker login -u dev --password-stdin ghcr.io'],
  ['curl-user-only', 'curl -u admin https://ci.example.com/api/json'],
  ['tsc-error', "src/auth/session.ts(10,5): error TS2322: Type 'string' is not assignable to type 'number'."],
  [
    'eslint-output',
    "/w/p/src/token.ts\n  10:5  error  'refreshToken' is assigned a value but never used  no-unused-vars",
  ],
  ['jest-summary', 'Tests:       12 passed, 12 total\nSnapshots:   0 total\nTime:        3.2 s'],
  [
    'stack-trace',
    'java.lang.IllegalStateException: token expired\n\tat com.acme.auth.TokenService.verify(TokenService.java:42)',
  ],
  [
    'ls-output',
    '-rw-r--r--  1 dev staff  1204 Jan  1 10:00 secrets.example.yaml\ndrwxr-xr-x  4 dev staff   128 Jan  1 10:00 keys',
  ],
  ['sql-query', 'SELECT id, password_hash FROM users WHERE email = $1 AND api_key_id = $2;'],
  ['bcrypt-hash', 'password_hash: $2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW'],
  ['cache-key', 'restored cache key-d41d8cd98f00b204e9800998ecf8427e from actions/cache'],
  ['twilio-account-sid', 'Account SID AC0123456789abcdef0123456789abcdef'],
  ['auth-header-variable', 'curl -H "Authorization: Bearer $TOKEN" https://api.example.com'],
  [
    'aws-configure-list',
    '      Name                    Value             Type    Location\n access_key     ****************ABCD shared-credentials-file',
  ],
  ['camel-identifiers', 'getAccessTokenFromRefreshToken(refreshToken) returns AccessTokenResponse'],
  ['token-count', 'tokens used: 1234 of 200000 (input 1000, output 234)'],
  ['auth-mode', '{"auth": "oauth2", "scopes": ["read", "write"]}'],
  ['jwt-header-only', 'the header eyJhbGciOiJIUzI1NiJ9 decodes to {"alg":"HS256"}'],
  ['cookie-type', 'cookie: string;\nsetCookie(name: string, value: string): void;'],
  ['python-password-input', 'password = input("Password: ")\nif check_password(password):'],
  ['env-example', 'API_KEY=your-api-key-here\nDB_PASSWORD=changeme\nSECRET_TOKEN=<your token>'],
  ['k8s-uid', 'metadata:\n  uid: 5f1d2c3b-4a5e-6f70-8192-a3b4c5d6e7f8\n  resourceVersion: "123456"'],
  ['workflow-permissions', 'permissions:\n  contents: read\n  id-token: write\n  pull-requests: write'],
  [
    'secret-key-ref',
    'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-credentials\n        key: password',
  ],
  ['helm-template', 'password: {{ .Values.db.password | quote }}\napiKey: "{{ vault_api_key }}"'],
  ['terraform-variable', 'variable "db_password" {\n  sensitive = true\n}\npassword = var.db_password'],
  [
    'compose-password-file',
    'environment:\n  POSTGRES_PASSWORD_FILE: /run/secrets/db_password\nsecrets:\n  - db_password',
  ],
  ['password-file-flag', 'restic backup --password-file /etc/restic/pw ~/data'],
  ['key-value-prose', 'Redis is an in-memory key-value store; key-value pairs expire with TTL.'],
  ['token-type-flag', 'oauth2c https://id.example.com --token-type bearer --grant-type client_credentials'],
  ['aws-configure-region', 'aws configure set region eu-west-1 && aws configure set output json'],
  ['aws-configure-get', 'aws configure get aws_secret_access_key --profile prod'],
  [
    'config-set-plain',
    'npm config set fund false\ngit config --global credential.helper store\nyarn config set npmAuthToken ${NPM_TOKEN}',
  ],
  [
    'password-reset-prose',
    'Fix the password reset flow: set your password to something long; the password was reset by an admin.',
  ],
  ['port-flags', 'docker run -p 8080:80 nginx\nssh -p 2222 deploy@10.0.0.5\nscp -P 2222 app.tar.gz host:'],
  ['htpasswd-verify', 'htpasswd -v /etc/nginx/.htpasswd admin'],
  ['pgpass-format', 'chmod 600 ~/.pgpass  # hostname:port:database:username:password'],
  ['laravel-empty-key', 'APP_KEY=\nAPP_ENV=local\nphp artisan key:generate'],
  [
    'hex-color-and-hashes',
    'md5 d41d8cd98f00b204e9800998ecf8427e sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709',
  ],
];

/** A PostToolUse payload of the documented example with this tool call. */
function toolPayload(tool: string, input: Payload, response: unknown): Payload {
  return { ...hookExample('PostToolUse'), tool_name: tool, tool_input: input, tool_response: response };
}

const FILE = '/home/dev/project/config/settings.txt';

export interface Placement {
  name: string;
  payload(text: string, command: boolean): Payload;
}

/** Where text travels in a hook payload. */
export const PLACEMENTS: Placement[] = [
  {
    name: 'Bash command',
    payload: (text, command) =>
      toolPayload(
        'Bash',
        {
          command: command ? text : `cat > settings.txt <<'EOF'\n${text}\nEOF`,
          description: 'write settings',
        },
        { stdout: '', stderr: '', interrupted: false, isImage: false },
      ),
  },
  {
    name: 'Bash stdout',
    payload: (text) =>
      toolPayload(
        'Bash',
        { command: 'cat settings.txt' },
        { stdout: text, stderr: '', interrupted: false, isImage: false },
      ),
  },
  {
    name: 'Write content',
    payload: (text) =>
      toolPayload(
        'Write',
        { file_path: FILE, content: text },
        { type: 'create', filePath: FILE, content: text, structuredPatch: [] },
      ),
  },
  {
    name: 'Edit structuredPatch',
    payload: (text) => {
      const lines = text.split('\n');
      return toolPayload(
        'Edit',
        { file_path: FILE, old_string: 'TODO', new_string: text },
        {
          filePath: FILE,
          oldString: 'TODO',
          newString: text,
          structuredPatch: [
            {
              oldStart: 3,
              oldLines: 1,
              newStart: 3,
              newLines: lines.length,
              lines: ['-TODO', ...lines.map((l) => `+${l}`)],
            },
          ],
          userModified: false,
        },
      );
    },
  },
  {
    name: 'Read result',
    payload: (text) =>
      toolPayload(
        'Read',
        { file_path: FILE },
        {
          type: 'text',
          file: {
            filePath: FILE,
            content: text,
            numLines: text.split('\n').length,
            startLine: 1,
            totalLines: 40,
          },
        },
      ),
  },
  {
    name: 'prompt',
    payload: (text) => ({
      ...hookExample('UserPromptSubmit'),
      prompt: `Why does this fail?\n${text}\nPlease fix it.`,
    }),
  },
  {
    name: 'MCP result',
    payload: (text) =>
      toolPayload('mcp__db__query', { sql: 'select * from settings' }, [{ type: 'text', text }]),
  },
];

/** Where non-string values under secret-named keys travel: an MCP call's input and its structured result. */
export const STRUCTURED_PLACEMENTS: Array<{ name: string; payload(value: Payload): Payload }> = [
  {
    name: 'MCP input',
    payload: (value) => toolPayload('mcp__vault__put', value, [{ type: 'text', text: 'ok' }]),
  },
  {
    name: 'MCP structured result',
    payload: (value) => toolPayload('mcp__vault__get', { path: 'app' }, value),
  },
];

/** The recorder's event-log line for `payload`. */
export function recordLine(payload: Payload): string {
  const data = Buffer.from(JSON.stringify(payload));
  return buildRecord({
    data,
    totalBytes: data.length,
    receivedAt: new Date(),
    agent: 'claude-code',
    version: 'test',
  }).line;
}

/** The payload as the event log stores it (the recorder's own `_cd` fields left out). */
export function recorded(payload: Payload): Payload {
  const stored = JSON.parse(recordLine(payload)) as Payload;
  delete stored._cd;
  return stored;
}

/** Every string in a value, and every number (as text), joined: what a reader of the stored record sees. */
export function storedText(value: unknown): string {
  const out: string[] = [];
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') out.push(item);
    else if (typeof item === 'number') out.push(String(item));
    else if (item !== null && typeof item === 'object') stack.push(...Object.values(item));
  }
  return out.join('\n');
}

/** The parts of a secret found in `text`: whole, or any 12 characters of a longer part. */
export function leakedParts(text: string, parts: readonly string[]): string[] {
  return parts.filter((part) => {
    if (part.length <= 12) return text.includes(part);
    for (let i = 0; i + 12 <= part.length; i += 4) if (text.includes(part.slice(i, i + 12))) return true;
    return text.includes(part.slice(-12));
  });
}

export interface CorpusFigures {
  secrets: number;
  kinds: number;
  placements: number;
  /** Secret x placement pairs stored. */
  checks: number;
  /** The kinds named by the markers that replaced them (`[REDACTED:<kind>]`). */
  markerKinds: string[];
  leaks: Array<{ kind: string; placement: string; parts: string[] }>;
  nonSecrets: number;
  altered: Array<{ kind: string; placement: string }>;
}

/**
 * Store every secret and every non-secret in every placement with `store` (payload in, stored payload out)
 * and count what leaked and what was altered that should not have been.
 */
export function measureCorpus(store: (payload: Payload) => Payload): CorpusFigures {
  const leaks: CorpusFigures['leaks'] = [];
  const markerKinds = new Set<string>();
  let checks = 0;
  const check = (kind: string, placement: string, payload: Payload, parts: string[]) => {
    checks++;
    const text = storedText(store(payload));
    for (const [, marked] of text.matchAll(/\[REDACTED:([a-z0-9-]+)\]/g)) markerKinds.add(marked);
    const found = leakedParts(text, parts);
    if (found.length > 0) leaks.push({ kind, placement, parts: found });
  };
  for (const secret of SECRETS) {
    for (const placement of PLACEMENTS)
      check(
        secret.kind,
        placement.name,
        placement.payload(secret.text, secret.command ?? false),
        secret.parts,
      );
  }
  for (const secret of STRUCTURED_SECRETS) {
    for (const placement of STRUCTURED_PLACEMENTS)
      check(secret.kind, placement.name, placement.payload(secret.input), secret.parts);
  }
  const altered: CorpusFigures['altered'] = [];
  for (const [kind, text] of NON_SECRETS) {
    for (const placement of PLACEMENTS) {
      const payload = placement.payload(text, false);
      if (!isDeepStrictEqual(store(payload), payload)) altered.push({ kind, placement: placement.name });
    }
  }
  return {
    secrets: SECRETS.length + STRUCTURED_SECRETS.length,
    kinds: new Set([...SECRETS, ...STRUCTURED_SECRETS].map((s) => s.kind)).size,
    placements: PLACEMENTS.length + STRUCTURED_PLACEMENTS.length,
    checks,
    markerKinds: [...markerKinds].sort(),
    leaks,
    nonSecrets: NON_SECRETS.length,
    altered,
  };
}
