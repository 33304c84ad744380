/**
 * The bounded-time regex engine (safeRegex.ts): what it refuses and why, case folding by rewrite (V8's linear
 * engine has no `i`), and patterns that backtrack exponentially on V8's default engine finishing here.
 */
import { describe, expect, it } from 'vitest';
import { compileSafeRegex, foldCase, MAX_PATTERN_CHARS } from '../../../src/core/tools/safeRegex.js';

const compiled = (pattern: string, flags = ''): RegExp => {
  const r = compileSafeRegex(pattern, flags);
  if (!r.ok) throw new Error(`refused ${pattern}: ${r.why}`);
  return r.regex;
};

describe('compileSafeRegex', () => {
  it.each([
    ['(a)\\1', 'not_linear'],
    ['(?<n>a)\\k<n>', 'not_linear'],
    ['(?<=x)y', 'not_linear'],
    ['(?<!x)y', 'not_linear'],
    ['a(?=b)', 'not_linear'],
    ['a(?!b)', 'not_linear'],
    ['x{5000}', 'not_linear'],
    ['(', 'syntax'],
    ['a'.repeat(MAX_PATTERN_CHARS + 1), 'too_long'],
  ])('refuses %s (%s)', (pattern, why) => {
    expect(compileSafeRegex(pattern)).toMatchObject({ ok: false, why });
    if (why === 'not_linear') expect(compileSafeRegex(pattern, 'i')).toMatchObject({ ok: false, why });
  });

  it('accepts ordinary patterns, with and without case', () => {
    for (const p of ['TODO', '^\\s*import .* from', '\\bfoo_\\w+\\(', '[A-Z]{2,5}-\\d+', '(?<key>\\w+)=(?<value>.*)', 'a|b|c', '\\x41\\u0042']) {
      expect(compileSafeRegex(p).ok).toBe(true);
      expect(compileSafeRegex(p, 'i').ok).toBe(true);
    }
  });

  it('finishes patterns that backtrack exponentially, case-insensitive ones included', () => {
    const line41 = `${'a'.repeat(40)}b`;
    for (const flags of ['', 'i']) {
      expect(compiled('^(a+)+$', flags).test(line41)).toBe(false);
      expect(compiled('(a|aa)+$', flags).test(`${'a'.repeat(5000)}!`)).toBe(false);
      expect(compiled('^(\\w+\\s?)*$', flags).test(`${'word '.repeat(30)}!`)).toBe(false);
    }
  });
});

describe('foldCase', () => {
  it.each([
    ['abc', '[aA][bB][cC]'],
    ['a1_', '[aA]1_'],
    ['\\w\\W\\bX', '\\w\\W\\b[Xx]'],
    ['\\x4a\\u004Bq', '[\\x4aj][\\u004Bk][qQ]'],
    ['[a-z0-9]', '[a-zA-Z0-9]'],
    ['[^A-Fx]', '[^A-Fa-fxX]'],
    ['(?<name>k)', '(?<name>[kK])'],
    ['(?:ab){2,3}', '(?:[aA][bB]){2,3}'],
    ['\\cJ', '\\cJ'],
    ['é', '[éÉ]'],
    ['日本', '日本'],
  ])('%s → %s', (source, folded) => {
    expect(foldCase(source)).toBe(folded);
  });

  it('matches what the i flag matches', () => {
    const patterns = ['todo', 'Foo\\s+BAR', '[a-f]+x', '\\bHello\\b', '(?<w>ab)c', '[^a-z]+', 'straße', 'x\\x41y'];
    const texts = ['TODO later', 'a todo', 'foo   bar', 'FOO BAR', 'ABCDEFX', 'say hello there', 'HELLOx', 'ABC', 'abC', '123', 'STRASSE', 'Straße', 'xay', 'XAY', 'xAy'];
    for (const p of patterns) {
      const expected = new RegExp(p, 'i');
      const folded = compiled(p, 'i');
      for (const t of texts) expect([p, t, folded.test(t)]).toEqual([p, t, expected.test(t)]);
    }
  });
});
