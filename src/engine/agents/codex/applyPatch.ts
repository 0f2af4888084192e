/**
 * Codex's `apply_patch` envelope (codex-rs/apply-patch grammar): `*** Begin Patch`, then per file
 * `*** Add File: <path>` (every line `+`), `*** Delete File: <path>`, or `*** Update File: <path>` with an
 * optional `*** Move to: <path>` and `@@` hunks of ` `/`-`/`+` lines, then `*** End Patch`.
 */

export interface PatchHunk {
  /** The hunk's context and removed lines, as the file had them. */
  before: string;
  /** Its context and added lines, as the patch leaves them. */
  after: string;
}

export interface PatchFile {
  op: 'add' | 'delete' | 'update';
  path: string;
  /** An update's new path, when it also renames the file. */
  moveTo?: string;
  /** An added file's content. */
  content?: string;
  hunks: PatchHunk[];
}

const FILE_HEADER = /^\*\*\* (Add|Delete|Update) File: (.+)$/;

function finishHunk(file: PatchFile | undefined, before: string[], after: string[]): void {
  if (file && (before.length > 0 || after.length > 0))
    file.hunks.push({ before: before.join('\n'), after: after.join('\n') });
}

/** The files a patch touches, in order; an empty list for text that is no patch. Never throws. */
export function parseApplyPatch(text: string): PatchFile[] {
  const files: PatchFile[] = [];
  let file: PatchFile | undefined;
  let added: string[] = [];
  let before: string[] = [];
  let after: string[] = [];
  const close = () => {
    if (file?.op === 'add') file.content = added.length > 0 ? `${added.join('\n')}\n` : '';
    finishHunk(file, before, after);
    added = [];
    before = [];
    after = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const header = FILE_HEADER.exec(line);
    if (header) {
      close();
      const op = header[1] === 'Add' ? 'add' : header[1] === 'Delete' ? 'delete' : 'update';
      file = { op, path: header[2].trim(), hunks: [] };
      files.push(file);
      continue;
    }
    if (line.startsWith('*** Move to: ')) {
      if (file) file.moveTo = line.slice('*** Move to: '.length).trim();
      continue;
    }
    if (line.startsWith('*** ')) {
      // Begin/End Patch, End of File: structure, not content.
      if (line === '*** End Patch') {
        close();
        file = undefined;
      }
      continue;
    }
    if (!file) continue;
    if (file.op === 'add') {
      if (line.startsWith('+')) added.push(line.slice(1));
    } else if (file.op === 'update') {
      if (line.startsWith('@@')) {
        finishHunk(file, before, after);
        before = [];
        after = [];
      } else if (line.startsWith('-')) before.push(line.slice(1));
      else if (line.startsWith('+')) after.push(line.slice(1));
      else if (line.startsWith(' ') || line === '') {
        before.push(line.slice(1));
        after.push(line.slice(1));
      }
    }
  }
  close();
  return files;
}
