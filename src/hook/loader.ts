/**
 * What agents run for each hook event (`node <home>/bin/hook.js`): it runs the recorder beside it
 * (`recorder.js`) from a V8 code cache, so that a call does not pay again to compile the recorder's functions
 * (about 6 ms a call). The cache is written at exit by the first call that found none, or
 * found one V8 rejected, and is keyed by Node's version, its flags, and the recorder file's size and time:
 * V8 itself checks only the source's length, and an update of the same length must not run stale code;
 * agents that run Node with other flags (which V8 would reject) each keep their own cache.
 *
 * Node built-ins only, by named imports (a namespace import costs a copy of the module's properties), so
 * that the loader stays a small file of its own.
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { note } from './note';

const RECORDER = join(__dirname, 'recorder.js');
const CACHE_DIR = join(__dirname, 'code-cache');

type CommonJsEntry = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

/** A short hash (FNV-1a) of Node's flags, to name the cache. */
function flagsKey(): string {
  const flags = `${process.execArgv.join(' ')}\u0000${process.env.NODE_OPTIONS ?? ''}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) hash = Math.imul(hash ^ flags.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

interface Recorder {
  source: string;
  /** Ends the name of every cache of this recorder file, whichever Node made it. */
  version: string;
  cacheFile: string;
}

/** The recorder's text and the name of its cache, read from one descriptor: an update renames a new file in. */
function readRecorder(): Recorder {
  const fd = openSync(RECORDER, 'r');
  try {
    const { size, mtimeMs } = fstatSync(fd);
    const version = `-${size}-${Math.trunc(mtimeMs)}.bin`;
    const cacheFile = join(CACHE_DIR, `${process.version}-${process.arch}-${flagsKey()}${version}`);
    return { source: readFileSync(fd, 'utf8'), version, cacheFile };
  } finally {
    closeSync(fd);
  }
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Write the cache (atomically: other hooks may start meanwhile) and drop those of earlier recorders. Those of
 * other Node versions or flags for this recorder stay: two agents running Node differently each keep theirs.
 */
function saveCache(script: Script, { cacheFile, version }: Recorder): void {
  try {
    mkdirSync(CACHE_DIR, { recursive: true, mode: 0o700 });
    const temp = `${cacheFile}.tmp-${process.pid}`;
    writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    renameSync(temp, cacheFile);
    for (const name of readdirSync(CACHE_DIR)) if (!name.endsWith(version)) unlinkSync(join(CACHE_DIR, name));
  } catch {
    // A folder we may not write, or another hook swept first: the next call compiles again.
  }
}

function run(): void {
  const recorder = readRecorder();
  const cachedData = readCache(recorder.cacheFile);
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${recorder.source}\n})`,
    {
      filename: RECORDER,
      cachedData,
    },
  );
  if (!cachedData || script.cachedDataRejected) process.once('exit', () => saveCache(script, recorder));
  const entry = script.runInThisContext() as CommonJsEntry;
  const module = { exports: {} };
  entry(module.exports, require, module, RECORDER, __dirname);
}

try {
  run();
} catch (error) {
  // A hook must never hurt the agent: say why on stderr, record nothing, exit 0.
  note(error);
  process.exitCode = 0;
}
