// Long set-up steps for `npm start` and `npm test`: each says what it does and about how long it takes,
// prints a line every 30 s while it runs, and shows the command's own output only when it fails.
import { spawn } from 'node:child_process';

const HEARTBEAT_MS = 30_000;

function seconds(since) {
  return Math.round((Date.now() - since) / 1000);
}

/**
 * Runs `command`; resolves with its stdout, or rejects with the last lines of its output. With a `label` it
 * announces itself, reports every 30 s and says how long it took; with `heartbeat` it only reports.
 */
export function runStep(command, args, options = {}) {
  const { label, heartbeat } = options;
  const started = Date.now();
  if (label) console.log(`> ${label}`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      output = (output + chunk).slice(-64 * 1024);
    });
    child.stderr.on('data', (chunk) => {
      output = (output + chunk).slice(-64 * 1024);
    });
    const timer =
      label || heartbeat
        ? setInterval(() => console.log(`  ... still working (${seconds(started)} s)`), HEARTBEAT_MS)
        : undefined;
    const finish = (error) => {
      clearInterval(timer);
      if (!error) {
        if (label) console.log(`  done in ${seconds(started)} s`);
        resolve(stdout);
        return;
      }
      const tail = output.trim().split('\n').slice(-40).join('\n');
      if (tail) console.error(tail);
      reject(error);
    };
    child.on('error', finish);
    child.on('close', (code, signal) => {
      const where = options.cwd ? ` in ${options.cwd}` : '';
      finish(
        code === 0
          ? undefined
          : new Error(`\`${command} ${args.join(' ')}\` exited with ${code ?? signal}${where}`),
      );
    });
  });
}
