import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';

const ENSURE_DEPS = path.resolve(__dirname, '../../scripts/ensure-deps.mjs');

const LOCK = {
  lockfileVersion: 3,
  packages: {
    '': { name: 'p' },
    'node_modules/preact': { version: '10.29.8' },
    'node_modules/@esbuild/darwin-arm64': { version: '0.28.2', optional: true, os: ['darwin'] },
  },
};

/** `npm start`/`npm test`'s first step, asked only to report, in a folder with this lock and install. */
function check(installed?: object): { status: number | null; stdout: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-deps-'));
  fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(LOCK));
  if (installed) {
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.writeFileSync(path.join(dir, 'node_modules', '.package-lock.json'), JSON.stringify(installed));
  }
  const run = spawnSync(process.execPath, [ENSURE_DEPS, '--check'], { cwd: dir, encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  return { status: run.status, stdout: run.stdout };
}

describe('set-up of a fresh clone', () => {
  test('a clone without node_modules is installed first, and says so', () => {
    const result = check();
    assert.equal(result.status, 1);
    assert.match(result.stdout, /node_modules is missing/);
  });

  test('a dependency at another version than the lock file is named', () => {
    const result = check({ packages: { 'node_modules/preact': { version: '10.0.0' } } });
    assert.equal(result.status, 1);
    assert.match(result.stdout, /1 package\(s\) differ from package-lock.json \(preact\)/);
  });

  test('an install matching the lock file is left alone; other platforms’ optional packages are not wanted', () => {
    const result = check({ packages: { 'node_modules/preact': { version: '10.29.8' } } });
    assert.deepEqual(result, { status: 0, stdout: '' });
  });
});
