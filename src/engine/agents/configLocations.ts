/** Where the agents keep the files that declare tools, for a project and a user. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { claudeConfigDirs } from './claudeCode/transcriptFiles';
import { isWithin } from '../kernel/paths';

export interface ConfigLocationOptions {
  projectRoot: string;
  /** The user's home folder (default: the real one). */
  userHome?: string;
  /** Claude Code's config folder (default: `$CLAUDE_CONFIG_DIR`, else `<userHome>/.claude`). */
  claudeDir?: string;
}

export interface ConfigLocations {
  projectRoot: string;
  userHome: string;
  claudeDir: string;
  /** Claude Code's own state file: user servers, per-project servers and approvals. */
  claudeJson: string;
}

export function configLocations(options: ConfigLocationOptions): ConfigLocations {
  const userHome = path.resolve(options.userHome ?? os.homedir());
  const claudeDir = path.resolve(
    options.claudeDir ?? (options.userHome ? path.join(userHome, '.claude') : claudeConfigDirs()[0]),
  );
  // With CLAUDE_CONFIG_DIR set, Claude Code keeps `.claude.json` inside it instead of in the home folder.
  const inConfigDir = path.join(claudeDir, '.claude.json');
  return {
    projectRoot: path.resolve(options.projectRoot),
    userHome,
    claudeDir,
    claudeJson: fs.existsSync(inConfigDir) ? inConfigDir : path.join(userHome, '.claude.json'),
  };
}

/** The project's Claude Code settings files, least specific first (later ones override). */
export function projectSettingsFiles(projectRoot: string): string[] {
  return [
    path.join(projectRoot, '.claude', 'settings.json'),
    path.join(projectRoot, '.claude', 'settings.local.json'),
  ];
}

export function userSettingsFile(locations: ConfigLocations): string {
  return path.join(locations.claudeDir, 'settings.json');
}

/** Keys under which ~/.claude.json may record this project: the path as given and its real path. */
export function projectKeys(projectRoot: string): string[] {
  let real = projectRoot;
  try {
    real = fs.realpathSync(projectRoot);
  } catch {
    // A folder that doesn't exist has only its given path.
  }
  return [...new Set([projectRoot, real])];
}

/** A short form of a config path for messages: relative to the project, or `~/...` in the home folder. */
export function displayPath(file: string, projectRoot: string, userHome: string): string {
  if (isWithin(projectRoot, file)) return path.relative(projectRoot, file) || file;
  if (isWithin(userHome, file)) return `~/${path.relative(userHome, file)}`;
  return file;
}
