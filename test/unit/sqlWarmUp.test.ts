/**
 * The extension host's first statements find sql.js's code compiled: a worker runs them first on the same
 * WebAssembly module (instances of one module share its compiled code). A worker that can't run leaves sql.js
 * working as before; the speed is the footprint benchmark's to measure.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { migrate } from '../../src/engine/storage/schema';
import { compiledModule, loadSqlJs, runWarmUp, warmUpSqlJs } from '../../src/engine/kernel/sqlJs';
import { useBundle } from '../support/bundle';
import { REPO_ROOT } from '../support/processes';

const script = useBundle({ sqlWarmUpWorker: 'src/engine/workers/sqlWarmUpWorker.ts' });

test('the warm-up worker runs its statements on the module this thread then loads sql.js from', async () => {
  assert.equal(await warmUpSqlJs(script('sqlWarmUpWorker')), true);
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  migrate(db);
  db.run('INSERT INTO counters (name, value) VALUES (?, ?)', ['warm', 1]);
  assert.deepEqual(db.exec("SELECT value FROM counters WHERE name = 'warm'")[0].values, [[1]]);
  db.close();
});

test('a warm-up worker that fails or hangs is given up, and sql.js loads all the same', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-warmup-'));
  try {
    const module = await compiledModule();
    const broken = path.join(dir, 'broken.js');
    fs.writeFileSync(broken, "throw new Error('damaged');\n");
    const hanging = path.join(dir, 'hanging.js');
    fs.writeFileSync(hanging, 'setInterval(() => {}, 1000);\n');
    assert.equal(await runWarmUp(broken, module, 5000), false);
    assert.equal(await runWarmUp(path.join(dir, 'missing.js'), module, 5000), false);
    assert.equal(await runWarmUp(hanging, module, 200), false);

    // A process whose warm-up fails still loads sql.js and runs statements.
    const probe = path.join(dir, 'probe.ts');
    const sqlJs = path.join(REPO_ROOT, 'src/engine/kernel/sqlJs');
    fs.writeFileSync(
      probe,
      `import { loadSqlJs, warmUpSqlJs } from ${JSON.stringify(sqlJs)};
       void warmUpSqlJs(${JSON.stringify(broken)}).then(async (warm) => {
         const SQL = await loadSqlJs();
         console.log(JSON.stringify({ warm, sum: new SQL.Database().exec('SELECT 1 + 1')[0].values[0][0] }));
       });`,
    );
    const loader = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
    const out = execFileSync(process.execPath, ['--import', loader, probe], { encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), { warm: false, sum: 2 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
