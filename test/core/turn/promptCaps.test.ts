/** The prompt caps' decisions (src/core/turn/promptCaps.ts): cut texts, the system prompt cap, the tool cut-off rule. */
import { describe, expect, it } from 'vitest';
import {
  capPromptMaterial,
  capText,
  capTools,
  MIN_SYSTEM_PROMPT_CAP_BYTES,
  PROMPT_FILE_CAP_BYTES,
  systemPromptCapBytes,
  utf8Bytes,
  type OfferedTool,
} from '../../../src/core/turn/promptCaps.js';

const spec = (name: string) => ({ name, description: '', parameters: { type: 'object', properties: {} } });

describe('capText', () => {
  const cases: { label: string; text: string; cap: number; cut: boolean }[] = [
    { label: 'empty', text: '', cap: 10, cut: false },
    { label: 'exactly the cap', text: 'a'.repeat(300), cap: 300, cut: false },
    { label: 'one byte over', text: 'a'.repeat(301), cap: 300, cut: true },
    { label: 'multi-byte under in chars, over in bytes', text: 'あ'.repeat(200), cap: 300, cut: true },
    { label: 'astral characters', text: '😀'.repeat(500), cap: 400, cut: true },
    { label: 'mixed', text: `x${'é漢😀'.repeat(1000)}`, cap: 1001, cut: true },
  ];
  for (const c of cases) {
    it(`${c.label}: cut=${c.cut}, never over the cap, never a split character`, () => {
      const out = capText(c.text, c.cap, 'en', 'SKILL.md');
      expect(out.cut).toBe(c.cut);
      expect(out.bytes).toBe(utf8Bytes(c.text));
      expect(utf8Bytes(out.text)).toBeLessThanOrEqual(c.cap);
      expect(out.text.includes('\uFFFD')).toBe(false);
      if (c.cut) {
        expect(out.text.slice(out.headChars)).toContain(`[…SKILL.md is ${utf8Bytes(c.text)} bytes; only about the first ${c.cap} were sent`);
        expect(c.text.startsWith(out.text.slice(0, out.headChars))).toBe(true);
      } else expect(out.text).toBe(c.text);
    });
  }

  it('Japanese marker', () => {
    expect(capText('あ'.repeat(1000), 500, 'ja', 'Memory.md').text).toContain('［…Memory.md は 3000 バイトあり、先頭の約 500 バイトだけを送りました');
  });
});

describe('capPromptMaterial', () => {
  it('cuts only the files over the cap and names them', () => {
    const big = 'z'.repeat(PROMPT_FILE_CAP_BYTES + 1);
    const out = capPromptMaterial({ ordinance: big, construct: 'c', skill: big, memory: '' }, 'en');
    expect(out.cut).toEqual([
      { file: 'Ordinance.md', bytes: PROMPT_FILE_CAP_BYTES + 1 },
      { file: 'SKILL.md', bytes: PROMPT_FILE_CAP_BYTES + 1 },
    ]);
    expect(utf8Bytes(out.material.skill)).toBeLessThanOrEqual(PROMPT_FILE_CAP_BYTES);
    expect(out.material.construct).toBe('c');
    expect(out.material.memory).toBe('');
  });
});

describe('systemPromptCapBytes', () => {
  const table: [number, number][] = [
    [0, MIN_SYSTEM_PROMPT_CAP_BYTES],
    [1_000, MIN_SYSTEM_PROMPT_CAP_BYTES],
    [8_192, MIN_SYSTEM_PROMPT_CAP_BYTES],
    [128_000, 256_000],
    [200_000, 400_000],
    [1_000_000, 2_000_000],
  ];
  for (const [context, cap] of table) it(`contextLength ${context} → ${cap} bytes`, () => expect(systemPromptCapBytes(context)).toBe(cap));
});

describe('capTools (the cut-off rule)', () => {
  const tools = (n: number, origin: OfferedTool['origin'], prefix: string): OfferedTool[] =>
    Array.from({ length: n }, (_, i) => ({ spec: spec(`${prefix}${i}`), origin }));

  it('under the cap: everything, in the order given', () => {
    const given = [...tools(2, 'tie', 'ask_'), ...tools(2, 'mcp', 'z__'), ...tools(2, 'builtin', 'b')];
    expect(capTools(given, 6)).toEqual({ offered: given.map((t) => t.spec), dropped: [] });
  });

  it('over the cap: built-ins, then ties by rank, then MCP by name; the rest named in order', () => {
    const given: OfferedTool[] = [
      { spec: spec('ask_b'), origin: 'tie', rank: 4 },
      { spec: spec('transfer_to_b'), origin: 'tie', rank: 3 },
      { spec: spec('plan'), origin: 'tie', rank: 0 },
      { spec: spec('zeta__x'), origin: 'mcp' },
      { spec: spec('alpha__y'), origin: 'mcp' },
      { spec: spec('grep'), origin: 'builtin' },
      { spec: spec('room_log'), origin: 'builtin' },
    ];
    const out = capTools(given, 5);
    expect(out.offered.map((s) => s.name)).toEqual(['grep', 'room_log', 'plan', 'transfer_to_b', 'ask_b']);
    expect(out.dropped).toEqual(['alpha__y', 'zeta__x']);
  });

  it('10,002 tools (a reception tied to 9,999 agents) → 128 offered, 9,874 dropped', () => {
    const given = [...tools(3, 'builtin', 'b'), ...tools(9_999, 'tie', 'ask_')];
    const out = capTools(given);
    expect(out.offered).toHaveLength(128);
    expect(out.dropped).toHaveLength(9_874);
    expect(out.dropped[0]).toBe('ask_125');
  });
});
