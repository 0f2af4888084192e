/**
 * Every text the dashboard renders is what a reader sees. Preact already keeps markup in names as text; this
 * keeps a bidi override (`invoice<U+202E>gpj.exe` shown as `invoiceexe.jpg`), an escape sequence or an
 * invisible character in a file, tool, skill or server name from hiding or reordering what it says.
 */
import { visibleLine } from '../src/shared/visibleText';

/**
 * Each line of `text` as visibleLine makes it, with a space kept at either end: JSX makes the space between
 * two expressions a text of its own. Line breaks stay for the few texts shown with their lines.
 */
export function shownText(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const shown = visibleLine(line);
      if (!shown) return line ? ' ' : '';
      return `${/^\s/.test(line) ? ' ' : ''}${shown}${/\s$/.test(line) ? ' ' : ''}`;
    })
    .join('\n');
}
