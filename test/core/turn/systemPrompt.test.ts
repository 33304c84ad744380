import { describe, expect, it } from 'vitest';
import { composeSystemPrompt, rosterLine } from '../../../src/core/turn/systemPrompt.js';
import type { PromptMaterial, RosterEntry } from '../../../src/core/turn/ports.js';

const full: PromptMaterial = { ordinance: 'ORD', construct: 'CON', skill: 'SKL', memory: 'MEM' };
const roster: RosterEntry[] = [
  { id: 'b', name: 'Bob', roleName: 'critic', status: 'running' },
  { id: 'c', name: 'Cy', roleName: null, status: 'idle' },
];
const subject = (patch: Partial<Parameters<typeof composeSystemPrompt>[1]> = {}) => ({
  agentId: 'a',
  agentName: 'Ann',
  workDir: '/w/a',
  language: 'en' as const,
  roster,
  ...patch,
});

describe('composeSystemPrompt', () => {
  it.each(['ja', 'en'] as const)('keeps the fixed order (%s)', (language) => {
    const { text } = composeSystemPrompt(full, subject({ language }));
    const markers = ['ORD', language === 'ja' ? 'あなたについて' : 'About you', '/w/a', '## Construct', '## Skill',
      language === 'ja' ? '## 今の顔ぶれ' : '## Current roster', '## Memory'];
    const positions = markers.map((m) => text.indexOf(m));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
  });

  it('stableLen ends right before the roster', () => {
    const { text, stableLen } = composeSystemPrompt(full, subject());
    expect(text.slice(0, stableLen).endsWith('## Skill\nSKL')).toBe(true);
    expect(text.slice(stableLen)).toMatch(/^\n\n## Current roster/);
  });

  it('stableLen and the prefix do not move when roster statuses or Memory change', () => {
    const a = composeSystemPrompt(full, subject());
    const changed = roster.map((r) => ({ ...r, status: 'failed' as const }));
    const b = composeSystemPrompt({ ...full, memory: 'other memory, longer' }, subject({ roster: changed }));
    const c = composeSystemPrompt({ ...full, memory: '' }, subject({ roster: [] }));
    expect(b.stableLen).toBe(a.stableLen);
    expect(c.stableLen).toBe(a.stableLen);
    expect(b.text.slice(0, b.stableLen)).toBe(a.text.slice(0, a.stableLen));
    expect(c.text).toBe(a.text.slice(0, a.stableLen));
  });

  it('puts the summary first in the volatile part: outside the stable prefix, before the roster', () => {
    const without = composeSystemPrompt(full, subject());
    const { text, stableLen } = composeSystemPrompt(full, subject({ summary: 'We agreed on Friday.' }));
    expect(stableLen).toBe(without.stableLen);
    expect(text.slice(0, stableLen)).toBe(without.text.slice(0, without.stableLen));
    expect(text.slice(stableLen)).toMatch(/^\n\n## Summary so far\nWe agreed on Friday\.\n\n## Current roster/);
    expect(composeSystemPrompt(full, subject({ summary: '   ' })).text).toBe(without.text);
    expect(composeSystemPrompt(full, subject({ language: 'ja', summary: '金曜に決定' })).text).toContain('## これまでの要約\n金曜に決定');
  });

  it('leaves empty sections out', () => {
    const { text } = composeSystemPrompt({ ordinance: '', construct: '', skill: ' ', memory: '' }, subject({ workDir: null, roster: [] }));
    expect(text).not.toMatch(/Ordinance|Construct|Skill|Memory|roster|Working folder/);
    expect(text).toContain('Ann');
  });

  it.each([
    ['ja', 'b（Bob）［critic］: 稼働中 / c（Cy）: 停止中'],
    ['en', 'b (Bob) [critic]: running / c (Cy): stopped'],
  ] as const)('roster line %s', (language, expected) => {
    expect(rosterLine(roster, language)).toBe(expected);
  });
});
