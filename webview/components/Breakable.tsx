import { Fragment } from 'preact';

/**
 * After these a long path, URL, command or tool name may wrap: `mcp__github__` | `search_issues`. Not after a
 * dot: `legacyReport.` | `ts` reads as two words.
 */
const BREAK_AFTER = /([/\\_\-?&=:,]+)/;

/**
 * Text that wraps at its natural separators rather than mid-word when it is wider than the sidebar. The text
 * stays text: it is split into strings with `<wbr>` between them, never parsed as markup.
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(BREAK_AFTER);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <Fragment key={i}>
            {part}
            <wbr />
          </Fragment>
        ) : (
          part
        ),
      )}
    </>
  );
}
