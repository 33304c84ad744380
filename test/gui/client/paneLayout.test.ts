import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT, LAYOUT_LIMITS, parseLayout, resetPane, resizePane } from '../../../src/gui/client/lib/paneLayout.js';

describe('parseLayout', () => {
  it.each<[string, string | null, { left: number; right: number; bottom: number }]>([
    ['nothing stored', null, { ...DEFAULT_LAYOUT }],
    ['not JSON', '{left: 1', { ...DEFAULT_LAYOUT }],
    ['not an object', '42', { ...DEFAULT_LAYOUT }],
    ['a stored layout', '{"left":300,"right":500,"bottom":200}', { left: 300, right: 500, bottom: 200 }],
    ['missing and wrong-typed sizes fall back one by one', '{"left":"wide","bottom":120}', { left: DEFAULT_LAYOUT.left, right: DEFAULT_LAYOUT.right, bottom: 120 }],
    ['sizes out of range are clamped', '{"left":5,"right":99999,"bottom":-3}', { left: LAYOUT_LIMITS.left[0], right: LAYOUT_LIMITS.right[1], bottom: LAYOUT_LIMITS.bottom[0] }],
    ['fractions are rounded', '{"left":300.6}', { ...DEFAULT_LAYOUT, left: 301 }],
  ])('%s', (_name, stored, expected) => {
    expect(parseLayout(stored)).toEqual(expected);
  });
});

describe('resizePane / resetPane', () => {
  it.each<['left' | 'right' | 'bottom', number, number]>([
    ['left', 40, DEFAULT_LAYOUT.left + 40],
    ['right', -50, DEFAULT_LAYOUT.right - 50],
    ['bottom', 10_000, LAYOUT_LIMITS.bottom[1]],
    ['left', -10_000, LAYOUT_LIMITS.left[0]],
  ])('%s by %i → %i, the other sizes unchanged', (edge, by, size) => {
    const next = resizePane({ ...DEFAULT_LAYOUT }, edge, by);
    expect(next[edge]).toBe(size);
    for (const other of (['left', 'right', 'bottom'] as const).filter((e) => e !== edge)) expect(next[other]).toBe(DEFAULT_LAYOUT[other]);
  });

  it('reset brings one pane back to its default', () => {
    expect(resetPane({ left: 500, right: 600, bottom: 300 }, 'right')).toEqual({ left: 500, right: DEFAULT_LAYOUT.right, bottom: 300 });
  });
});
