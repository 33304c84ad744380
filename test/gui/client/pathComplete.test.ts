import { describe, expect, it } from 'vitest';
import { atWord, insertPath } from '../../../src/gui/client/lib/pathComplete.js';

describe('atWord', () => {
  it.each<[string, string, number | null, { start: number; query: string } | null]>([
    ['an @ at the start', '@src', null, { start: 0, query: 'src' }],
    ['an @ after a space', 'see @src/ma', null, { start: 4, query: 'src/ma' }],
    ['an @ after a new line', 'a\n@x', null, { start: 2, query: 'x' }],
    ['a bare @', 'look @', null, { start: 5, query: '' }],
    ['the caret inside the word', 'see @src/main.ts now', 8, { start: 4, query: 'src' }],
    ['an e-mail address is not a path', 'mail me@host', null, null],
    ['no @', 'plain words', null, null],
    ['the caret after the word and a space', '@src ', null, null],
  ])('%s', (_name, text, caret, expected) => {
    expect(atWord(text, caret ?? text.length)).toEqual(expected);
  });
});

describe('insertPath', () => {
  it('replaces the @word with the file and a space, keeping what follows', () => {
    const text = 'open @sr please';
    expect(insertPath(text, { start: 5, query: 'sr' }, 8, 'src/main.ts')).toEqual({ text: 'open @src/main.ts  please', caret: 18 });
  });
  it('a folder gets no space, so the next part can be typed', () => {
    expect(insertPath('@s', { start: 0, query: 's' }, 2, 'src/')).toEqual({ text: '@src/', caret: 5 });
  });
});
