/**
 * `npm start`: build and package the extension, set up the local code-server (once per machine), seed a demo
 * workspace with recorded agent activity, and serve a real VS Code on 127.0.0.1 with the extension installed.
 */
import { execSync } from 'node:child_process';
import * as path from 'node:path';
import { replaceDemo } from '../test/support/demoWorkspace';
import { startCodeServer } from '../test/support/workbench';

const ROOT = path.resolve(__dirname, '..');
const DEMO_ROOT = path.join(ROOT, '.demo');
const VSIX = path.join(ROOT, 'dist', 'context-deck.vsix');
const PORT = Number(process.env.PORT ?? 8765);

function step(title: string, command: string): void {
  console.log(`\n> ${title}`);
  execSync(command, { cwd: ROOT, stdio: 'inherit' });
}

async function main(): Promise<void> {
  step('Building and packaging the extension (about 30 seconds)', 'npm run --silent package');
  step(
    'Setting up a local VS Code (code-server) and Chromium: about 5 minutes the first time, then cached',
    'node scripts/setup-code-server.mjs',
  );

  const demo = replaceDemo(DEMO_ROOT);
  console.log(`\n> Demo workspace with agent activity up to now: ${demo.project}`);
  console.log(`  Context Deck home (event log and databases): ${demo.home}`);
  console.log(`  Claude Code folder (transcripts) for the demo: ${demo.claudeDir}`);

  const server = await startCodeServer({
    vsix: VSIX,
    workspace: demo.project,
    env: { CONTEXT_DECK_HOME: demo.home, CLAUDE_CONFIG_DIR: demo.claudeDir },
    port: PORT,
    logFile: path.join(DEMO_ROOT, 'code-server.log'),
  });
  const url = `${server.url}/?folder=${encodeURIComponent(demo.project).replace(/%2F/g, '/')}`;
  console.log(
    [
      '',
      `Context Deck is running in VS Code at  ${url}`,
      '',
      '  Open it in a browser and click the Context Deck icon in the activity bar.',
      `  Append agent activity to ${path.join(demo.home, 'events')} to watch the dashboard update.`,
      '  Each `npm start` builds a new demo whose history ends at that moment.',
      '',
      '  Desktop VS Code instead: open this folder in VS Code and press F5 ("Run Extension"),',
      `  or run: CONTEXT_DECK_HOME=${demo.home} code --extensionDevelopmentPath=${ROOT} ${demo.project}`,
      '',
      'Press Ctrl+C to stop.',
    ].join('\n'),
  );
  const stop = () => {
    void server.stop().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
