/**
 * The settings are declared once (src/shared/settings.ts): the manifest contributes exactly those, with the
 * same defaults and bounds, and a value a workspace's settings file got wrong reads as the default.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { ESLint } from 'eslint';
import { AGENT_IDS } from '../../src/shared/agents';
import { SETTINGS, type SettingKey, contextWindowFor, readSettings } from '../../src/shared/settings';
import { REPO_ROOT } from '../support/processes';

interface Property {
  type: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  properties?: Record<string, Property>;
  markdownDescription?: string;
}

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Property> } };
};
const properties = manifest.contributes.configuration.properties;

describe('settings', () => {
  test('package.json contributes each declared setting, with its default, bounds, values and a description', () => {
    assert.deepEqual(
      Object.keys(properties).sort(),
      Object.keys(SETTINGS)
        .map((key) => `contextDeck.${key}`)
        .sort(),
    );
    for (const [key, setting] of Object.entries(SETTINGS)) {
      const property = properties[`contextDeck.${key}`];
      assert.ok(property.markdownDescription, `${key} has a description`);
      const type = { enum: 'string', perAgent: 'object' }[setting.kind as string] ?? setting.kind;
      assert.equal(property.type, type, key);
      // An empty string default is no default in the manifest (the home is resolved at run time).
      assert.deepEqual(property.default ?? '', setting.default, key);
      if (setting.kind === 'number') {
        assert.equal(property.minimum, setting.minimum, key);
        assert.equal(property.maximum, setting.maximum, key);
      }
      if (setting.kind === 'enum') assert.deepEqual(property.enum, [...setting.values], key);
      if (setting.kind === 'perAgent') {
        // Every agent, so the Settings editor offers each one and flags a misspelt id.
        assert.deepEqual(Object.keys(property.properties ?? {}), [...AGENT_IDS], key);
        for (const agent of Object.values(property.properties ?? {}))
          assert.equal(agent.minimum, setting.minimum, key);
      }
    }
  });

  test("a per-agent context window applies to that agent's sessions only; the others keep the global one", () => {
    const settings = readSettings((key) =>
      key === 'agentContextWindows'
        ? { codex: 400_000, opencode: -5, vscode: 'big', gemini: 1_000_000 }
        : key === 'contextWindow'
          ? 300_000
          : undefined,
    );
    // The wrong entries are dropped, not the whole value.
    assert.deepEqual(settings.agentContextWindows, { codex: 400_000 });
    assert.equal(contextWindowFor(settings, 'codex'), 400_000);
    assert.equal(contextWindowFor(settings, 'claude-code'), 300_000);
    assert.equal(
      contextWindowFor(
        readSettings(() => undefined),
        'codex',
      ),
      undefined,
      'inferred',
    );
    assert.deepEqual(readSettings(() => [400_000]).agentContextWindows, {});
  });

  test('a value of the wrong type or out of bounds reads as the default; a valid one as it is', () => {
    const wrong: Partial<Record<SettingKey, unknown>> = {
      'history.detailDays': 3,
      'ingest.pollIntervalSeconds': Number.NaN,
      ranking: 'alphabetical',
      'compactWarning.enabled': 'no',
      'compactWarning.promptsLeft': -1,
      'compactWarning.percent': '90',
      contextSelection: { mode: 'aggressive' },
      home: 42,
    };
    const read = readSettings((key) => wrong[key]);
    for (const key of Object.keys(wrong) as SettingKey[]) assert.equal(read[key], SETTINGS[key].default, key);
    const right = readSettings((key) =>
      key === 'history.detailDays'
        ? 90
        : key === 'ranking'
          ? 'decay'
          : key === 'compactWarning.enabled'
            ? false
            : undefined,
    );
    assert.equal(right['history.detailDays'], 90);
    assert.equal(right.ranking, 'decay');
    assert.equal(right['compactWarning.enabled'], false);
  });

  test('only src/host/editor/settings.ts reads the configuration: anywhere else lint fails, naming the module', async () => {
    const eslint = new ESLint({ cwd: REPO_ROOT });
    const source =
      "import * as vscode from 'vscode';\nexport const days = vscode.workspace.getConfiguration('contextDeck').get('history.detailDays');\n";
    const [elsewhere] = await eslint.lintText(source, {
      filePath: path.join(REPO_ROOT, 'src/host/project/days.ts'),
    });
    assert.ok(
      elsewhere.messages.some((message) => /currentSettings\(\)/.test(message.message)),
      JSON.stringify(elsewhere.messages),
    );
    const [there] = await eslint.lintText(source, {
      filePath: path.join(REPO_ROOT, 'src/host/editor/settings.ts'),
    });
    assert.deepEqual(there.messages, []);
  });
});
