/**
 * MCP servers declared as the members of one object in JSON config files (VS Code's `servers`, opencode's
 * `mcp`): one reader for both, so that each gets the bounded read (a project's file only inside the project),
 * the duplicate-key warnings and the problems of a file that does not parse.
 */
import type { ConfigFileProblem } from '../../shared/tools';
import { type JsonConfig, readJsonConfig } from '../kernel/jsonConfig';
import type { DeclaredServer } from './adapter';
import { type Json, isObject } from './jsonValues';

export interface ServerConfigFile {
  file: string;
  scope: DeclaredServer['scope'];
}

/** What an agent makes of one server's entry. */
export type ServerFields = (server: Json) => Pick<DeclaredServer, 'description' | 'disabled'>;

export function serversInJsonFiles(
  files: readonly ServerConfigFile[],
  projectRoot: string,
  key: string,
  fields: ServerFields,
): { servers: DeclaredServer[]; problems: ConfigFileProblem[] } {
  const servers: DeclaredServer[] = [];
  const problems: ConfigFileProblem[] = [];
  for (const { file, scope } of files) {
    const read = readJsonConfig(file, { within: scope === 'project' ? projectRoot : undefined });
    if ('missing' in read) continue;
    if ('problem' in read) {
      problems.push({ file, message: read.problem });
      continue;
    }
    const declared = read.config.valueAt([key]);
    if (declared === undefined) continue;
    if (!isObject(declared)) {
      problems.push({ file, message: `"${key}" is not an object` });
      continue;
    }
    for (const member of read.config.membersAt([key])) {
      const server = isObject(member.value) ? member.value : {};
      servers.push({ name: member.key, file, line: member.line, scope, ...fields(server) });
    }
    problems.push(...read.config.warnings.map((warning) => ({ file, ...warning })));
  }
  return { servers, problems };
}

/** A config file as the server switches read it: its config, none (missing), or why it cannot be read. */
export function readConfig(file: string): { config?: JsonConfig; problem?: string } {
  const read = readJsonConfig(file);
  if ('config' in read) return { config: read.config };
  return 'problem' in read ? { problem: read.problem } : {};
}

/** Whether `file` declares `server` as a member of the object at `jsonPath`. */
export function declaresServer(file: string, jsonPath: string[], server: string): boolean {
  return isObject(readConfig(file).config?.valueAt([...jsonPath, server]));
}
