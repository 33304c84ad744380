import { describe, expect, it } from 'vitest';
import { CHILD_LINE_MAX_BYTES, LineSplitter, utf8CutPoint } from '../../../src/host/mcp/stderrLines.js';

function run(chunks: Array<string | Buffer>, max?: number, flush = true): { lines: string[]; held: number[] } {
  const lines: string[] = [];
  const held: number[] = [];
  const s = new LineSplitter((l) => lines.push(l), max);
  for (const c of chunks) {
    s.push(c);
    held.push(s.heldBytes);
  }
  if (flush) s.flush();
  return { lines, held };
}

describe('LineSplitter', () => {
  const table: Array<{ name: string; chunks: string[]; max?: number; want: string[] }> = [
    { name: 'one line', chunks: ['hello\n'], want: ['hello'] },
    { name: 'two lines in one chunk', chunks: ['a\nb\n'], want: ['a', 'b'] },
    { name: 'a line across chunks', chunks: ['he', 'll', 'o\nwor', 'ld\n'], want: ['hello', 'world'] },
    { name: 'CRLF loses its CR', chunks: ['a\r\nb\r\n'], want: ['a', 'b'] },
    { name: 'empty lines are kept', chunks: ['\n\n'], want: ['', ''] },
    { name: 'unfinished tail is flushed', chunks: ['tail'], want: ['tail'] },
    { name: 'cut at the cap', chunks: ['abcdefghij\n'], max: 4, want: ['abcd', 'efgh', 'ij'] },
    { name: 'exactly the cap then newline', chunks: ['abcd\n'], max: 4, want: ['abcd'] },
    { name: 'two full pieces then newline: no empty line', chunks: ['abcdefgh\n'], max: 4, want: ['abcd', 'efgh'] },
    { name: 'a real empty line after a cut is kept', chunks: ['abcd\n\n'], max: 4, want: ['abcd', ''] },
    { name: 'cap across chunks', chunks: ['ab', 'cdef', 'g\n'], max: 4, want: ['abcd', 'efg'] },
  ];
  it.each(table)('$name', ({ chunks, max, want }) => {
    expect(run(chunks, max).lines).toEqual(want);
  });

  it('never splits a UTF-8 character at the cap', () => {
    const { lines } = run(['ab€cd\n'], 4); // € is 3 bytes
    expect(lines).toEqual(['ab', '€c', 'd']);
    expect(lines.join('')).toBe('ab€cd');
  });

  it('a 1 MiB line without newline is emitted in pieces of at most 64 KiB and never held beyond the cap', () => {
    const chunk = Buffer.alloc(16 * 1024, 0x78);
    const chunks = Array.from({ length: 64 }, () => chunk); // 1 MiB, no newline
    const { lines, held } = run(chunks, undefined, false);
    expect(lines.length).toBe(16); // 16 pieces of 64 KiB, each emitted as soon as it reaches the cap
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(65_536);
    expect(Math.max(...held)).toBeLessThanOrEqual(CHILD_LINE_MAX_BYTES);
  });

  it('rejects a silly cap', () => {
    expect(() => new LineSplitter(() => undefined, 0)).toThrow(/maxBytes/);
  });
});

describe('utf8CutPoint', () => {
  it.each([
    { bytes: 'abcdef', max: 4, want: 4 },
    { bytes: 'ab€', max: 3, want: 2 },
    { bytes: 'abc', max: 4, want: 3 },
  ])('$bytes at $max → $want', ({ bytes, max, want }) => {
    expect(utf8CutPoint(Buffer.from(bytes), max)).toBe(want);
  });
});
