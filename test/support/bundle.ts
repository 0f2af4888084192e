import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before } from 'node:test';
import { type BuildOptions, build } from 'esbuild';
import nodeBundle from '../../scripts/esbuild.node.json';
import { REPO_ROOT } from './processes';

/**
 * Bundle entry points (name -> source file) the way they ship in dist/, with the sql.js wasm beside them,
 * so tests run the real CLI or recorder as plain fast `node` processes.
 */
export async function bundleForNode(outDir: string, entries: Record<string, string>): Promise<void> {
  await build({
    ...(nodeBundle as BuildOptions),
    entryPoints: Object.fromEntries(
      Object.entries(entries).map(([name, file]) => [name, path.join(REPO_ROOT, file)]),
    ),
    outdir: outDir,
    logLevel: 'error',
  });
  fs.copyFileSync(
    path.join(REPO_ROOT, 'node_modules/sql.js/dist/sql-wasm.wasm'),
    path.join(outDir, 'sql-wasm.wasm'),
  );
}

/**
 * Bundles the entries into a temp folder before the file's tests and removes it after them; returns where an
 * entry's script is (`script('catchUpProcess')`).
 */
export function useBundle(entries: Record<string, string>): (name: string) => string {
  let dir = '';
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bundle-'));
    await bundleForNode(dir, entries);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return (name) => path.join(dir, `${name}.js`);
}
