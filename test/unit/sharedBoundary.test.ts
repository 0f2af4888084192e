/**
 * src/shared is the vocabulary every side imports: the project's lint config refuses an import of the engine or
 * the host from it or from the webview, type-only included, and names the rule when it does.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ESLint } from 'eslint';

const eslint = new ESLint();

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the shared vocabulary is the bottom layer', () => {
  test('src/shared and webview/ may not import the engine or the host, not even a type', async () => {
    const cases: Array<[string, string]> = [
      [
        'src/shared/example.ts',
        "import type { ContextBreakdown } from '../engine/transcripts/breakdownTypes';",
      ],
      ['src/shared/example.ts', "export { usageLevel } from '../engine';"],
      [
        'webview/components/Example.tsx',
        "import type { LiveProject } from '../../src/host/project/liveProject';",
      ],
      ['webview/example.ts', "import { ProjectEngine } from '../src/engine';"],
    ];
    for (const [file, code] of cases) {
      const messages = await restrictedImports(file, `${code}\n`);
      assert.equal(messages.length, 1, `${file}: ${code}`);
      assert.match(messages[0], /src\/shared and webview\/ never import src\/engine or src\/host/);
    }
  });

  test('they may import the vocabulary, and the engine and host may too', async () => {
    const cases: Array<[string, string]> = [
      ['src/shared/example.ts', "import type { ToolScope } from './tools';"],
      ['webview/example.ts', "import type { ContextForecast } from '../src/shared/context';"],
      ['src/engine/example.ts', "import type { ToolScope } from '../shared/tools';"],
      ['src/host/example.ts', "import type { ProjectEngine } from '../engine';"],
    ];
    for (const [file, code] of cases) assert.deepEqual(await restrictedImports(file, `${code}\n`), [], file);
  });
});
