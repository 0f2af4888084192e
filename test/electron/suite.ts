// Runs inside desktop VS Code's extension host; bundled by runTests.ts because VS Code loads plain JS.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function run(): Promise<void> {
  const extension = vscode.extensions.all.find((candidate) => candidate.packageJSON.name === 'context-deck');
  assert.ok(extension, 'the extension is installed');
  await extension.activate();
  const commands = await vscode.commands.getCommands(true);
  for (const id of ['contextDeck.showDashboard', 'contextDeck.ingestNow', 'contextDeck.showRejects']) {
    assert.ok(commands.includes(id), `${id} is registered`);
  }
  await vscode.commands.executeCommand('contextDeck.showDashboard');
  // The demo workspace's events end up in the project's saved snapshot.
  const projects = path.join(process.env.CONTEXT_DECK_HOME ?? '', 'projects');
  await waitFor(
    () =>
      fs.existsSync(projects) &&
      fs.readdirSync(projects).some((id) => fs.existsSync(path.join(projects, id, 'db.sqlite'))),
  );
}
