// Bundles the extension host, the command-line tools and the dashboard webview with esbuild, and copies the
// runtime assets (sql.js wasm, codicons) into dist/. Flags: --production (minify, no source maps), --watch.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * Shared by every Node bundle, here and in tests that bundle the CLI or the recorder (esbuild.node.json):
 * `vscode` is provided by the editor at run time; ESM builds are preferred because some UMD builds
 * (jsonc-parser's) require their parts dynamically; sqlJs.ts only falls back to require.resolve when the
 * wasm is not beside the bundle, and bundled it always is.
 */
const nodeBase = {
  ...JSON.parse(readFileSync(join(root, 'scripts', 'esbuild.node.json'), 'utf8')),
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  absWorkingDir: root,
};

const cliBanner = { js: '#!/usr/bin/env node' };

/** Entries other engineers may still be writing are skipped with a warning rather than failing the build. */
const nodeEntries = [
  // `names`: identifiers stay unminified, so that the stacks in the Output channel and the frames of a host CPU
  // profile (Profile the Extension Host) say where. Not for the recorder, which starts at every hook call.
  { in: 'src/host/extension.ts', out: 'extension.js', required: true, names: true },
  { in: 'src/cli/main.ts', out: 'cli.js', banner: cliBanner },
  // Agents run hook.js, which runs recorder.js from a code cache (see loader.ts).
  { in: 'src/hook/loader.ts', out: 'hook.js', banner: cliBanner },
  { in: 'src/hook/main.ts', out: 'recorder.js' },
  { in: 'src/mcp/main.ts', out: 'mcp.js', banner: cliBanner },
  // Beside every bundle that ingests: parses large backlogs on a worker thread (see chunkReaders.ts).
  { in: 'src/engine/workers/parseWorker.ts', out: 'parseWorker.js', required: true },
  // Beside every bundle that imports transcripts: reads large imports on a worker thread (see transcriptReaders.ts).
  { in: 'src/engine/workers/transcriptWorker.ts', out: 'transcriptWorker.js', required: true },
  // Reads large backlogs and rebuilds for the extension host in a child process (see catchUp.ts).
  { in: 'src/engine/workers/catchUpProcess.ts', out: 'catchUpProcess.js', required: true },
  // Runs sql.js's first statements on the host's compiled module before the host does (see sqlJs.ts).
  { in: 'src/engine/workers/sqlWarmUpWorker.ts', out: 'sqlWarmUpWorker.js', required: true },
  // Checks a snapshot's integrity before it is opened, off the host's thread (see snapshotCheck.ts).
  { in: 'src/engine/workers/snapshotCheckWorker.ts', out: 'snapshotCheckWorker.js', required: true },
  // Reads a repository's config files off the host's thread (see scanOffThread.ts).
  { in: 'src/engine/workers/configScanWorker.ts', out: 'configScanWorker.js', required: true },
];

function buildOptions() {
  const options = [];
  for (const entry of nodeEntries) {
    if (!existsSync(join(root, entry.in))) {
      const message = `${entry.in} does not exist yet: dist/${entry.out} skipped`;
      if (entry.required) throw new Error(message);
      console.warn(`warning: ${message}`);
      continue;
    }
    options.push({
      ...nodeBase,
      entryPoints: [entry.in],
      outfile: join(dist, entry.out),
      ...(entry.banner ? { banner: entry.banner } : {}),
      ...(entry.names && production
        ? { minify: false, minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: false }
        : {}),
    });
  }
  options.push({
    entryPoints: ['webview/main.tsx'],
    outfile: join(dist, 'webview.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: production,
    sourcemap: production ? false : 'linked',
    logLevel: 'warning',
    absWorkingDir: root,
  });
  return options;
}

/** Files the bundles load at run time from beside themselves. */
function copyAssets() {
  const codicons = dirname(requireResolve('@vscode/codicons/dist/codicon.css'));
  const assets = [
    [requireResolve('sql.js/dist/sql-wasm.wasm'), 'sql-wasm.wasm'],
    [join(codicons, 'codicon.css'), 'codicon.css'],
    [join(codicons, 'codicon.ttf'), 'codicon.ttf'],
  ];
  for (const [from, to] of assets) copyFileSync(from, join(dist, to));
}

function requireResolve(specifier) {
  const file = join(root, 'node_modules', specifier);
  if (!existsSync(file)) throw new Error(`missing ${specifier}: run npm install`);
  return file;
}

function printSizes() {
  const rows = readdirSync(dist)
    .filter((name) => !name.endsWith('.map') && !name.endsWith('.vsix'))
    .map((name) => [name, statSync(join(dist, name))])
    .filter(([, stat]) => stat.isFile())
    .sort(([a], [b]) => a.localeCompare(b));
  for (const [name, stat] of rows) {
    console.log(
      `  ${relative(root, join(dist, name)).padEnd(28)} ${(stat.size / 1024).toFixed(1).padStart(9)} KiB`,
    );
  }
}

async function main() {
  mkdirSync(dist, { recursive: true });
  const options = buildOptions();
  if (watch) {
    // Report each rebuild so the developer sees when the bundles are current again.
    const reporter = {
      name: 'report',
      setup(build) {
        build.onEnd((result) => {
          const out = relative(root, build.initialOptions.outfile);
          console.log(`[watch] ${out}: ${result.errors.length ? `${result.errors.length} error(s)` : 'ok'}`);
        });
      },
    };
    copyAssets();
    const contexts = await Promise.all(
      options.map((o) => esbuild.context({ ...o, plugins: [...(o.plugins ?? []), reporter] })),
    );
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    console.log('[watch] watching for changes (Ctrl+C to stop)');
    return;
  }
  const started = Date.now();
  // Source maps of an earlier development build would otherwise sit beside minified bundles they don't match.
  if (production) for (const name of readdirSync(dist)) if (name.endsWith('.map')) rmSync(join(dist, name));
  await Promise.all(options.map((o) => esbuild.build(o)));
  copyAssets();
  console.log(`built ${production ? 'production' : 'development'} bundles in ${Date.now() - started} ms:`);
  printSizes();
}

main().catch((error) => {
  // esbuild already printed its diagnostics; anything else gets one clear line.
  if (!error?.errors) console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
