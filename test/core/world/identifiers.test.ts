import { describe, expect, it } from 'vitest';
import { assertSafeIdentifier, isSafeIdentifier, quoteIdentifier } from '../../../src/core/world/identifiers.js';

describe('isSafeIdentifier', () => {
  it.each([
    ['a', true],
    ['front-desk_2', true],
    ['A'.repeat(64), true],
    ['A'.repeat(65), false],
    ['', false],
    ['..', false],
    ['a/b', false],
    ['a\\b', false],
    ['a b', false],
    ['a.b', false],
    ['ａ', false], // full-width look-alike
    ['é', false],
    ['a\n', false],
  ])('%j → %s', (value, expected) => {
    expect(isSafeIdentifier(value)).toBe(expected);
  });

  it('rejects non-strings', () => {
    expect(isSafeIdentifier(42)).toBe(false);
    expect(isSafeIdentifier(null)).toBe(false);
  });
});

describe('assertSafeIdentifier', () => {
  it('passes a safe id', () => {
    expect(() => assertSafeIdentifier('writer', 'agent id')).not.toThrow();
  });

  it('throws UNSAFE_IDENTIFIER naming the field, with a fix', () => {
    try {
      assertSafeIdentifier('../etc', 'agent id');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'UNSAFE_IDENTIFIER' });
      expect((error as Error).message).toContain('agent id "../etc"');
      expect((error as { fix?: string }).fix).toMatch(/1-64/);
    }
  });
});

describe('quoteIdentifier', () => {
  it.each([
    ['../x', '"../x"'],
    ['a\u0000b', '"a\\u0000b"'],
    ['x\u202e', '"x\\u202e"'],
    ['а', '"\\u0430"'],
    ['line\nfeed', '"line\\nfeed"'],
  ])('%j → %s (printable ASCII only)', (value, shown) => {
    expect(quoteIdentifier(value)).toBe(shown);
  });
  it('cuts after 80 characters', () => {
    expect(quoteIdentifier('y'.repeat(100))).toBe(`"${'y'.repeat(80)}\\u2026"`);
  });
});
