/**
 * Size limits of the tools' string arguments, checked before any work, so that an oversized argument costs
 * the agent one short error instead of seconds of work on a megabyte of text (a look-up per word). The SDK
 * shows a failed check as a tool error with its message.
 */
import * as z from 'zod';
import { parseQuery } from '../engine';

/** Far beyond a useful query: every word must match, so a long one finds nothing. */
const MAX_QUERY_CHARS = 1000;
const MAX_QUERY_WORDS = 32;
/** Ids, session ids and times: the longest (a session's UUID, an ISO time with offset) is under 40. */
const MAX_FIELD_CHARS = 100;

const count = (n: number) => n.toLocaleString('en-US');
const NARROW = 'Use the few most distinctive words: every word must match, so more words find less.';

function wordCount(query: string): number {
  return parseQuery(query)
    .groups.flat()
    .reduce((sum, item) => sum + item.words.length, 0);
}

/** A query of words: length is checked first, so a huge one is never parsed. */
export function queryArgument(description: string) {
  return z
    .string()
    .max(MAX_QUERY_CHARS, {
      abort: true,
      error: (issue) =>
        `The query is ${count(String(issue.input).length)} characters long; queries are limited to ` +
        `${count(MAX_QUERY_CHARS)}. ${NARROW}`,
    })
    .refine((query) => wordCount(query) <= MAX_QUERY_WORDS, {
      error: (issue) =>
        `The query has ${count(wordCount(String(issue.input)))} words; queries are limited to ` +
        `${MAX_QUERY_WORDS}. ${NARROW}`,
    })
    .default('')
    .describe(`${description} (at most ${MAX_QUERY_WORDS} words, ${count(MAX_QUERY_CHARS)} characters)`);
}

/** An id, session id or time. */
export const fieldArgument = z.string().max(MAX_FIELD_CHARS);
