/**
 * The memory files Claude Code loads into every session of a project (code.claude.com/docs/en/memory):
 * the managed policy CLAUDE.md, the user's `CLAUDE.md` and `rules/` in its config folder, `CLAUDE.md`,
 * `.claude/CLAUDE.md` and `CLAUDE.local.md` in the project folder and every folder above it, the rules in
 * `.claude/rules/` without `paths` (those with `paths` load only beside a matching file), the files they
 * import with `@path` (at most four hops), and the first 200 lines or 25 KB of the auto memory's
 * `MEMORY.md`. Block HTML comments are stripped before injection, so they are not counted.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CONFIG_MAX_BYTES, readBounded } from '../../kernel/boundedRead';
import { FolderWalk } from '../../kernel/folderWalk';
import { readFrontMatter } from '../../kernel/frontMatter';
import type { MemoryFile } from '../contextFiles';
import { encodeProjectDir } from './transcriptFiles';

const MAX_IMPORT_HOPS = 4;
const AUTO_MEMORY_LINES = 200;
const AUTO_MEMORY_BYTES = 25 * 1024;

/** Where an organisation's managed CLAUDE.md lives, by platform. */
function managedMemoryFile(): string {
  if (process.platform === 'darwin') return '/Library/Application Support/ClaudeCode/CLAUDE.md';
  if (process.platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\CLAUDE.md';
  return '/etc/claude-code/CLAUDE.md';
}

/** A regular file's first MiB (Claude Code warns long before that): never a FIFO, a device or all of one. */
function readText(file: string): string | undefined {
  const read = readBounded(file, { maxBytes: CONFIG_MAX_BYTES, head: true });
  return 'text' in read ? read.text : undefined;
}

/** Folders from the filesystem root down to `dir`, as Claude Code orders their files. */
function foldersDownTo(dir: string): string[] {
  const folders: string[] = [];
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    folders.unshift(current);
    if (path.dirname(current) === current) return folders;
  }
}

/** `.md` files below a rules folder, in name order, links followed (each folder once, see FolderWalk). */
function ruleFiles(dir: string): string[] {
  const folders = new FolderWalk(dir, []);
  const walk = (current: string, depth: number): string[] =>
    folders.list(current).flatMap((entry) => {
      if (entry.isDirectory) return folders.tooDeep(depth + 1) ? [] : walk(entry.full, depth + 1);
      return entry.name.endsWith('.md') ? [entry.full] : [];
    });
  return walk(dir, 0);
}

/** The `@path` imports of a memory file, outside code (Claude Code does not expand those). */
function importsOf(text: string, from: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/(?:^|\s)@(~?[\w./-][^\s]*)/g)].map(([, written]) => {
    // Punctuation after a mention ends the sentence, not the path.
    const target = written.replace(/[.,;:!?)\]]+$/, '');
    return target.startsWith('~/')
      ? path.join(os.homedir(), target.slice(2))
      : path.resolve(path.dirname(from), target);
  });
}

function gitRoot(dir: string): string | undefined {
  for (const folder of foldersDownTo(dir).reverse())
    if (fs.existsSync(path.join(folder, '.git'))) return folder;
  return undefined;
}

/** The memory files of `projectRoot`, and the user's when `claudeDir` (Claude Code's config) is known. */
export function readMemoryFiles(projectRoot: string, claudeDir: string | undefined): MemoryFile[] {
  const found: MemoryFile[] = [];
  const seen = new Set<string>();
  const add = (file: string, hops: number, options: { rule?: boolean } = {}): void => {
    let real: string;
    try {
      real = fs.realpathSync(file);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    const text = readText(real);
    if (text === undefined) return;
    const { fields, body } = readFrontMatter(text);
    if (options.rule && fields.paths !== undefined) return;
    seen.add(real);
    const injected = (options.rule ? body : text).replace(/<!--[\s\S]*?-->/g, '');
    found.push({ file, chars: injected.length });
    if (hops < MAX_IMPORT_HOPS) for (const target of importsOf(injected, real)) add(target, hops + 1);
  };
  add(managedMemoryFile(), 0);
  if (claudeDir) {
    add(path.join(claudeDir, 'CLAUDE.md'), 0);
    for (const rule of ruleFiles(path.join(claudeDir, 'rules'))) add(rule, 0, { rule: true });
  }
  for (const folder of foldersDownTo(projectRoot)) {
    add(path.join(folder, 'CLAUDE.md'), 0);
    add(path.join(folder, '.claude', 'CLAUDE.md'), 0);
    for (const rule of ruleFiles(path.join(folder, '.claude', 'rules'))) add(rule, 0, { rule: true });
    add(path.join(folder, 'CLAUDE.local.md'), 0);
  }
  if (!claudeDir) return found;
  const memory = path.join(
    claudeDir,
    'projects',
    encodeProjectDir(gitRoot(projectRoot) ?? path.resolve(projectRoot)),
    'memory',
    'MEMORY.md',
  );
  const text = readText(memory);
  if (text !== undefined) {
    const head = text.split('\n').slice(0, AUTO_MEMORY_LINES).join('\n');
    found.push({ file: memory, chars: Math.min(head.length, AUTO_MEMORY_BYTES) });
  }
  return found;
}
