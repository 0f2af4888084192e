/** The text of the rejected-lines document: pure, tested without VS Code. */
import * as path from 'node:path';
import type { RejectView } from '../../shared/ingest';

/** Rejected event-log lines, newest first, each with where it was and why; `total` counts them all. */
export function renderRejects(projectName: string, total: number, rejects: RejectView[]): string {
  const lines = [
    `Context Deck: rejected event-log lines for ${projectName}`,
    total === 0
      ? 'No lines were rejected.'
      : `${total.toLocaleString('en-US')} line(s) were not valid events; they are kept here, never silently dropped.` +
        (rejects.length < total ? ` The newest ${rejects.length} are listed.` : ''),
    '',
  ];
  for (const reject of rejects) {
    lines.push(`${path.basename(reject.file)} at byte ${reject.offset}`);
    lines.push(`  file:     ${reject.file}`);
    lines.push(`  offset:   ${reject.offset}`);
    lines.push(`  reason:   ${reject.reason}`);
    lines.push(`  rejected: ${new Date(reject.rejectedAt).toISOString()}`);
    lines.push(`  sample:   ${printable(reject.sample)}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** Control characters in a sample would garble the document; show them escaped. */
function printable(sample: string): string {
  let out = '';
  for (const char of sample) {
    const code = char.charCodeAt(0);
    out +=
      (code < 0x20 && char !== '\t') || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : char;
  }
  return out;
}
