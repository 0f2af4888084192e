/**
 * The top-level fields of a JSON object line read from its text, even when the line is cut short: a session
 * file's first line may carry tens of kilobytes of instructions, and its format is told by a key or two
 * that may come before or after them.
 */

/** The string at `start` (an opening quote) and the index of its closing quote; undefined if cut short. */
function stringAt(text: string, start: number): { value: string; end: number } | undefined {
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '"') {
      try {
        return { value: JSON.parse(text.slice(start, i + 1)) as string, end: i };
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The keys of the object `text` opens, in order, and the value of each whose value is a string; reading
 * stops where the text does, so a torn or cut line gives the fields before the cut.
 */
export function leadingFields(text: string): { keys: string[]; strings: Map<string, string> } {
  const keys: string[] = [];
  const strings = new Map<string, string>();
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '{') return { keys, strings };
  let depth = 0;
  let key: string | undefined;
  let afterColon = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const found = stringAt(text, i);
      if (!found) break;
      if (depth === 1) {
        if (afterColon && key !== undefined) {
          if (!strings.has(key)) strings.set(key, found.value);
          key = undefined;
        } else if (!afterColon) {
          key = found.value;
          keys.push(key);
        }
      }
      i = found.end;
    } else if (char === '{' || char === '[') {
      depth++;
    } else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) break;
    } else if (depth === 1 && char === ':') {
      afterColon = true;
    } else if (depth === 1 && char === ',') {
      key = undefined;
      afterColon = false;
    }
  }
  return { keys, strings };
}
