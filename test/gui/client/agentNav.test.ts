import { describe, expect, it } from 'vitest';
import { navStep, stepSelection } from '../../../src/gui/client/lib/agentNav.js';

describe('stepSelection', () => {
  it.each<[string, string[], string | null, -1 | 1, string | null]>([
    ['down from the first', ['a', 'b', 'c'], 'a', 1, 'b'],
    ['up from the last', ['a', 'b', 'c'], 'c', -1, 'b'],
    ['stays at the top', ['a', 'b'], 'a', -1, 'a'],
    ['stays at the bottom', ['a', 'b'], 'b', 1, 'b'],
    ['nothing selected: the first', ['a', 'b'], null, 1, 'a'],
    ['a removed servant: the first', ['a', 'b'], 'zed', -1, 'a'],
    ['no servants', [], 'a', 1, null],
  ])('%s', (_name, ids, current, step, expected) => {
    expect(stepSelection(ids, current, step)).toBe(expected);
  });
});

describe('navStep', () => {
  const key = (k: string, mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }> = {}) => ({
    key: k, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods,
  });
  it.each<[string, ReturnType<typeof key>, -1 | 1 | null]>([
    ['Alt+ArrowUp', key('ArrowUp', { altKey: true }), -1],
    ['Alt+ArrowDown', key('ArrowDown', { altKey: true }), 1],
    ['a plain arrow (the caret in the chat input)', key('ArrowDown'), null],
    ['Alt+Shift+ArrowDown', key('ArrowDown', { altKey: true, shiftKey: true }), null],
    ['Ctrl+Alt+ArrowUp', key('ArrowUp', { altKey: true, ctrlKey: true }), null],
    ['Alt+ArrowLeft', key('ArrowLeft', { altKey: true }), null],
  ])('%s', (_name, e, expected) => {
    expect(navStep(e)).toBe(expected);
  });
});
