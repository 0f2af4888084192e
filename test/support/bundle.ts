import * as fs from 'node:fs';
import * as path from 'node:path';
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
