/** Secrets that span lines: `<private>` spans, PEM private keys, the data of a Kubernetes Secret. */
import { type Rule, whole } from './ruleShape';
import { isPlaceholder, marker } from './valueChecks';

const K8S_KIND = /\bkind\\?["']?[ \t]*:[ \t]*\\?["']?Secret\b/;

/** The YAML document (between `---` lines) around `offset`, or the whole text for JSON. */
function documentAround(input: string, offset: number): string {
  const start = input.lastIndexOf('\n---', offset);
  const end = input.indexOf('\n---', offset);
  return input.slice(Math.max(0, start), end < 0 ? input.length : end);
}

/** A YAML scalar without its quotes. */
const unquoted = (value: string) => value.replace(/^(["'])(.*)\1$/, '$2');

/** The entries of a Secret's `data:` block: every value goes; a block scalar's lines go whole. */
function redactDataBlock(block: string, kind: string): string {
  return block.replace(/^([ \t]+)(\S[^\r\n]*)/gm, (line, indent: string, content: string) => {
    if (isPlaceholder(content)) return line;
    const entry = /^([^:\s[][^:]*:)([ \t]*)(.*)$/.exec(content);
    if (!entry) return indent + marker(kind);
    const [, key, gap, value] = entry;
    const scalar = unquoted(value);
    return scalar === '' || /^[|>][-+]?$/.test(value) || isPlaceholder(scalar)
      ? line
      : `${indent}${key}${gap}${marker(kind)}`;
  });
}

export const BLOCK_RULES: Rule[] = [
  {
    id: 'private-span',
    kind: 'private',
    triggers: ['<private>'],
    // An unclosed span hides everything after it: better too much than a leak.
    pattern: /<private>[\s\S]*?(?:<\/private>|$)/gi,
    replace: whole('private'),
  },
  {
    id: 'pem-private-key',
    kind: 'private-key',
    triggers: ['private key'],
    // Unclosed (cut short): hidden to the end.
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|$)/g,
    replace: whole('private-key'),
  },
  {
    id: 'putty-private-key',
    kind: 'private-key',
    triggers: ['private-lines'],
    pattern: /(Private-Lines:[ \t]*\d+\r?\n)(?:[A-Za-z0-9+/=]+(?:\r?\n|$))+/g,
    replace: (_m, [prefix]) => prefix + marker('private-key'),
  },
  {
    id: 'kubernetes-secret',
    kind: 'k8s-secret',
    triggers: ['secret'],
    // YAML `data:`/`stringData:` blocks (what is indented under them), or JSON `"data": {...}`.
    pattern:
      /^([ \t]*)((?:data|stringData):[ \t]*\r?\n)((?:\1[ \t]+\S[^\r\n]*(?:\r?\n|$))+)|("(?:data|stringData)"\s*:\s*\{)([^{}]*)\}/gm,
    replace: (match, [indent, key, block, jsonKey, jsonBody], input, offset) => {
      if (!K8S_KIND.test(documentAround(input, offset))) return match;
      if (jsonKey !== undefined) {
        const body = (jsonBody ?? '').replace(
          /("[^"\\]*"\s*:\s*)"[^"\\]*"/g,
          (_, k: string) => `${k}"${marker('k8s-secret')}"`,
        );
        return `${jsonKey}${body}}`;
      }
      return `${indent}${key}${redactDataBlock(block ?? '', 'k8s-secret')}`;
    },
  },
];
