/**
 * Desktop VS Code test launcher (`npm run test:electron`). It downloads VS Code, so it cannot run on machines
 * without internet access (such as our CI, which runs the code-server test instead: `npm run test:e2e`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { build } from 'esbuild';
import { writeDemo } from '../support/demoWorkspace';

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-electron-'));
  const { home, project } = writeDemo(root);
  const suite = path.join(root, 'suite.js');
  await build({
    entryPoints: [path.join(__dirname, 'suite.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    outfile: suite,
  });
  try {
    await runTests({
      extensionDevelopmentPath: path.resolve(__dirname, '../..'),
      extensionTestsPath: suite,
      launchArgs: [project, '--disable-extensions', '--disable-workspace-trust'],
      extensionTestsEnv: { CONTEXT_DECK_HOME: home },
    });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`Desktop VS Code tests failed: ${String(error)}`);
  process.exit(1);
});
