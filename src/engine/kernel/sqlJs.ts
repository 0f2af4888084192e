import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import initSqlJs, { type SqlJsStatic } from 'sql.js';

type Imports = Parameters<EmscriptenModule['instantiateWasm']>[0];
type Instance = Parameters<Parameters<EmscriptenModule['instantiateWasm']>[1]>[0];
/** The global's compile and instantiate: this project's type libraries declare only a few WebAssembly types. */
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      compile(bytes: Uint8Array): Promise<WebAssembly.Module>;
      instantiate(module: WebAssembly.Module, imports: Imports): Promise<Instance>;
    };
  }
).WebAssembly;

let compiling: Promise<WebAssembly.Module> | undefined;
let warmingUp: Promise<boolean> | undefined;
let loading: Promise<SqlJsStatic> | undefined;

/** The wasm sits beside the bundle in `dist/`; unbundled (tests, tsx) it comes from the sql.js package. */
function wasmPath(): string {
  const beside = path.join(__dirname, 'sql-wasm.wasm');
  if (fs.existsSync(beside)) return beside;
  return require.resolve('sql.js/dist/sql-wasm.wasm');
}

/** sql.js's WebAssembly, compiled once per process (off this thread; V8 compiles each function as it first runs). */
export function compiledModule(): Promise<WebAssembly.Module> {
  compiling ??= fs.promises.readFile(wasmPath()).then((bytes) => wasm.compile(bytes));
  return compiling;
}

/** sql.js on a compiled module: instances of one module share its compiled code, across threads too. */
export function sqlJsOn(module: WebAssembly.Module): Promise<SqlJsStatic> {
  return initSqlJs({
    instantiateWasm(imports, receive) {
      void wasm.instantiate(module, imports).then((instance) => receive(instance));
      return {};
    },
  });
}

/**
 * For the extension host, before its first `loadSqlJs`: V8 compiles a WebAssembly function on the thread that
 * first runs it, and the first statements of a window compile SQLite's parser, virtual machine and planner,
 * which held the host 60-165 ms at a window's start. A worker (sqlWarmUpWorker.ts) runs them first on the
 * same module, so the host finds them compiled. Resolves whether it did; `loadSqlJs` waits for it, at most
 * `timeoutMs`.
 */
export function warmUpSqlJs(workerFile: string, timeoutMs = 3000): Promise<boolean> {
  warmingUp ??= compiledModule().then(
    (module) => runWarmUp(workerFile, module, timeoutMs),
    // loadSqlJs then meets the same error and says it.
    () => false,
  );
  return warmingUp;
}

/** Run the warm-up worker on `module`: true once it has run its statements, false if it could not. */
export function runWarmUp(
  workerFile: string,
  module: WebAssembly.Module,
  timeoutMs: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(workerFile, { workerData: { module } });
    } catch {
      resolve(false);
      return;
    }
    const timer = setTimeout(() => finish(false), timeoutMs);
    const finish = (warm: boolean) => {
      clearTimeout(timer);
      resolve(warm);
      void worker.terminate();
    };
    worker.once('message', (message: unknown) => finish(message === 'warm'));
    worker.once('error', () => finish(false));
    worker.once('exit', () => finish(false));
  });
}

/** Load sql.js once per process (after the warm-up, when one was started). */
export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= (async () => {
    const module = await compiledModule();
    await warmingUp;
    return sqlJsOn(module);
  })();
  return loading;
}
