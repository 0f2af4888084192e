// Runs inside desktop VS Code's extension host (plain JS: loaded by VS Code, not by tsx).
const assert = require('node:assert/strict');
const vscode = require('vscode');

async function waitFor(check, timeoutMs = 20000) {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

exports.run = async function run() {
  const extension = vscode.extensions.all.find((candidate) => candidate.packageJSON.name === 'context-deck');
  assert.ok(extension, 'the extension is installed');
  await extension.activate();
  const commands = await vscode.commands.getCommands(true);
  for (const id of ['contextDeck.showDashboard', 'contextDeck.ingestNow', 'contextDeck.showRejects']) {
    assert.ok(commands.includes(id), `${id} is registered`);
  }
  await vscode.commands.executeCommand('contextDeck.showDashboard');
  // The demo workspace's events are ingested into the project's snapshot.
  const fs = require('node:fs');
  const path = require('node:path');
  const home = process.env.CONTEXT_DECK_HOME;
  await waitFor(() => {
    const projects = path.join(home, 'projects');
    return (
      fs.existsSync(projects) &&
      fs.readdirSync(projects).some((id) => fs.existsSync(path.join(projects, id, 'db.sqlite')))
    );
  });
};
