/**
 * The context window Claude Code gives each Claude model, as its own model catalogue states it (Claude Code
 * 2.1.332: each model's `context.window`; the same figure its `-p` JSON result reports as
 * `modelUsage.<model>.contextWindow`). Models with a `[1m]` suffix or the 1M beta get 1,000,000 (see
 * contextWindow in live/contextGauge.ts). Update it with each Claude Code the real-agent suite pins.
 */

const NATIVE_1M = 1_000_000;
const STANDARD = 200_000;

/** Model ids without their date (`claude-sonnet-4-5-20250929` is `claude-sonnet-4-5`). */
const WINDOWS: ReadonlyMap<string, number> = new Map([
  ...[
    'claude-opus-5-5',
    'claude-opus-5',
    'claude-sonnet-5-5',
    'claude-sonnet-5',
    'claude-haiku-5-5',
    'claude-fable-5-2',
    'claude-fable-5-1',
    'claude-fable-5',
    'claude-mythos-5-2',
    'claude-mythos-5-1',
    'claude-mythos-5',
    'claude-opus-4-8',
    'claude-opus-4-7',
  ].map((id): [string, number] => [id, NATIVE_1M]),
  ...[
    'claude-opus-4-6',
    'claude-opus-4-5',
    'claude-opus-4-1',
    'claude-opus-4-0',
    'claude-opus-4',
    'claude-sonnet-4-6',
    'claude-sonnet-4-5',
    'claude-sonnet-4-0',
    'claude-sonnet-4',
    'claude-haiku-4-5',
  ].map((id): [string, number] => [id, STANDARD]),
]);

/** The window of `model` in Claude Code's catalogue, or undefined for a model it does not list. */
export function claudeModelWindow(model: string): number | undefined {
  const id = model
    .toLowerCase()
    .replace(/\[1m\]$/, '')
    // A provider's prefix (Bedrock's `us.anthropic.`, Vertex's `anthropic/`) and a date or version suffix.
    .replace(/^.*?(?=claude-)/, '')
    .replace(/(?:-\d{8}|@\d{8}|-v\d+(?::\d+)?)+$/, '');
  // Every Claude 3 model has the standard window.
  return WINDOWS.get(id) ?? (id.startsWith('claude-3-') ? STANDARD : undefined);
}
