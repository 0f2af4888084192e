/**
 * Secret redaction for everything Context Deck stores or shows from an agent: hook payloads (the
 * recorder), imported transcripts, rejected log lines, memory. Pure functions over strings and JSON values;
 * no I/O.
 *
 * A secret becomes `[REDACTED:<kind>]`; `<private>...</private>` spans become `[REDACTED:private]`. Where it
 * keeps the record useful, the context around a secret stays: the user and host of a connection string, the
 * name of an assigned variable, the scheme of an Authorization header. Redaction is idempotent: markers are
 * never matched again.
 */
export { secretKeyKind } from './names';
export { REDACTION_RULES } from './ruleTable';
export { cutMarker, redactAndCut, redactText, sliceSafe, unescapeJson } from './text';
export { type CutNote, joinPath, redactValue } from './jsonValue';
