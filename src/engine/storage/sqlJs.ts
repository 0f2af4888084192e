import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs, { type SqlJsStatic } from 'sql.js';

let loading: Promise<SqlJsStatic> | undefined;

/** The wasm sits beside the bundle in `dist/`; unbundled (tests, tsx) it comes from the sql.js package. */
function wasmPath(): string {
  const beside = path.join(__dirname, 'sql-wasm.wasm');
  if (fs.existsSync(beside)) return beside;
  return require.resolve('sql.js/dist/sql-wasm.wasm');
}

/** Load sql.js once per process. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= (async () => {
    const wasmBinary = await fs.promises.readFile(wasmPath());
    return initSqlJs({ wasmBinary: wasmBinary as unknown as ArrayBuffer });
  })();
  return loading;
}
