#!/usr/bin/env node
// Installs the agents' own CLIs, pinned, for the real-agent suite (test/agents/): once per machine, cached
// outside the repo in ${CONTEXT_DECK_CACHE || ~/.cache/context-deck}/agents/<name>-<version>/, never by
// `npm start`. Some ship large native binaries (Claude Code's package is about 400 MB) whose postinstall npm 11
// may skip: each install counts only when its CLI answers `--version` with the pinned version, and a
// `.complete` marker is written only then, so a half-finished install is redone.
// Writes <cache>/agents/paths.json = { <name>: { version, bin } }, read by test/agents/sandbox.ts.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runStep } from './progress.mjs';

/** The versions the suite is run against: the README's table of real-agent checks names the same. */
const AGENT_CLIS = [
  { name: 'claude-code', pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  { name: 'codex', pkg: '@openai/codex', version: '0.169.1', bin: 'codex' },
  { name: 'opencode', pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  { name: 'cline', pkg: 'cline', version: '3.0.65', bin: 'cline' },
  { name: 'cline-2', pkg: 'cline', version: '2.18.0', bin: 'cline' },
];

const cacheRoot = process.env.CONTEXT_DECK_CACHE || join(homedir(), '.cache', 'context-deck');
const agentsRoot = join(cacheRoot, 'agents');

async function versionOf(bin) {
  try {
    return (await runStep(bin, ['--version'], { env: { ...process.env, NO_COLOR: '1' } })).trim();
  } catch {
    return '';
  }
}

async function ensure(cli) {
  const dir = join(agentsRoot, `${cli.name}-${cli.version}`);
  const bin = join(dir, 'node_modules', '.bin', cli.bin);
  const marker = join(dir, '.complete');
  if (existsSync(marker) && (await versionOf(bin)).includes(cli.version))
    return { version: cli.version, bin };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  await runStep(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `${cli.pkg}@${cli.version}`],
    { cwd: dir, label: `Installing ${cli.pkg}@${cli.version} for the real-agent suite (once per machine)` },
  );
  const reported = await versionOf(bin);
  if (!reported.includes(cli.version)) {
    throw new Error(
      `${cli.pkg}@${cli.version}: its CLI answers --version with "${reported}" (binary missing?)`,
    );
  }
  writeFileSync(marker, `${cli.version}\n`);
  return { version: cli.version, bin };
}

mkdirSync(agentsRoot, { recursive: true });
const pathsFile = join(agentsRoot, 'paths.json');
try {
  // One at a time: two cores, and each install is mostly one large download.
  const paths = {};
  for (const cli of AGENT_CLIS) paths[cli.name] = await ensure(cli);
  const previous = existsSync(pathsFile) ? readFileSync(pathsFile, 'utf8') : '';
  const next = JSON.stringify(paths, null, 2) + '\n';
  if (previous !== next) writeFileSync(pathsFile, next);
  console.log(
    `[ensure-agents] ${AGENT_CLIS.map((cli) => `${cli.pkg}@${cli.version}`).join(', ')} in ${agentsRoot}`,
  );
} catch (error) {
  console.error(`[ensure-agents] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
