/** The commands the host declares are exactly the ones the manifest contributes, and its menus name no other. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { AGENT_ADAPTERS } from '../../src/engine/agents';
import { COMMAND_IDS, DASHBOARD_VIEW_ID, VSCODE_COMMANDS } from '../../src/host/editor/commandIds';

interface Manifest {
  activationEvents: string[];
  contributes: {
    commands: Array<{ command: string }>;
    menus: Record<string, Array<{ command: string }>>;
    keybindings: Array<{ command: string }>;
    views: Record<string, Array<{ id: string }>>;
  };
}

const manifest = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'),
) as Manifest;
const declared = new Set<string>(COMMAND_IDS);

describe('host commands and package.json', () => {
  test("a workspace with any agent's files activates the extension: one event per trace an adapter declares", () => {
    const traces = [...new Set(AGENT_ADAPTERS.flatMap((adapter) => adapter.traces.project))];
    assert.deepEqual(
      [...manifest.activationEvents].sort(),
      traces.map((trace) => `workspaceContains:${trace}`).sort(),
    );
  });

  test('every contributed command is declared, and every declared one contributed', () => {
    const contributed = manifest.contributes.commands.map((entry) => entry.command);
    assert.deepEqual(
      contributed.filter((id) => !declared.has(id)),
      [],
      'contributed in package.json but not in COMMAND_IDS',
    );
    assert.deepEqual(
      COMMAND_IDS.filter((id) => !contributed.includes(id)),
      [],
      'in COMMAND_IDS but not contributed in package.json',
    );
    assert.equal(declared.size, COMMAND_IDS.length, 'an id is declared twice');
  });

  test('menus and keybindings name declared commands only', () => {
    const referenced = [
      ...Object.values(manifest.contributes.menus).flat(),
      ...manifest.contributes.keybindings,
    ].map((entry) => entry.command);
    assert.ok(referenced.length > 0);
    assert.deepEqual(
      referenced.filter((id) => !declared.has(id)),
      [],
    );
  });

  test('the dashboard view whose focus command the host runs is the one contributed', () => {
    const views = Object.values(manifest.contributes.views)
      .flat()
      .map((view) => view.id);
    assert.ok(views.includes(DASHBOARD_VIEW_ID));
    assert.equal(VSCODE_COMMANDS.focusDashboard, `${DASHBOARD_VIEW_ID}.focus`);
  });
});
