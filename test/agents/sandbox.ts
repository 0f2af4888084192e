/**
 * One real agent's run, as a user's machine would have it: a home of its own (the agent's settings, sessions
 * and Context Deck's `~/.context-deck` all under it), a project with a check to fix, Context Deck's CLI as
 * built for shipping, and the agent's own CLI as installed by scripts/ensure-agents.mjs.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PROJECT_FILES } from './scriptedModel';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

/** Longest an agent's run may take before it counts as hung: a failure bound, never a timed assert. */
const HANG_BOUND_MS = 180_000;

export type AgentCli = 'claude-code' | 'codex' | 'opencode' | 'cline' | 'cline-2';

interface InstalledCli {
  readonly version: string;
  readonly bin: string;
}

/** Where scripts/ensure-agents.mjs put the pinned CLI, and its version. */
export function installedCli(name: AgentCli): InstalledCli {
  const cacheRoot = process.env.CONTEXT_DECK_CACHE || path.join(os.homedir(), '.cache', 'context-deck');
  const file = path.join(cacheRoot, 'agents', 'paths.json');
  const paths = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, InstalledCli>;
  const cli = paths[name];
  if (!cli) throw new Error(`${name} is not in ${file}: run node scripts/ensure-agents.mjs`);
  return cli;
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly input?: string;
}

/** Runs a process to its end, in its own process group, killed whole at the hang bound. */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const guard = setTimeout(kill, HANG_BOUND_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      kill(); // Anything the agent left running in its group.
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Sandbox {
  readonly root: string;
  /** HOME for the agent and for Context Deck. */
  readonly home: string;
  readonly project: string;
  /** The environment every process of the run gets: this home, no colour, nothing of the caller's agents. */
  readonly env: NodeJS.ProcessEnv;
  /** Context Deck's own CLI, as shipped, in the project. */
  contextDeck(args: readonly string[]): Promise<Run>;
  /** `contextDeck` with `--json`, parsed; fails loudly with what it printed. */
  contextDeckJson<T>(args: readonly string[]): Promise<T>;
  remove(): void;
}

/** Variables of the caller's own agents and providers that must not leak into a scripted run. */
const LEAKING = /^(ANTHROPIC_|CLAUDE|OPENAI_|CODEX_|OPENCODE|CLINE|CONTEXT_DECK_)/;

export function makeSandbox(name: string): Sandbox {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `cd-agent-${name}-`)));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  for (const [file, content] of Object.entries(PROJECT_FILES))
    fs.writeFileSync(path.join(project, file), content);
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !LEAKING.test(key)),
  );
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    NO_COLOR: '1',
    TERM: 'dumb',
  });
  const contextDeck = (args: readonly string[]) =>
    run(process.execPath, [CLI, ...args], { cwd: project, env });
  return {
    root,
    home,
    project,
    env,
    contextDeck,
    async contextDeckJson<T>(args: readonly string[]): Promise<T> {
      const result = await contextDeck([...args, '--json']);
      try {
        return JSON.parse(result.stdout) as T;
      } catch {
        throw new Error(
          `context-deck ${args.join(' ')} --json exited ${result.code}: ${result.stdout}\n${result.stderr}`,
        );
      }
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
