/**
 * Line search inside one text (grep's core), with a whole-text prefilter so files without a hit skip the split.
 * Patterns reach here compiled by compileSafeRegex (bounded time).
 */
import type { GrepLine } from './scanJob.js';

/**
 * A whole-text regex that matches whenever some line would (a superset), so files without a hit skip the
 * line split. Sound because with the `m` flag `^`/`$` match at line breaks, `.` never crosses one and
 * `\b` sees the same non-word char; lookarounds could see across a line, so they get no prefilter (null).
 * Only used on text without `\r` (a per-line `$` matches before a stripped `\r`, the whole text does not).
 */
export function wholeTextPrefilter(regex: RegExp): RegExp | null {
  if (/\(\?(?:=|!|<=|<!)/.test(regex.source)) return null;
  return new RegExp(regex.source, `${regex.flags.replace('m', '')}m`); // same source: still linear-eligible
}

/** Lines of `text` that match `regex`, with up to `context` lines around each (overlaps merged). */
export function searchText(
  text: string,
  regex: RegExp,
  context: number,
  prefilter: RegExp | null = null,
): { count: number; lines: GrepLine[] } {
  if (prefilter !== null && !text.includes('\r') && !prefilter.test(text)) return { count: 0, lines: [] };
  const all = text.split('\n');
  if (all.length > 0 && all[all.length - 1] === '') all.pop();
  const hits: number[] = [];
  for (let i = 0; i < all.length; i += 1) {
    const line = (all[i] as string).endsWith('\r') ? (all[i] as string).slice(0, -1) : (all[i] as string);
    all[i] = line;
    if (regex.test(line)) hits.push(i);
  }
  if (hits.length === 0) return { count: 0, lines: [] };
  const out: GrepLine[] = [];
  const hitSet = new Set(hits);
  let next = 0; // first line index not yet emitted
  for (const hit of hits) {
    const from = Math.max(next, hit - context);
    const to = Math.min(all.length - 1, hit + context);
    for (let i = from; i <= to; i += 1) out.push({ line: i + 1, text: all[i] as string, match: hitSet.has(i) });
    next = Math.max(next, to + 1);
  }
  return { count: hits.length, lines: out };
}

