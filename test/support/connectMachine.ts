/**
 * A user's machine for connecting an agent for real: the CLI and the recorder bundled side by side as they
 * ship in dist/, a user home with Context Deck's home at its default place in it, and a project.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before } from 'node:test';
import { bundleForNode } from './bundle';
import { tempWorkspace } from './events';

export interface ConnectMachine {
  ws: ReturnType<typeof tempWorkspace>;
  /** The user's home folder. */
  userHome: string;
  /** Context Deck's home, at its default place in the user's home. */
  home: string;
  /** The bundled CLI on the project, run as the user (`env` over theirs). */
  cli(env: NodeJS.ProcessEnv, ...args: string[]): SpawnSyncReturns<string>;
  /** Every file under `dir` with its bytes, Context Deck's own home left out: to compare before and after. */
  snapshot(dir: string): Record<string, string>;
}

/** The machine, set up before the file's tests and removed after them. */
export function useConnectMachine(prefix: string): ConnectMachine {
  let bin = '';
  const machine: ConnectMachine = {
    ws: undefined as unknown as ConnectMachine['ws'],
    userHome: '',
    home: '',
    cli: (env, ...args) =>
      spawnSync(
        process.execPath,
        [path.join(bin, 'cli.js'), ...args, '--home', machine.home, '--project', machine.ws.project],
        { encoding: 'utf8', env: { ...process.env, HOME: machine.userHome, CONTEXT_DECK_HOME: '', ...env } },
      ),
    snapshot: (dir) => {
      const files: Record<string, string> = {};
      const walk = (folder: string) => {
        if (!fs.existsSync(folder)) return;
        for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
          const full = path.join(folder, entry.name);
          if (full === machine.home) continue;
          if (entry.isDirectory()) walk(full);
          else files[path.relative(dir, full)] = fs.readFileSync(full, 'latin1');
        }
      };
      walk(dir);
      return files;
    },
  };
  before(async () => {
    machine.ws = tempWorkspace(prefix);
    bin = path.join(path.dirname(machine.ws.home), 'dist');
    machine.userHome = path.join(path.dirname(machine.ws.home), 'user');
    machine.home = path.join(machine.userHome, '.context-deck');
    await bundleForNode(bin, {
      cli: 'src/cli/main.ts',
      hook: 'src/hook/loader.ts',
      recorder: 'src/hook/main.ts',
    });
  });
  after(() => machine.ws.cleanup());
  return machine;
}
