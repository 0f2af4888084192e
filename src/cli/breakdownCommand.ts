import type { BreakdownItem } from '../engine';
import { numberFlag } from './args';
import type { CliCommand } from './command';
import { readActiveSession } from './gaugeCommand';
import { tableRows } from './table';

/** Items the text form lists unless --items says otherwise. */
const DEFAULT_ITEMS = 15;

const number = (value: number) => value.toLocaleString('en-US');
const figure = (measured: boolean) => (measured ? 'measured' : 'estimated');

/** An item's label, with the lines it covers when they are known (a file read in part). */
function what(item: BreakdownItem): string {
  const { line, endLine } = item.ref;
  if (line === undefined) return item.label;
  return `${item.label}:${line}${endLine !== undefined && endLine !== line ? `-${endLine}` : ''}`;
}

export const breakdownCommand: CliCommand = {
  name: 'breakdown',
  usage: 'breakdown [--json] [--transcript FILE] [--window N] [--items N] [--claude-dir DIR]',
  summary: "What fills the active session's context: by category, and its largest items",
  flags: { withValue: ['transcript', 'window', 'items', 'claude-dir'], boolean: ['json'] },
  async run(args, context) {
    const shown = numberFlag(args, 'items') ?? DEFAULT_ITEMS;
    const reading = await readActiveSession(args, context);
    const { breakdown } = reading;
    if (args.flags.has('json')) {
      context.stdout(
        JSON.stringify({
          transcript: reading.transcript,
          sessionId: reading.sessionId,
          model: reading.model,
          ...breakdown,
        }),
      );
      return 0;
    }
    const share = (tokens: number) => `${((100 * tokens) / breakdown.window).toFixed(1)}%`;
    const categories = breakdown.categories.map((category) => [
      category.name.replace(/_/g, ' '),
      number(category.tokens),
      share(category.tokens),
      figure(category.measured),
    ]);
    const items = breakdown.items
      .slice(0, shown)
      .map((item) => [number(item.tokens), item.kind.replace(/_/g, ' '), figure(item.measured), what(item)]);
    context.stdout(
      [
        `ctx ${reading.percent}% (${number(breakdown.total)} / ${number(breakdown.window)} tokens), ` +
          `autocompact at ${number(breakdown.autocompactAt)}` +
          `${breakdown.fromContextCommand ? ', fixed part from /context' : ''}; session ${reading.sessionId ?? '?'}`,
        '',
        ...tableRows([['category', 'tokens', 'share', 'figure'], ...categories]),
        '',
        `largest items (${Math.min(shown, breakdown.items.length)} of ${breakdown.itemCount})`,
        ...(items.length ? tableRows([['tokens', 'kind', 'figure', 'what'], ...items]) : ['none yet']),
      ].join('\n'),
    );
    return 0;
  },
};
