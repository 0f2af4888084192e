/** Keywords of a prompt and tags of a context item, the way the reference advisor compared them. */

const STOP_WORDS = new Set(
  (
    'the and for are but not you all any can had her was one our out day get has him his how man new now old see ' +
    'two way who boy did its let put say she too use that with have this will your from they know want been good ' +
    'much some time very when come here just like long make many more only over such take than them well were what ' +
    'into then there these would could should about after again also because before being between both each ' +
    'other their which while where does done please need needs lets make sure check work file files code ' +
    // Replies that carry the conversation on but say nothing of the task.
    'yes okay thanks continue proceed ahead keep going'
  ).split(' '),
);

/** Prompt keywords: lowercase words of 3+ letters, stop words removed, the first 20 distinct ones. */
export function promptKeywords(prompt: string): string[] {
  const words = prompt.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? [];
  return [...new Set(words.filter((word) => !STOP_WORDS.has(word)))].slice(0, 20);
}

/** Tags of an item: words of its name and path (camelCase and separators split) plus any given tags. */
export function itemTags(name: string, extra: readonly string[] = []): string[] {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  const words = spaced.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? [];
  const common = new Set(['src', 'lib', 'mcp', 'md', 'skill', 'skills', 'agents', 'claude', 'index', 'main']);
  const tags = [
    ...words.filter((word) => !STOP_WORDS.has(word) && !common.has(word)),
    ...extra.map((tag) => tag.toLowerCase()),
  ];
  return [...new Set(tags)];
}
