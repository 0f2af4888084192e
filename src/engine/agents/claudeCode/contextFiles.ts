/**
 * What the fixed part of a session's context holds on disk, read once per session: memory files, and the
 * skills and custom agents Claude Code lists (`/context` counts a skill by its name and description, an
 * agent by its type and description), from the project's and the user's `.claude` folders. Plugins' skills
 * come from the listing in the transcript instead, which current Claude Code writes.
 */
import * as path from 'node:path';
import type { DiskFacts, NamedFile } from '../contextFiles';
import { agentEntries, skillEntries } from '../markdownTools';
import type { ConfigEntry } from '../toolTypes';
import { readMemoryFiles } from './memoryFiles';

/** `claudeDir`: Claude Code's config folder, for the user's files; none leaves them out. */
export function readDiskFacts(at: { projectRoot: string; claudeDir?: string }): DiskFacts {
  const folders = [path.join(at.projectRoot, '.claude'), ...(at.claudeDir ? [at.claudeDir] : [])];
  const owner = { scope: 'project' as const, prefix: '', disabled: false };
  const listed = (entries: ConfigEntry[], line: (entry: ConfigEntry) => string): NamedFile[] =>
    entries.map((entry) => ({ name: entry.name, file: entry.source, chars: line(entry).length }));
  return {
    memory: readMemoryFiles(at.projectRoot, at.claudeDir),
    skills: listed(
      folders.flatMap((folder) => skillEntries(path.join(folder, 'skills'), owner, [])),
      (skill) => `- ${skill.name}: ${skill.description ?? ''}\n`,
    ),
    agents: listed(
      folders.flatMap((folder) => agentEntries(path.join(folder, 'agents'), owner, [])),
      (agent) => `${agent.name} ${agent.description ?? ''}`,
    ),
  };
}
