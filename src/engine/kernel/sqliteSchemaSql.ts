/**
 * What the reader needs from the `CREATE TABLE` and `CREATE INDEX` statements SQLite keeps in sqlite_schema:
 * column names in record order, which column is the rowid, literal defaults, collations, and which column
 * an index starts with. Not a SQL parser: a tokenizer and the few shapes these statements take
 * (https://www.sqlite.org/lang_createtable.html, https://www.sqlite.org/lang_createindex.html).
 */
import { type SqlValue, SqliteFileError, numberIfSafe } from './sqliteRecord';

interface Token {
  /** word: a bare identifier or keyword; name: a quoted identifier; string: a '...' literal. */
  kind: 'word' | 'name' | 'string' | 'number' | 'blob' | 'punct';
  text: string;
}

const NUMBER = /0[xX][0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_\u0080-\uffff][\w$\u0080-\uffff]*/y;
const CLOSING_QUOTE: Record<string, string> = { '"': '"', '`': '`', '[': ']', "'": "'" };

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  const malformed = (what: string) => new SqliteFileError(`schema SQL has ${what}: ${sql.slice(0, 80)}`);
  while (at < sql.length) {
    const char = sql[at];
    if (/\s/.test(char)) {
      at++;
    } else if (sql.startsWith('--', at)) {
      const end = sql.indexOf('\n', at);
      at = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', at)) {
      const end = sql.indexOf('*/', at + 2);
      at = end < 0 ? sql.length : end + 2;
    } else if (/[xX]/.test(char) && sql[at + 1] === "'") {
      const end = sql.indexOf("'", at + 2);
      if (end < 0) throw malformed('an unterminated blob literal');
      tokens.push({ kind: 'blob', text: sql.slice(at + 2, end) });
      at = end + 1;
    } else if (char in CLOSING_QUOTE) {
      // A quote is escaped by doubling it (not in brackets).
      const close = CLOSING_QUOTE[char];
      let text = '';
      let end = at + 1;
      for (;;) {
        const next = sql.indexOf(close, end);
        if (next < 0) throw malformed('an unterminated quote');
        text += sql.slice(end, next);
        if (close !== ']' && sql[next + 1] === close) {
          text += close;
          end = next + 2;
        } else {
          end = next + 1;
          break;
        }
      }
      tokens.push({ kind: char === "'" ? 'string' : 'name', text });
      at = end;
    } else {
      NUMBER.lastIndex = at;
      WORD.lastIndex = at;
      const number = NUMBER.exec(sql)?.[0];
      const word = number === undefined ? WORD.exec(sql)?.[0] : undefined;
      const text = number ?? word ?? char;
      tokens.push({ kind: number !== undefined ? 'number' : word !== undefined ? 'word' : 'punct', text });
      at += text.length;
    }
  }
  return tokens;
}

function isKeyword(token: Token | undefined, ...keywords: string[]): boolean {
  return token?.kind === 'word' && keywords.includes(token.text.toUpperCase());
}

function isPunct(token: Token | undefined, text: string): boolean {
  return token?.kind === 'punct' && token.text === text;
}

/** The comma-separated items between the `(` at `open` and its `)`, and the index after the `)`. */
function parenthesized(tokens: Token[], open: number): { items: Token[][]; end: number } {
  const items: Token[][] = [[]];
  let depth = 0;
  for (let at = open + 1; at < tokens.length; at++) {
    const token = tokens[at];
    if (isPunct(token, '(')) depth++;
    if (isPunct(token, ')') && depth-- === 0) return { items, end: at + 1 };
    if (depth === 0 && isPunct(token, ',')) items.push([]);
    else items[items.length - 1].push(token);
  }
  throw new SqliteFileError('schema SQL has an unbalanced parenthesis');
}

/** ASCII case-insensitive, as SQLite compares identifiers. */
export function sameName(a: string, b: string): boolean {
  const fold = (name: string) => name.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  return fold(a) === fold(b);
}

function isName(token: Token | undefined): token is Token {
  return token?.kind === 'word' || token?.kind === 'name' || token?.kind === 'string';
}

/** An index term that is just a column (`col [COLLATE x] [ASC|DESC]`), else undefined (an expression). */
function plainTerm(term: Token[]): { column: string; collation?: string; descending: boolean } | undefined {
  if (!isName(term[0])) return undefined;
  let at = 1;
  let collation: string | undefined;
  if (isKeyword(term[at], 'COLLATE') && isName(term[at + 1])) {
    collation = term[at + 1].text;
    at += 2;
  }
  const descending = isKeyword(term[at], 'DESC');
  if (descending || isKeyword(term[at], 'ASC')) at++;
  return at === term.length ? { column: term[0].text, collation, descending } : undefined;
}

export interface TableColumn {
  name: string;
  /** What a record written before the column was added (ALTER TABLE ADD COLUMN) reads as. */
  defaultValue: SqlValue;
  /** Its collation when declared (else BINARY). */
  collation?: string;
}

export interface TableShape {
  columns: TableColumn[];
  /** The INTEGER PRIMARY KEY column, which is the rowid (and stored as NULL in the record); -1 when none. */
  rowidColumn: number;
}

const COLUMN_CONSTRAINT = new Set([
  'CONSTRAINT',
  'PRIMARY',
  'NOT',
  'NULL',
  'UNIQUE',
  'CHECK',
  'DEFAULT',
  'COLLATE',
  'REFERENCES',
  'GENERATED',
  'AS',
]);
const TABLE_CONSTRAINT = ['CONSTRAINT', 'PRIMARY', 'UNIQUE', 'CHECK', 'FOREIGN'];

function numberLiteral(text: string, negative: boolean): number | bigint {
  const sign = negative ? -1 : 1;
  if (/^0[xX]/.test(text)) return numberIfSafe(BigInt.asIntN(64, BigInt(text)) * BigInt(sign));
  if (/^\d+$/.test(text)) {
    const value = BigInt(text) * BigInt(sign);
    if (BigInt.asIntN(64, value) === value) return numberIfSafe(value);
  }
  return sign * Number(text);
}

/** A DEFAULT that is a literal (optionally signed, optionally in parentheses); any other expression reads as null. */
function defaultLiteral(tokens: Token[]): SqlValue {
  let at = 0;
  while (isPunct(tokens[at], '(')) at++;
  const negative = isPunct(tokens[at], '-');
  if (negative || isPunct(tokens[at], '+')) at++;
  const token = tokens[at];
  if (token?.kind === 'number') return numberLiteral(token.text, negative);
  if (negative) return null;
  if (token?.kind === 'string') return token.text;
  if (token?.kind === 'blob' && /^([0-9a-fA-F]{2})*$/.test(token.text))
    return Uint8Array.from(token.text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
  if (isKeyword(token, 'TRUE')) return 1;
  if (isKeyword(token, 'FALSE')) return 0;
  return null;
}

interface ColumnDefinition extends TableColumn {
  integerType: boolean;
  /** PRIMARY KEY as a column constraint, and whether it said DESC (which keeps the column from being the rowid). */
  primaryKey?: 'ASC' | 'DESC';
}

function columnDefinition(item: Token[], table: string): ColumnDefinition {
  const name = item[0];
  if (!isName(name)) throw new SqliteFileError(`table ${table} has a column definition without a name`);
  let at = 1;
  const typeWords: string[] = [];
  while (
    isName(item[at]) &&
    !(item[at].kind === 'word' && COLUMN_CONSTRAINT.has(item[at].text.toUpperCase()))
  )
    typeWords.push(item[at++].text);
  // A size such as VARCHAR(20) ends the type.
  const sized = isPunct(item[at], '(');
  if (sized) at = parenthesized(item, at).end;
  const column: ColumnDefinition = {
    name: name.text,
    defaultValue: null,
    integerType: !sized && typeWords.length === 1 && typeWords[0].toUpperCase() === 'INTEGER',
  };
  for (let depth = 0; at < item.length; at++) {
    const token = item[at];
    if (isPunct(token, '(')) depth++;
    if (isPunct(token, ')')) depth--;
    if (depth !== 0) continue;
    if (isKeyword(token, 'PRIMARY')) column.primaryKey = isKeyword(item[at + 2], 'DESC') ? 'DESC' : 'ASC';
    if (isKeyword(token, 'COLLATE') && isName(item[at + 1])) column.collation = item[at + 1].text;
    // "ON DELETE SET DEFAULT" in a foreign key is no default value.
    if (isKeyword(token, 'DEFAULT') && !isKeyword(item[at - 1], 'SET'))
      column.defaultValue = defaultLiteral(item.slice(at + 1));
    // Generated columns are left out of the record (VIRTUAL), which would shift the others.
    if (isKeyword(token, 'GENERATED', 'AS'))
      throw new SqliteFileError(`table ${table} has a generated column (${column.name}): not supported`);
  }
  return column;
}

export function parseCreateTable(sql: string, table: string): TableShape {
  const tokens = tokenize(sql);
  if (isKeyword(tokens[1], 'VIRTUAL'))
    throw new SqliteFileError(`${table} is a virtual table: not supported`);
  const open = tokens.findIndex((token) => isPunct(token, '('));
  if (open < 0) throw new SqliteFileError(`the CREATE TABLE of ${table} has no column list`);
  const { items, end } = parenthesized(tokens, open);
  const options = tokens.slice(end);
  if (options.some((token, at) => isKeyword(token, 'WITHOUT') && isKeyword(options[at + 1], 'ROWID')))
    throw new SqliteFileError(`${table} is a WITHOUT ROWID table: not supported`);

  const columns: ColumnDefinition[] = [];
  let tablePrimaryKey: string | undefined;
  for (const item of items) {
    if (!isKeyword(item[0], ...TABLE_CONSTRAINT)) {
      columns.push(columnDefinition(item, table));
      continue;
    }
    const at = isKeyword(item[0], 'CONSTRAINT') ? 2 : 0;
    if (isKeyword(item[at], 'PRIMARY') && isKeyword(item[at + 1], 'KEY') && isPunct(item[at + 2], '(')) {
      const terms = parenthesized(item, at + 2).items;
      // A one-column table PRIMARY KEY on an INTEGER column makes it the rowid, even DESC.
      if (terms.length === 1) tablePrimaryKey = plainTerm(terms[0])?.column;
    }
  }
  let rowidColumn = columns.findIndex((column) => column.primaryKey === 'ASC' && column.integerType);
  if (rowidColumn < 0 && tablePrimaryKey !== undefined)
    rowidColumn = columns.findIndex(
      (column) => column.integerType && sameName(column.name, tablePrimaryKey!),
    );
  return {
    columns: columns.map(({ name, defaultValue, collation }) => ({ name, defaultValue, collation })),
    rowidColumn,
  };
}

export interface IndexShape {
  /** The column the index starts with; undefined when it starts with an expression. */
  firstColumn?: string;
  collation?: string;
  descending: boolean;
  /** A partial index (with WHERE) holds only some rows. */
  partial: boolean;
}

export function parseCreateIndex(sql: string, index: string): IndexShape {
  const tokens = tokenize(sql);
  const on = tokens.findIndex((token) => isKeyword(token, 'ON'));
  const open = tokens.findIndex((token, at) => at > on && isPunct(token, '('));
  if (on < 0 || open < 0) throw new SqliteFileError(`the CREATE INDEX of ${index} has no column list`);
  const { items, end } = parenthesized(tokens, open);
  const first = plainTerm(items[0]);
  return {
    firstColumn: first?.column,
    collation: first?.collation,
    descending: first?.descending ?? false,
    partial: tokens.slice(end).some((token) => isKeyword(token, 'WHERE')),
  };
}
