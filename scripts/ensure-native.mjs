// The benchmark's native SQLite reference (better-sqlite3) is a compiled addon. npm may skip its install
// script, so build it here when it does not load. Only the benchmark needs it; the product never does.
import { execSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function loads() {
  try {
    const Database = require('better-sqlite3');
    new Database(':memory:').close();
    return true;
  } catch {
    return false;
  }
}

if (!loads()) {
  console.log('Building better-sqlite3 (native SQLite reference for the benchmark)...');
  execSync('npm rebuild better-sqlite3', { stdio: 'inherit' });
  if (!loads()) {
    console.error('better-sqlite3 still does not load; the benchmark needs it for its native reference.');
    process.exit(1);
  }
}
