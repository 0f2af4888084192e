/**
 * Where agent settings point: a stable copy of the recorder under the home folder, refreshed whenever the
 * extension updates, so a settings file never names a versioned extension folder that later disappears.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PRIVATE_FILE_MODE, makePrivateDir } from '../kernel/privateFiles';
import type { SettingsPlan } from './adapter';
import { findOnPath } from './commandOnPath';
import { writeSettingsWithBackup } from './jsoncEdit';
import { SPOOL_SCRIPT, SPOOL_SCRIPT_NAME } from './spoolCommand';

export interface RecorderRuntime {
  /** Absolute path of the Node runtime that runs the recorder. */
  node: string;
  /** True when `node` is VS Code's own Electron binary, which acts as Node only with this variable set. */
  electronRunAsNode?: boolean;
}

export function stableRecorderPath(home: string): string {
  return path.join(home, 'bin', 'hook.js');
}

/**
 * Copy the bundled recorder (`hook.js`, the loader agents run, and `recorder.js` beside it) to its stable
 * place, with the spool script the hook commands source, where each differs; returns whether anything was
 * written.
 */
export function installRecorder(home: string, bundledRecorder: string): { path: string; updated: boolean } {
  const target = stableRecorderPath(home);
  const bin = path.dirname(target);
  const bundled = (name: string) => fs.readFileSync(path.join(path.dirname(bundledRecorder), name));
  // The loader last: a hook starting between the renames finds the new recorder and script, which it runs.
  const files: Array<[string, () => Buffer]> = [
    ['recorder.js', () => bundled('recorder.js')],
    [SPOOL_SCRIPT_NAME, () => Buffer.from(SPOOL_SCRIPT)],
    ['hook.js', () => bundled('hook.js')],
  ];
  let updated = false;
  for (const [name, bytes] of files) updated = writeWhenDifferent(bytes(), path.join(bin, name)) || updated;
  return { path: target, updated };
}

function writeWhenDifferent(bytes: Buffer, to: string): boolean {
  let current: Buffer | undefined;
  try {
    current = fs.readFileSync(to);
  } catch {
    // Not installed yet.
  }
  if (current?.equals(bytes)) return false;
  makePrivateDir(path.dirname(to));
  // Rename over the old copy: a hook starting at this moment reads either version, never half of one.
  // Hooks run it as `node hook.js` or source it (`. spool.sh`), so it needs no execute bit.
  const temp = `${to}.tmp-${process.pid}`;
  fs.writeFileSync(temp, bytes, { mode: PRIVATE_FILE_MODE });
  fs.renameSync(temp, to);
  return true;
}

/** The first `node` executable on PATH, if any, links resolved: hooks name the runtime itself. */
export function findNodeOnPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const node = findOnPath('node', env);
  return node && fs.realpathSync(node);
}

/**
 * The runtime for hook commands: an absolute `node` from PATH, else the running executable. Inside VS Code
 * that is Electron, which behaves as Node only with ELECTRON_RUN_AS_NODE=1.
 */
export function recorderRuntime(
  env: NodeJS.ProcessEnv = process.env,
  execPath = process.execPath,
  runningInElectron = Boolean(process.versions.electron),
): RecorderRuntime {
  const node = findNodeOnPath(env);
  if (node) return { node };
  return runningInElectron ? { node: execPath, electronRunAsNode: true } : { node: execPath };
}

/**
 * Writes what a connect or disconnect plan changes: its file and the further files it carries (`more`), each
 * with its backup under `home`; a file the plan gives a mode (an executable hook) gets that mode. Returns the
 * backups made, in the order written.
 */
export function writeSettingsPlan(plan: SettingsPlan, home: string): string[] {
  const backups: string[] = [];
  for (const part of [plan, ...(plan.more ?? [])]) {
    if (part.after === part.before) continue;
    const backup = writeSettingsWithBackup(part.file, part.after, home);
    if (backup) backups.push(backup);
    if (part.after !== undefined && part.mode !== undefined) fs.chmodSync(part.file, part.mode);
  }
  return backups;
}
