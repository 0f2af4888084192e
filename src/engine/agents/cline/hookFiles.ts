/**
 * Connecting Cline: an executable file per hook, named after the hook, in the workspace's `.clinerules/hooks/`
 * or the global `~/Documents/Cline/Hooks/` (cline/cline v3.89.2 `core/hooks/utils.ts` resolveHooksDirectory,
 * `core/storage/disk.ts` GlobalFileNames.hooksDir). On Linux and macOS Cline runs `<Hook>` through the shell
 * when it is executable (`hook-factory.ts` findUnixHook: stat + X_OK), on Windows `<Hook>.ps1` with
 * PowerShell (findWindowsHook); the payload arrives on stdin and the working folder is the workspace root
 * (`determineHookCwd`). Each file runs the `sh` spool command the other agents' hooks run; TaskStart and
 * TaskResume then print the session context as `{"contextModification": …}`, which Cline adds to the
 * conversation (HookOutput in `proto/cline/hooks.proto`). Whether Cline runs hooks at all is its
 * `hooksEnabled` setting (on by default since 3.36).
 *
 * A hook file is ours by its marker line: Connect creates the files (0700) and refuses to replace a file of
 * that name that is not ours (Cline runs one file per hook and folder); Disconnect removes exactly ours.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { HookInstaller, SettingsPlan } from '../adapter';
import { readSettingsText } from '../jsoncEdit';
import { recorderFromCommand } from '../recorderCommand';
import { type SpoolOutput, spoolCommandFor } from '../spoolCommand';

export type ClineHookScope = 'project' | 'user';

const CLINE_HOOK_SCOPES: readonly ClineHookScope[] = ['project', 'user'];

/** The hooks we record (VALID_HOOK_TYPES in `core/hooks/utils.ts`, less PreToolUse and Notification). */
const CLINE_RECORDED_HOOKS = [
  'TaskStart',
  'TaskResume',
  'UserPromptSubmit',
  'PostToolUse',
  'PreCompact',
  'TaskComplete',
  'TaskCancel',
] as const;

type ClineHook = (typeof CLINE_RECORDED_HOOKS)[number];

/** What marks a hook file as Context Deck's. */
const MARKER = '# Context Deck records this Cline hook';

/** Owner only, executable: Cline runs a hook file only when it may execute it. */
const CLINE_HOOK_MODE = 0o700;

function clineHooksDir(scope: ClineHookScope, projectRoot: string, userHome: string): string {
  return scope === 'project'
    ? path.join(projectRoot, '.clinerules', 'hooks')
    : path.join(userHome, 'Documents', 'Cline', 'Hooks');
}

function hookFile(dir: string, hook: ClineHook, platform: NodeJS.Platform): string {
  return path.join(dir, platform === 'win32' ? `${hook}.ps1` : hook);
}

/** The hook a file of ours is for, from its name. */
function hookOfFile(file: string): ClineHook | undefined {
  const name = path.basename(file).replace(/\.ps1$/, '');
  return (CLINE_RECORDED_HOOKS as readonly string[]).includes(name) ? (name as ClineHook) : undefined;
}

function isClineHookFile(text: string | undefined): boolean {
  return text !== undefined && text.includes(MARKER);
}

function printsContext(hook: ClineHook): boolean {
  return hook === 'TaskStart' || hook === 'TaskResume';
}

function outputOf(hook: ClineHook): SpoolOutput {
  if (hook === 'UserPromptSubmit') return 'prompt-hint-cline';
  // CLI 3.0 drops what TaskStart prints: its first tool call hands the context on instead.
  if (hook === 'PostToolUse') return 'first-tool-context';
  return printsContext(hook) ? 'context-modification' : 'none';
}

/** A PowerShell string literal: single quotes, a quote inside doubled. */
function psQuote(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * The PowerShell hook: the node recorder with the payload from stdin (`--agent cline`), its session context
 * handed on as Cline reads it. For the portable command, the recorder is looked for as the `sh` command does.
 */
function powerShellBody(hook: ClineHook, command: string): string {
  const recorder = recorderFromCommand(command);
  const find = recorder
    ? `${recorder.electronRunAsNode ? "$env:ELECTRON_RUN_AS_NODE = '1'; " : ''}$node = ${psQuote(recorder.node)}; $h = ${psQuote(recorder.hook)}; $a = @(${recorder.home ? `'--home', ${psQuote(recorder.home)}, ` : ''}'--agent', 'cline')`
    : "$node = 'node'; $h = if ($env:CONTEXT_DECK_HOME) { $env:CONTEXT_DECK_HOME } else { Join-Path $HOME '.context-deck' }; $h = Join-Path $h 'bin\\hook.js'; $a = @('--agent', 'cline'); if (-not (Get-Command node -ErrorAction SilentlyContinue)) { exit 0 }";
  // The node recorder prints Claude Code's shape: its context (or a prompt's line) goes on as Cline's.
  const print =
    printsContext(hook) || hook === 'UserPromptSubmit'
      ? [
          'try {',
          '  $j = ($o | Out-String) | ConvertFrom-Json',
          '  if ($j.hookSpecificOutput.additionalContext) { @{ contextModification = $j.hookSpecificOutput.additionalContext } | ConvertTo-Json -Compress }',
          '} catch { }',
        ]
      : [];
  return [
    `${MARKER} (${hook}): Context Deck's Connect wrote this file, Disconnect removes it.`,
    find,
    'if (-not (Test-Path $h)) { exit 0 }',
    '$p = [Console]::In.ReadToEnd()',
    '$o = $p | & $node $h @a',
    ...print,
    'exit 0',
    '',
  ].join('\n');
}

/** The file's text: `sh` spooling the payload (and, at a task's start, printing its context). */
function clineHookText(hook: ClineHook, command: string, platform: NodeJS.Platform): string {
  if (platform === 'win32') return powerShellBody(hook, command);
  const output = outputOf(hook);
  return [
    '#!/bin/sh',
    `${MARKER} (${hook}): Context Deck's Connect wrote this file, Disconnect removes it.`,
    spoolCommandFor(command, output, platform),
    '',
  ].join('\n');
}

class ForeignClineHookError extends Error {
  constructor(readonly file: string) {
    super(
      `${file} exists and is not Context Deck's hook (Cline runs one file per hook); it was left untouched`,
    );
  }
}

/** The current text of each of the hook files beside `file` (its own from `before`). */
function filesOf(file: string, before: string | undefined, platform: NodeJS.Platform) {
  const dir = path.dirname(file);
  return CLINE_RECORDED_HOOKS.map((hook) => {
    const own = hookFile(dir, hook, platform);
    return { hook, file: own, before: own === file ? before : readSettingsText(own) };
  });
}

/** One plan of several files: the first is `file`'s, the rest ride along in `more`. */
function combined(file: string, before: string | undefined, parts: SettingsPlan[]): SettingsPlan {
  const own = parts.find((part) => part.file === file) ?? { file, before, after: before, changes: [] };
  const more = parts.filter((part) => part !== own);
  return {
    ...own,
    changes: parts.flatMap((part) => part.changes),
    ...(more.length ? { more } : {}),
  };
}

function installer(platform: NodeJS.Platform): HookInstaller<ClineHookScope> {
  const settingsPath = (scope: ClineHookScope, projectRoot: string, userHome: string) =>
    hookFile(clineHooksDir(scope, projectRoot, userHome), 'TaskStart', platform);

  const planConnect = (file: string, before: string | undefined, command: string): SettingsPlan => {
    const files = filesOf(file, before, platform);
    const foreign = files.find((entry) => entry.before !== undefined && !isClineHookFile(entry.before));
    if (foreign) throw new ForeignClineHookError(foreign.file);
    const commands: Record<string, string> = {};
    const parts = files.map(({ hook, file: own, before: text }): SettingsPlan => {
      const after = clineHookText(hook, command, platform);
      commands[hook] = platform === 'win32' ? command : spoolCommandFor(command, outputOf(hook), platform);
      const changes =
        text === after
          ? []
          : [`${text === undefined ? 'add' : 'update'} the Context Deck hook file ${path.basename(own)}`];
      return { file: own, before: text, after, changes, mode: CLINE_HOOK_MODE };
    });
    // A hook that only records first: what `hooks install` shows as the hook command.
    const ordered = Object.fromEntries(
      Object.entries(commands).sort(
        ([a], [b]) =>
          Number(outputOf(a as ClineHook) !== 'none') - Number(outputOf(b as ClineHook) !== 'none'),
      ),
    );
    return { ...combined(file, before, parts), commands: ordered };
  };

  const planDisconnect = (file: string, before: string | undefined): SettingsPlan => {
    const parts = filesOf(file, before, platform).map(({ file: own, before: text }): SettingsPlan =>
      isClineHookFile(text)
        ? {
            file: own,
            before: text,
            after: undefined,
            changes: [`remove the Context Deck hook file ${path.basename(own)}`],
          }
        : { file: own, before: text, after: text, changes: [] },
    );
    return combined(file, before, parts);
  };

  return {
    scopes: CLINE_HOOK_SCOPES,
    describeScope: (scope) =>
      scope === 'project'
        ? 'Everyone working in this project: hook files in .clinerules/hooks/ (commit them)'
        : 'You, in every project: hook files in ~/Documents/Cline/Hooks/',
    settingsPath,
    planConnect,
    planDisconnect,
    isConnected: (file, text) => {
      if (hookOfFile(file) === undefined) return false;
      try {
        return filesOf(file, text, platform).every((entry) => isClineHookFile(entry.before));
      } catch {
        return false;
      }
    },
    afterConnect:
      'Cline runs hook files while its hooks setting (hooksEnabled, on unless turned off) is on, from its next task. ' +
      // CLI 3.0.65 runs TaskStart and UserPromptSubmit detached with their output ignored (@cline/core
      // hook-file-hooks: `blockingRunStartHooks`, which the CLI never sets) and no UserPromptSubmit for its prompt;
      // a PostToolUse's contextModification reaches the model before its next request.
      "Cline's CLI 3.0 does not pass a hook's context to its model at a task's start: it is handed the session " +
      'context after its first tool call instead.',
  };
}

/** Cline's hook installer for `platform` (the running one by default). */
export function clineHookInstaller(platform: NodeJS.Platform = os.platform()): HookInstaller<ClineHookScope> {
  return installer(platform);
}

export const clineHooks: HookInstaller<ClineHookScope> = installer(process.platform);
