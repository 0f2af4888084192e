import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  REDACTION_RULES,
  redactAndCut,
  redactText,
  redactValue,
  secretKeyKind,
} from '../../src/engine/redact';

/**
 * Fake secrets are assembled at run time (deterministic pseudo-random bodies) so that this file holds no
 * literal that a secret scanner would flag, and so each looks like the real thing: mixed case and digits.
 */
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
let seed = 12345;
function fake(length: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    out += alphabet[seed % alphabet.length];
  }
  // Guarantee the three character classes random keys have in practice.
  return alphabet === ALNUM && length >= 3 ? `A1b${out.slice(3)}` : out;
}
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BASE64 = `${ALNUM}+/`;

const anthropic = `sk-ant-api03-${fake(93)}AA`;
const openai = `sk-${fake(48)}`;
const openaiProject = `sk-proj-${fake(40)}_${fake(40)}-${fake(20)}`;
const ghp = `ghp_${fake(36)}`;
const gho = `gho_${fake(36)}`;
const ghs = `ghs_${fake(36)}`;
const githubPat = `github_pat_${fake(22)}_${fake(59)}`;
const glpat = `glpat-${fake(20)}`;
const npmToken = `npm_${fake(36)}`;
const xoxb = `xoxb-${fake(11, '0123456789')}-${fake(13, '0123456789')}-${fake(24)}`;
const xoxp = `xoxp-${fake(11, '0123456789')}-${fake(11, '0123456789')}-${fake(32)}`;
const xapp = `xapp-1-A${fake(10, UPPER_DIGITS)}-${fake(13, '0123456789')}-${fake(64, '0123456789abcdef')}`;
const slackHookPath = `T${fake(8, UPPER_DIGITS)}/B${fake(8, UPPER_DIGITS)}/${fake(24)}`;
const stripeLive = `sk_live_${fake(24)}`;
const stripeRestricted = `rk_live_${fake(24)}`;
const stripeTest = `sk_test_${fake(24)}`;
const stripeWebhook = `whsec_${fake(32)}`;
const google = `AIza${fake(35)}`;
const akia = `AKIA${fake(16, UPPER_DIGITS)}`;
const asia = `ASIA${fake(16, UPPER_DIGITS)}`;
const awsSecret = fake(40, BASE64);
const jwtHeader = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
const jwtBody = Buffer.from('{"sub":"1234567890","name":"A"}').toString('base64url');
const jwt = `${jwtHeader}.${jwtBody}.${fake(43)}`;
const basicCredential = Buffer.from('admin:hunter22').toString('base64');
const bearerToken = fake(30);
const pemBody = `${fake(64, BASE64)}\n${fake(64, BASE64)}\n${fake(20, BASE64)}`;

interface Case {
  /** Input text. */
  text: string;
  /** Redacted positives: the secret that must be gone, and the output expected (or a pattern it matches). */
  secret?: string;
  expect?: string | RegExp;
}

/** rule kind -> positives and near-miss negatives (text left exactly as it was). */
const TABLE: Record<string, { positives: Case[]; negatives: string[] }> = {
  private: {
    positives: [
      {
        text: 'keep <private>my plan</private> this',
        secret: 'my plan',
        expect: 'keep [REDACTED:private] this',
      },
      { text: 'a <PRIVATE>x\ny</PRIVATE> b', secret: 'x\ny', expect: 'a [REDACTED:private] b' },
      { text: 'before <private>never closed', secret: 'never closed', expect: 'before [REDACTED:private]' },
    ],
    negatives: ['see the <privacy> policy', 'a private key is not shown here', '</private> alone'],
  },
  'private-key': {
    positives: [
      {
        text: `key:\n-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----\nafter`,
        secret: pemBody.slice(0, 30),
        expect: 'key:\n[REDACTED:private-key]\nafter',
      },
      {
        text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody}\n-----END OPENSSH PRIVATE KEY-----`,
        secret: pemBody.slice(10, 40),
        expect: '[REDACTED:private-key]',
      },
      {
        text: `-----BEGIN PRIVATE KEY-----\n${pemBody}`,
        secret: pemBody.slice(0, 30),
        expect: '[REDACTED:private-key]',
      },
      {
        text: `-----BEGIN PGP PRIVATE KEY BLOCK-----\n${pemBody}\n-----END PGP PRIVATE KEY BLOCK-----`,
        secret: pemBody.slice(0, 30),
        expect: '[REDACTED:private-key]',
      },
    ],
    negatives: [
      `-----BEGIN PUBLIC KEY-----\n${pemBody}\n-----END PUBLIC KEY-----`,
      `-----BEGIN CERTIFICATE-----\n${pemBody}\n-----END CERTIFICATE-----`,
      'generate a PRIVATE KEY with openssl genrsa',
    ],
  },
  'connection-string': {
    positives: [
      {
        text: 'DATABASE_URL postgres://app:s3cr3tPass@db.example.com:5432/app',
        secret: 's3cr3tPass',
        expect: 'DATABASE_URL postgres://app:[REDACTED:connection-string]@db.example.com:5432/app',
      },
      {
        text: 'postgresql://u:p%40ss@10.0.0.1/db',
        secret: 'p%40ss',
        expect: 'postgresql://u:[REDACTED:connection-string]@10.0.0.1/db',
      },
      {
        text: 'mysql://root:rootpw@localhost:3306/x',
        secret: 'rootpw',
        expect: 'mysql://root:[REDACTED:connection-string]@localhost:3306/x',
      },
      {
        text: 'mongodb+srv://admin:Zx9-pass@cluster0.abcde.mongodb.net/test?retryWrites=true',
        secret: 'Zx9-pass',
        expect:
          'mongodb+srv://admin:[REDACTED:connection-string]@cluster0.abcde.mongodb.net/test?retryWrites=true',
      },
      {
        text: 'mongodb://user:pw@h1:27017,h2:27017/db',
        secret: 'user:pw',
        expect: 'mongodb://user:[REDACTED:connection-string]@h1:27017,h2:27017/db',
      },
      {
        text: 'redis://:redispass@cache:6379/0',
        secret: 'redispass',
        expect: 'redis://:[REDACTED:connection-string]@cache:6379/0',
      },
      {
        text: 'amqp://guest:guestpw@rabbit:5672',
        secret: 'guestpw',
        expect: 'amqp://guest:[REDACTED:connection-string]@rabbit:5672',
      },
      {
        text: 'git clone https://bot:tok3n@github.com/org/repo.git',
        secret: 'tok3n',
        expect: 'git clone https://bot:[REDACTED:connection-string]@github.com/org/repo.git',
      },
      {
        text: 'postgres://u:p@ss@host/db',
        secret: 'p@ss',
        expect: 'postgres://u:[REDACTED:connection-string]@host/db',
      },
    ],
    negatives: [
      'postgres://localhost:5432/db',
      'postgres://user@host/db',
      'https://example.com:8080/path@v2',
      'mongodb://${DB_USER}:${DB_PASS}@mongo:27017',
      'git@github.com:org/repo.git',
    ],
  },
  'anthropic-key': {
    positives: [
      { text: `ANTHROPIC=${anthropic}`, secret: anthropic.slice(14, 40) },
      { text: `key ${anthropic} end`, secret: anthropic, expect: 'key [REDACTED:anthropic-key] end' },
    ],
    negatives: ['sk-ant-short', 'the task-ant-colony-simulation-module-name'],
  },
  'openai-key': {
    positives: [
      { text: `OPENAI_API_KEY=${openai}`, secret: openai.slice(5) },
      { text: `using ${openai}.`, secret: openai, expect: 'using [REDACTED:openai-key].' },
      { text: `"${openaiProject}"`, secret: openaiProject.slice(10), expect: '"[REDACTED:openai-key]"' },
    ],
    negatives: [
      'open the task-list-of-very-long-names-for-testing',
      'sk-learn-compatible-estimator-interface',
      'sk-1234567',
      'desk-Abc123Def456Ghi789Jkl012',
    ],
  },
  'github-token': {
    positives: [
      { text: `token ${ghp}`, secret: ghp, expect: 'token [REDACTED:github-token]' },
      { text: `x=${gho};`, secret: gho },
      { text: `(${ghs})`, secret: ghs, expect: '([REDACTED:github-token])' },
      { text: `GH ${githubPat}`, secret: githubPat, expect: 'GH [REDACTED:github-token]' },
    ],
    negatives: ['ghp_short', `xghp_${fake(36)}`, 'github_pat_short', 'ghx_' + fake(36)],
  },
  'gitlab-token': {
    positives: [{ text: `GL ${glpat}`, secret: glpat, expect: 'GL [REDACTED:gitlab-token]' }],
    negatives: ['glpat-short', 'glpat alone'],
  },
  'npm-token': {
    positives: [{ text: `//registry.npmjs.org/:_authToken ${npmToken}`, secret: npmToken }],
    negatives: ['npm_config_cache', 'npm_package_version'],
  },
  'slack-token': {
    positives: [
      { text: `SLACK ${xoxb}`, secret: xoxb, expect: 'SLACK [REDACTED:slack-token]' },
      { text: `user ${xoxp}`, secret: xoxp },
      { text: `app ${xapp}`, secret: xapp },
    ],
    negatives: ['xoxb alone', 'the xoxb-token setting', 'xapp-config'],
  },
  'slack-webhook': {
    positives: [
      {
        text: `curl -X POST https://hooks.slack.com/services/${slackHookPath}`,
        secret: slackHookPath,
        expect: 'curl -X POST https://hooks.slack.com/services/[REDACTED:slack-webhook]',
      },
    ],
    negatives: ['https://hooks.slack.com/', 'https://api.slack.com/services/apps'],
  },
  'stripe-key': {
    positives: [
      { text: `STRIPE ${stripeLive}`, secret: stripeLive, expect: 'STRIPE [REDACTED:stripe-key]' },
      { text: `r ${stripeRestricted}`, secret: stripeRestricted },
      { text: `t ${stripeTest}`, secret: stripeTest },
      { text: `w ${stripeWebhook}`, secret: stripeWebhook },
    ],
    negatives: [
      `pk_live_${fake(24)}`,
      'risk_test_cases_for_the_module',
      'sk_test_short',
      'desk_live_' + fake(24),
    ],
  },
  'google-api-key': {
    positives: [{ text: `key=${google}&q=1`, secret: google }],
    negatives: [`AIza${fake(34)} short by one`, 'AIzaSy is a prefix'],
  },
  'aws-access-key-id': {
    positives: [
      { text: `id ${akia}`, secret: akia, expect: 'id [REDACTED:aws-access-key-id]' },
      { text: `"${asia}"`, secret: asia, expect: '"[REDACTED:aws-access-key-id]"' },
    ],
    negatives: [
      `AKIA${fake(35, UPPER_DIGITS)}`, // 39 characters: not an access key id
      `AKIA${fake(15, UPPER_DIGITS)}`,
      'AKIA alone',
    ],
  },
  'aws-secret-key': {
    positives: [
      {
        text: `aws_secret_access_key = ${awsSecret}`,
        secret: awsSecret,
        expect: 'aws_secret_access_key = [REDACTED:aws-secret-key]',
      },
      { text: `AWS_SECRET_ACCESS_KEY=${awsSecret}`, secret: awsSecret },
      { text: `{"SecretAccessKey": "${awsSecret}"}`, secret: awsSecret },
      { text: `aws configure set aws_secret_access_key ${awsSecret}`, secret: awsSecret },
    ],
    negatives: [
      `sha ${fake(40, BASE64)} in a build log`,
      'data: aGVsbG8gd29ybGQgdGhpcyBpcyBhIGJhc2U2NCBibG9i',
      'set the aws secret access key in the console',
    ],
  },
  jwt: {
    positives: [
      { text: `cookie ${jwt}`, secret: jwt, expect: 'cookie [REDACTED:jwt]' },
      { text: `id_token=${jwt}`, secret: jwt.slice(40) },
    ],
    negatives: [jwtHeader, `${jwtHeader}.${jwtBody}`, 'eyJ alone'],
  },
  'auth-header': {
    positives: [
      {
        text: 'Authorization: Bearer abc.def-1234567',
        secret: 'abc.def-1234567',
        expect: 'Authorization: Bearer [REDACTED:auth-header]',
      },
      {
        text: `curl -H "Authorization: Basic ${basicCredential}" https://x`,
        secret: basicCredential,
        expect: 'curl -H "Authorization: Basic [REDACTED:auth-header]" https://x',
      },
      {
        text: '{"authorization": "token abcdef123456"}',
        secret: 'abcdef123456',
        expect: '{"authorization": "token [REDACTED:auth-header]"}',
      },
      { text: 'Proxy-Authorization: q1w2e3r4t5', secret: 'q1w2e3r4t5' },
    ],
    negatives: [
      'Authorization: Bearer $TOKEN',
      'the Authorization header is required',
      'Authorization: Bearer',
    ],
  },
  'bearer-token': {
    positives: [
      {
        text: "curl -H 'X-Api: Bearer 0a1b2c3d4e5f6a7b' https://api",
        secret: '0a1b2c3d4e5f6a7b',
        expect: "curl -H 'X-Api: Bearer [REDACTED:bearer-token]' https://api",
      },
      { text: `bearer ${bearerToken}`, secret: bearerToken },
    ],
    negatives: ['Bearer', 'the bearer of bad news', 'bearer authentication', 'Bearer tokens expire'],
  },
  'basic-auth': {
    positives: [
      {
        text: `X-Creds: Basic ${basicCredential}`,
        secret: basicCredential,
        expect: 'X-Creds: Basic [REDACTED:basic-auth]',
      },
      {
        text: 'curl -u admin:hunter22 https://x',
        secret: 'hunter22',
        expect: 'curl -u admin:[REDACTED:basic-auth] https://x',
      },
      { text: 'curl -s --user bot:pw123 https://x', secret: 'pw123' },
    ],
    negatives: [
      'Basic Instructions',
      'Basic setup guide',
      'curl -u admin https://x',
      'git push -u origin main',
    ],
  },
  password: {
    positives: [
      { text: 'DB_PASSWORD=hunter2', secret: 'hunter2', expect: 'DB_PASSWORD=[REDACTED:password]' },
      { text: '"password": "pw1"', secret: 'pw1', expect: '"password": "[REDACTED:password]"' },
      { text: "passwd: 'x y z'", secret: 'x y z', expect: "passwd: '[REDACTED:password]'" },
      {
        text: 'mysql --password=hunter2 db',
        secret: 'hunter2',
        expect: 'mysql --password=[REDACTED:password] db',
      },
      {
        text: '{\\"password\\": \\"pw2\\"}',
        secret: 'pw2',
        expect: '{\\"password\\": \\"[REDACTED:password]\\"}',
      },
    ],
    negatives: [
      'Enter your password to continue',
      'password_hint=blue',
      'password: string;',
      'password reset link sent',
      'tool --password-file /run/pw',
      'PWD=/home/me',
    ],
  },
  token: {
    positives: [
      {
        text: 'export GITHUB_TOKEN="abc123"',
        secret: 'abc123',
        expect: 'export GITHUB_TOKEN="[REDACTED:token]"',
      },
      {
        text: 'GET /cb?access_token=abc123&x=1',
        secret: 'abc123',
        expect: 'GET /cb?access_token=[REDACTED:token]&x=1',
      },
      { text: 'cli --token abc123', secret: 'abc123', expect: 'cli --token [REDACTED:token]' },
    ],
    negatives: [
      'max_tokens=4096',
      'tokenizer = load()',
      'const token = getToken();',
      'token=${TOKEN}',
      '--token $TOKEN',
    ],
  },
  'api-key': {
    positives: [
      { text: "api_key: 'xyz789'", secret: 'xyz789', expect: "api_key: '[REDACTED:api-key]'" },
      { text: 'MY_API_KEY=k-123', secret: 'k-123', expect: 'MY_API_KEY=[REDACTED:api-key]' },
    ],
    negatives: ['api_key_name=default', 'the api key is in the vault', 'apiKey: config.apiKey'],
  },
  secret: {
    positives: [
      { text: 'client_secret=abcdef', secret: 'abcdef', expect: 'client_secret=[REDACTED:secret]' },
      { text: 'secret: s3', secret: ': s3', expect: 'secret: [REDACTED:secret]' },
      { text: 'PRIVATE_KEY="k1"', secret: 'k1', expect: 'PRIVATE_KEY="[REDACTED:secret]"' },
    ],
    negatives: ['secret_santa=yes', 'a secret plan', 'secrets: inherit'],
  },
};

describe('redactText', () => {
  for (const [kind, { positives, negatives }] of Object.entries(TABLE)) {
    test(`${kind}: positives are redacted`, () => {
      for (const c of positives) {
        const { text, count } = redactText(c.text);
        if (c.secret) assert.ok(!text.includes(c.secret), `${kind}: secret left in ${JSON.stringify(text)}`);
        assert.ok(count >= 1, `${kind}: nothing counted for ${JSON.stringify(c.text)}`);
        assert.match(text, new RegExp(`\\[REDACTED:${kind}\\]`), `${kind}: ${JSON.stringify(text)}`);
        if (typeof c.expect === 'string') assert.equal(text, c.expect);
        else if (c.expect) assert.match(text, c.expect);
      }
    });
    test(`${kind}: near misses are left alone`, () => {
      for (const text of negatives) {
        const result = redactText(text);
        assert.deepEqual(result, { text, count: 0 }, `${kind}: ${JSON.stringify(text)} was changed`);
      }
    });
  }

  test('every rule kind is covered by the table', () => {
    for (const rule of REDACTION_RULES)
      assert.ok(TABLE[rule.kind], `no cases for ${rule.name} (${rule.kind})`);
  });

  test('counts each secret once, several in one text', () => {
    const { text, count } = redactText(`a ${ghp} b ${akia} c DB_PASSWORD=pw <private>z</private>`);
    assert.equal(count, 4);
    assert.equal(
      text,
      'a [REDACTED:github-token] b [REDACTED:aws-access-key-id] c DB_PASSWORD=[REDACTED:password] [REDACTED:private]',
    );
  });

  test('a secret already redacted by one rule is not counted again by another', () => {
    const { text, count } = redactText(`OPENAI_API_KEY=${openai}\nAuthorization: Bearer ${jwt}`);
    assert.equal(count, 2);
    assert.ok(!text.includes(openai) && !text.includes(jwt));
  });

  test('plain text passes through untouched', () => {
    const text = 'Edited src/app.ts: replaced fetchUser() with loadUser(); 12 tests passed in 3.2s';
    assert.deepEqual(redactText(text), { text, count: 0 });
  });

  test('large inputs stay linear (no catastrophic backtracking)', { timeout: 20_000 }, () => {
    const big = [
      'a'.repeat(1_000_000),
      fake(1_000_000, BASE64),
      'password'.repeat(100_000),
      'token=' + 'x'.repeat(500_000),
      'sk-'.repeat(300_000),
      'postgres://' + 'u'.repeat(200_000) + ':' + 'p'.repeat(200_000),
      '-----BEGIN PRIVATE KEY-----'.repeat(20_000),
      'curl '.repeat(100_000),
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
      ['token', 'token'],
      ['GITHUB_TOKEN', 'token'],
      ['accessToken', 'token'],
      ['Authorization', 'token'],
      ['api_key', 'api-key'],
      ['apiKey', 'api-key'],
      ['x-api-key', 'api-key'],
      ['secret', 'secret'],
      ['client_secret', 'secret'],
      ['access_key', 'secret'],
      ['private_key', 'secret'],
      ['credentials', 'secret'],
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
      'prompt',
    ]) {
      assert.equal(secretKeyKind(name), undefined, name);
    }
  });
});

describe('redactValue', () => {
  test('walks objects and arrays, redacts key-named secrets, keeps shape and key order', () => {
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

  test('a __proto__ key stays an own property', () => {
    const input = JSON.parse('{"__proto__": {"x": 1}, "a": "b"}') as Record<string, unknown>;
    const { value } = redactValue(input);
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.equal(JSON.stringify(value), '{"__proto__":{"x":1},"a":"b"}');
  });

  test('long strings are cut with their original size noted, secrets near the cut included', () => {
    const long = `${'x'.repeat(994)} ${ghp}${'y'.repeat(5000)}`;
    const { value, cuts, count } = redactValue({ out: { text: long } }, { maxStringLength: 1000 });
    const text = (value as { out: { text: string } }).out.text;
    assert.ok(!text.includes(ghp.slice(0, 8)), 'no part of the straddling token is kept');
    assert.match(text, /…\[truncated: 6035 bytes in all\]$/);
    assert.equal(count, 1);
    assert.deepEqual(cuts, [{ path: 'out.text', bytes: 6035, kept: 1000, reason: 'length' }]);
  });

  test('deep nesting is flattened to text at the depth bound, iteratively', () => {
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
    assert.deepEqual(redactAndCut(`a ${ghp}`, 100), { text: 'a [REDACTED:github-token]', count: 1 });
  });
  test('never splits a surrogate pair', () => {
    const { text } = redactAndCut(`${'a'.repeat(9)}😀${'b'.repeat(20)}`, 10);
    assert.ok(text.startsWith('a'.repeat(9) + '…'), text);
  });
});
