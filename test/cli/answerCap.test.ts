/** The stdout cap of `ask` (issue 19): answers up to the cap print whole; past it the head, cut on a character boundary. */
import { describe, expect, it } from 'vitest';
import { capAnswer } from '../../src/cli/ask/answerCap.js';

describe('capAnswer', () => {
  it('keeps an answer under the cap as it is', () => {
    expect(capAnswer('hello', 10)).toEqual({ text: 'hello', bytes: 5, cut: false });
  });

  it('cuts past the cap without splitting a character, and reports the full size', () => {
    const answer = 'ab✓✓✓'; // 2 + 3×3 = 11 bytes
    expect(capAnswer(answer, 6)).toEqual({ text: 'ab✓', bytes: 11, cut: true });
    expect(capAnswer(answer, 5)).toEqual({ text: 'ab✓', bytes: 11, cut: true });
    expect(capAnswer(answer, 4)).toEqual({ text: 'ab', bytes: 11, cut: true });
  });
});
