import { describe, expect, it } from 'vitest';
import { avatarColor, avatarHue, initialsOf } from '../../../src/gui/client/lib/avatar.js';

describe('initialsOf', () => {
  it.each<[string, string]>([
    ['Alice', 'A'],
    ['alice', 'A'],
    ['Team Lead', 'TL'],
    ['code_reviewer', 'CR'],
    ['data-entry clerk two', 'DE'],
    ['  spaced   out  ', 'SO'],
    ['花子', '花'],
    ['山田 花子', '山花'],
    ['😀 smile', '😀S'],
    ['', '?'],
    ['___', '?'],
  ])('%j → %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });
});

describe('avatarHue / avatarColor', () => {
  it('is the same for the same id, whatever the name', () => {
    expect(avatarHue('alice')).toBe(avatarHue('alice'));
    expect(avatarColor('alice')).toBe(`hsl(${avatarHue('alice')} 55% 42%)`);
  });

  it('stays in [0, 360) and spreads ids over the wheel', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `agent_${i}`);
    const hues = ids.map(avatarHue);
    for (const h of hues) expect(h >= 0 && h < 360 && Number.isInteger(h)).toBe(true);
    // 200 ids land on many different hues (a constant or a tiny range would be a broken hash).
    expect(new Set(hues).size).toBeGreaterThan(120);
    expect(avatarHue('alice')).not.toBe(avatarHue('alicf'));
  });

  it('is 32-bit FNV-1a (its published values), so a change of the colours is a visible decision', () => {
    expect([avatarHue(''), avatarHue('a'), avatarHue('foobar')]).toEqual([0x811c9dc5 % 360, 0xe40c292c % 360, 0xbf9cf968 % 360]);
  });
});
