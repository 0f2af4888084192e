import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { AGENT_ADAPTERS } from '../../src/engine/agents';
import { PAYLOAD_READERS } from '../../src/engine/agents/payloads';
import { AGENT_IDS, agentName } from '../../src/shared/agents';
import { REPO_ROOT } from '../support/processes';

describe('agent names', () => {
  test('a known agent by its name, an unknown id as it is', () => {
    assert.equal(agentName('claude-code'), 'Claude Code');
    assert.equal(agentName('copilot-cli'), 'GitHub Copilot CLI');
    assert.equal(agentName('some-new-agent'), 'some-new-agent');
  });

  test('an id that names a property every object has is an unknown id, not that property', () => {
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      assert.equal(agentName(id), id);
  });
});

describe('one list of agents', () => {
  test("the recorder reads each agent's payloads with that agent's own adapter reader, and knows no other", () => {
    // Every agent the shared list names has an adapter, and a reader in the recorder's light list.
    assert.deepEqual(AGENT_ADAPTERS.map((adapter) => adapter.id).sort(), [...AGENT_IDS].sort());
    assert.deepEqual(
      PAYLOAD_READERS.map((reader) => reader.agent).sort(),
      AGENT_ADAPTERS.map((adapter) => adapter.id).sort(),
    );
    for (const adapter of AGENT_ADAPTERS)
      assert.equal(
        PAYLOAD_READERS.find((reader) => reader.agent === adapter.id),
        adapter.payloads,
        adapter.id,
      );
  });
});

/** The folder of each agent's adapter under src/engine/agents/. */
const AGENT_FOLDERS: Record<string, string> = { 'claude-code': 'claudeCode', 'copilot-cli': 'copilotCli' };

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => path.join(dir, name));
}

describe('no agent is a special case', () => {
  test("outside its own folder, an agent's id is written only in the shared list and the migration that tagged old rows", () => {
    const allowed = ['src/shared/agents.ts', 'src/engine/storage/schema.ts'];
    // `vscode` is also the name of VS Code's API module, imported throughout the host.
    for (const id of AGENT_IDS.filter((agent) => agent !== 'vscode')) {
      const own = `src/engine/agents/${AGENT_FOLDERS[id] ?? id}/`;
      const naming = [...sourceFiles('src'), ...sourceFiles('webview')].filter(
        (file) =>
          !file.startsWith(own) &&
          !allowed.includes(file) &&
          new RegExp(`['"\`]${id}['"\`]`).test(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')),
      );
      assert.deepEqual(naming, [], id);
    }
  });
});
