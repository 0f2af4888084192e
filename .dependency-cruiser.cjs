/**
 * The import rules of src/ and webview/, checked by `npm run lint` (dependency-cruiser). ARCHITECTURE.md draws
 * the same picture. Type-only imports count: a type that a lower layer needs is declared in that layer.
 */

/** The engine's layers, bottom first: a folder imports only the folders before it (and src/shared). */
const ENGINE_LAYERS = [
  ['kernel', 'paths, files read with bounds, private files, steps, yielding, hashing, the sql.js loader'],
  ['redact', 'the table of redaction rules'],
  ['events', 'the event vocabulary: a line of the event log, and appending one'],
  ['agents', 'one adapter per agent: its hook payloads, session files, transcripts and tool configs'],
  ['storage', 'the database: schema, store, snapshots, the writer lock'],
  ['memory', 'observations and sessions: their writer and their queries'],
  ['registry', 'the tool registry: config scan, discovery from use, ranking, server switches'],
  ['history', 'folding old history'],
  ['log', 'ingest: the event log read into the database'],
  ['transcripts', "ingest of past sessions: Claude Code's transcripts and the other agents' session files"],
  ['live', 'the live context window: gauge, breakdown, forecast'],
  ['context', 'what the next session starts with, and what the agent is told'],
  ['pruning', 'advice on what to drop from the context'],
  ['project', 'the project facade: one project, its lifetime and its derived views'],
  ['workers', 'entry scripts of worker threads and the catch-up child process'],
];

/**
 * The host's folders are layers too, bottom first. Its top-level files (extension.ts and the features it
 * wires: the status bar, the compact warning, the memory server, the profiler) may import any of them; no
 * folder imports a top-level file.
 */
const HOST_LAYERS = [
  ['views', 'pure view builders and text for the dashboard, documents and pickers: no vscode import'],
  ['editor', 'VS Code glue every feature uses: the log, settings, command ids, trust, previewed edits'],
  ['project', 'one open project: its engine, ingest, gauge, tools, next context and advice'],
  ['documents', 'read-only documents: memory, rejected lines, previews'],
  ['commands', 'the palette commands, a class per feature'],
  ['dashboard', 'the sidebar webview: its provider and the handlers of its messages'],
];

const hostLayerRules = HOST_LAYERS.map(([name, holds], index) => {
  const above = HOST_LAYERS.slice(index + 1).map(([upper]) => upper);
  return {
    name: `host-layer-${name}`,
    comment: `src/host/${name}/ (${holds}) imports only the host folders below it${above.length ? `, never ${above.join(', ')},` : ''} nor a top-level host file`,
    severity: 'error',
    from: { path: `^src/host/${name}/` },
    to: { path: [...(above.length ? [`^src/host/(${above.join('|')})/`] : []), '^src/host/[^/]+\\.ts$'] },
  };
});

const layerRules = ENGINE_LAYERS.slice(0, -1).map(([name, holds], index) => {
  const above = ENGINE_LAYERS.slice(index + 1).map(([upper]) => upper);
  return {
    name: `engine-layer-${name}`,
    comment: `src/engine/${name}/ (${holds}) imports only the layers below it, never ${above.join(', ')}, nor the facades src/engine/index.ts and recorder.ts`,
    severity: 'error',
    from: { path: `^src/engine/${name}/` },
    to: { path: [`^src/engine/(${above.join('|')})/`, '^src/engine/[^/]+\\.ts$'] },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle anywhere in src/ or webview/ (type-only imports included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    ...hostLayerRules,
    {
      name: 'agents-apart',
      comment:
        "One agent's folder (src/engine/agents/<agent>/) never imports another's: what two agents share lives in src/engine/agents/ itself.",
      severity: 'error',
      from: { path: '^src/engine/agents/([^/]+)/' },
      to: { path: '^src/engine/agents/[^/]+/', pathNot: '^src/engine/agents/$1/' },
    },
    {
      name: 'agents-through-their-list',
      comment:
        "Outside src/engine/agents/, an agent is reached through the adapter list (src/engine/agents/index.ts) and the shared modules of agents/, never by importing an agent's folder: the engine, host and CLI name no agent.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/engine/agents/' },
      to: { path: '^src/engine/agents/[^/]+/' },
    },
    {
      name: 'engine-workers-are-entries',
      comment:
        'src/engine/workers/ holds entry scripts, bundled on their own and started by path: nothing imports them.',
      severity: 'error',
      from: {},
      to: { path: '^src/engine/workers/' },
    },
    {
      name: 'engine-through-its-facade',
      comment:
        'The host, the CLI and the MCP server reach the engine through src/engine/index.ts; the hook recorder, which starts on every hook call, through src/engine/recorder.ts. The store and its SQL stay inside src/engine.',
      severity: 'error',
      from: { path: '^src/(host|cli|mcp|hook)/' },
      to: { path: '^src/engine/', pathNot: ['^src/engine/index\\.ts$', '^src/engine/recorder\\.ts$'] },
    },
    {
      name: 'hook-recorder-only',
      comment:
        'The hook recorder loads only src/engine/recorder.ts: the full engine would cost every hook call its load time.',
      severity: 'error',
      from: { path: '^src/hook/' },
      to: { path: '^src/engine/index\\.ts$' },
    },
    {
      name: 'engine-below-its-users',
      comment:
        'The engine runs in the host, the CLI, the MCP server, workers and tests: it never imports them.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^(src/(host|cli|mcp|hook)|webview)/' },
    },
    {
      name: 'engine-not-the-dashboard-contract',
      comment:
        "The engine speaks the shared vocabulary (src/shared/tools.ts, context.ts, ingest.ts...); what the dashboard receives and sends (src/shared/protocol.ts) is the host's to build.",
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/shared/(protocol|webviewMessages|messageTable)\\.ts$' },
    },
    {
      name: 'shared-at-the-bottom',
      comment:
        'src/shared is the vocabulary that the engine, the host and the webview share: it imports none of them.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^(src/(engine|host|cli|mcp|hook)|webview)/' },
    },
    {
      name: 'webview-apart',
      comment:
        'The webview runs in the browser: it talks to the host only through messages declared in src/shared/protocol.ts.',
      severity: 'error',
      from: { path: '^webview/' },
      to: { path: '^src/(engine|host|cli|mcp|hook)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|test-output)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
