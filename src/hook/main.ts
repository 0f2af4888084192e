/**
 * The recorder: Claude Code runs `node <home>/bin/hook.js [--home DIR]` for each hook event. It appends the
 * payload (redacted, capped, stamped under `_cd`) to `<home>/events/<UTC date>.jsonl` with one write, and
 * prints nothing, except on SessionStart, where it prints the project's session-start context, and on a
 * prompt for which the host left a line about the coming compaction (agentHint.ts), which it hands on once.
 * Whatever happens it exits 0 (a hook must never hurt the agent), with one exception: when stdin stays open
 * with no whole payload until the wait runs out, it records what arrived and ends itself with SIGKILL, since
 * a process with a read still waiting cannot exit (see stdin.ts).
 *
 * Dependency-free on purpose (node built-ins and a few small engine modules): it starts on every tool call.
 * Agents run it through hook.js (loader.ts), which keeps a code cache of it.
 */
import { writeSync } from 'node:fs';
import { version } from '../../package.json';
import {
  appendEventLine,
  buildRecord,
  claimEvent,
  MAX_INPUT_BYTES,
  readsHookOutput,
  resolveHome,
  takeAgentHint,
} from '../engine/recorder';
import { note } from './note';
import { readStdin } from './stdin';

/** Longest wait for stdin to close; Claude Code closes it right after writing the payload. */
const STDIN_TIMEOUT_MS = 3000;

interface HookArgs {
  home?: string;
  agent?: string;
}

function parseArgs(argv: string[]): HookArgs {
  const args: HookArgs = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (name !== '--home' && name !== '--agent') continue;
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') continue;
    if (name === '--home') args.home = value;
    else args.agent = value;
  }
  return args;
}

function timeoutMs(): number {
  const fromEnv = Number(process.env.CONTEXT_DECK_HOOK_STDIN_TIMEOUT_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : STDIN_TIMEOUT_MS;
}

/** Whether the process must end itself: a read of stdin is still waiting (see `StdinRead.readPending`). */
let stdinStillWaiting = false;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const input = await readStdin(MAX_INPUT_BYTES, timeoutMs());
  stdinStillWaiting = input.readPending;
  const receivedAt = new Date();
  const home = resolveHome(args.home, process.env);
  const record = buildRecord({
    data: input.data,
    totalBytes: input.totalBytes,
    timedOut: input.timedOut,
    readError: input.error,
    receivedAt,
    agent: args.agent,
    version,
  });
  // A copy of an event another recorder process has claimed: recorded (and answered) once already.
  if (record.duplicateKey !== undefined && !claimEvent(home, record.duplicateKey)) return;
  try {
    appendEventLine(home, record.line, receivedAt);
  } catch (error) {
    note(error);
  }
  if (record.kind === 'session-start' && (!record.agent || readsHookOutput(record.agent))) {
    // Loaded only here: finding the project's context file costs a few milliseconds no other event should pay.
    const { findSessionContext, sessionStartOutput } = await import('./sessionContextReader.js');
    const found = findSessionContext(home, record.cwd ?? process.cwd(), record.source === 'compact');
    const output = found && sessionStartOutput(found.text);
    if (output) await writeStdout(output);
  }
  if (record.kind === 'prompt' && record.sessionId && (!record.agent || readsHookOutput(record.agent))) {
    const hint = takeAgentHint(home, record.sessionId);
    if (hint)
      await writeStdout(
        JSON.stringify({
          hookSpecificOutput: { hookEventName: record.event ?? 'UserPromptSubmit', additionalContext: hint },
        }),
      );
  }
}

/** Synchronous where possible; a non-blocking pipe that is full gets the stream and its flush is awaited. */
function writeStdout(text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
    return Promise.resolve();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return Promise.reject(error);
    return new Promise((resolve) => process.stdout.write(bytes.subarray(written), () => resolve()));
  }
}

function end(): void {
  if (!stdinStillWaiting) process.exit(0);
  note(`stdin was still open after ${timeoutMs()} ms: recorded what had arrived`);
  process.kill(process.pid, 'SIGKILL');
}

process.on('uncaughtException', (error) => {
  note(error);
  end();
});
main().then(end, (error: unknown) => {
  note(error);
  end();
});
