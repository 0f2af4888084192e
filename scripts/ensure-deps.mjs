#!/usr/bin/env node
// First step of `npm start` and `npm test`: installs the dependencies from package-lock.json when
// node_modules is missing or does not match the lock file, so the README's two commands are the whole set-up.
// Plain Node with no dependencies: it runs before anything is installed. `--check` only reports (exit 1 if stale).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStep } from './progress.mjs';

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The packages of the lock file that are missing from node_modules or installed at another version. npm keeps
 * what it installed in node_modules/.package-lock.json; optional packages for other platforms are never there.
 */
export function staleDependencies(lock, installed) {
  const wanted = lock?.packages ?? {};
  const have = installed?.packages ?? {};
  return Object.entries(wanted)
    .filter(([key]) => key.startsWith('node_modules/'))
    .filter(([key, entry]) =>
      entry.optional
        ? key in have && have[key].version !== entry.version
        : have[key]?.version !== entry.version,
    )
    .map(([key]) => key.slice('node_modules/'.length));
}

async function main() {
  // npm runs scripts in the package's folder.
  const root = process.cwd();
  const lock = readJson(join(root, 'package-lock.json'));
  if (!lock) throw new Error('package-lock.json is missing or not valid JSON');
  const installedFile = join(root, 'node_modules', '.package-lock.json');
  const stale = existsSync(installedFile)
    ? staleDependencies(lock, readJson(installedFile))
    : ['(none installed)'];
  if (stale.length === 0) return;
  const why = existsSync(installedFile)
    ? `${stale.length} package(s) differ from package-lock.json (${stale.slice(0, 3).join(', ')}${stale.length > 3 ? ', ...' : ''})`
    : 'node_modules is missing';
  console.log(`Context Deck set-up: ${why}.`);
  if (process.argv.includes('--check')) process.exit(1);
  await runStep('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    label: 'Installing dependencies from package-lock.json into ./node_modules (npm ci, about 2 minutes)',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(`Set-up failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
