/** Real child processes for tests where a hang is the failure: a kill bounds the wait, never a timed assert. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

/** Longest a child may take before it counts as hung (a failure bound only). */
export const HANG_BOUND_MS = 60_000;

export interface ChildRun {
  child: ChildProcessWithoutNullStreams;
  /** All output so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Exit code, or null when killed (e.g. at the hang bound). */
  exited: Promise<number | null>;
}

export function startChild(
  command: string,
  args: string[],
  options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; keepStdinOpen?: boolean } = {},
): ChildRun {
  const child = spawn(command, args, { env: { ...process.env, ...options.env }, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.on('error', () => undefined);
  if (options.input !== undefined) child.stdin.write(options.input);
  if (!options.keepStdinOpen) child.stdin.end();
  const guard = setTimeout(() => child.kill('SIGKILL'), HANG_BOUND_MS);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve(code);
    }),
  );
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
  };
}

/** Wait until `condition` holds, checking every 50 ms; fails after HANG_BOUND_MS. */
export async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + HANG_BOUND_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
