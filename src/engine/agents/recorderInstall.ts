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
 * place where it differs; returns whether anything was written.
 */
export function installRecorder(home: string, bundledRecorder: string): { path: string; updated: boolean } {
  const target = stableRecorderPath(home);
  // The recorder first: a hook starting between the two renames finds the new recorder, which any loader runs.
  const files = ['recorder.js', 'hook.js'].map((name) => ({
    from: path.join(path.dirname(bundledRecorder), name),
    to: path.join(path.dirname(target), name),
  }));
  let updated = false;
  for (const { from, to } of files) updated = copyWhenDifferent(from, to) || updated;
  return { path: target, updated };
}

function copyWhenDifferent(from: string, to: string): boolean {
  const bytes = fs.readFileSync(from);
  let current: Buffer | undefined;
  try {
    current = fs.readFileSync(to);
  } catch {
    // Not installed yet.
  }
  if (current?.equals(bytes)) return false;
  makePrivateDir(path.dirname(to));
  // Rename over the old copy: a hook starting at this moment reads either version, never half of one.
  // Hooks run it as `node hook.js`, so it needs no execute bit.
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
