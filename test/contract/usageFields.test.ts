/**
 * data_contract.yaml's `usage_fields` table and the wires' usage readers agree: for every wire, a usage block with a
 * distinct number at each path the table names is read, and each canonical field comes out as the table's path (or
 * sum of paths) says. The rules in parentheses (xAI's reasoning beside completion) have their own table test in
 * test/core/llm/wire.test.ts; here no total is sent, so they never apply.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { anthropicUsage } from '../../src/core/llm/anthropicWire.js';
import type { Usage } from '../../src/core/llm/canonical.js';
import { geminiUsage } from '../../src/core/llm/gemini.js';
import { compatUsage } from '../../src/core/llm/openAiCompat.js';
import { responsesUsage } from '../../src/core/llm/responsesWire.js';
import { KNOWN_PROVIDERS } from '../../src/core/world/enums.js';

type Row = Record<keyof Usage, string> & { stream: string; wires?: string[] };
const table = (parse(readFileSync(new URL('../../data_contract.yaml', import.meta.url), 'utf8')) as { usage_fields: Record<string, Row | string> }).usage_fields;

const READERS: Record<string, (raw: unknown) => Usage> = { open_ai_compat: compatUsage, anthropic: anthropicUsage, gemini: geminiUsage, responses: responsesUsage };
const FIELDS: Array<keyof Usage> = ['prompt', 'completion', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'reasoning'];

/** The paths a field's entry sums (the part before any parenthesis); empty for a constant 0. */
function pathsOf(entry: string): string[] {
  const head = entry.split(' (')[0]!.trim();
  return head === '0' ? [] : head.split('+').map((p) => p.trim());
}

function setPath(target: Record<string, unknown>, path: string, value: number): void {
  const keys = path.split('.');
  let at = target;
  for (const key of keys.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
  at[keys.at(-1)!] = value;
}

describe('usage_fields in data_contract.yaml', () => {
  it('covers every provider, once', () => {
    const covered = Object.entries(table).flatMap(([wire, row]) => (typeof row === 'string' ? [wire] : (row.wires ?? [wire])));
    expect([...covered].sort()).toEqual([...KNOWN_PROVIDERS].sort());
  });

  it.each(Object.keys(READERS))('%s: each canonical field is read from the paths the table names', (wire) => {
    const row = table[wire] as Row;
    const raw: Record<string, unknown> = {};
    const values = new Map<string, number>();
    // Decreasing numbers, so each cap the table states in parentheses (1h writes ≤ writes) holds as sent.
    let next = 1_000;
    for (const field of FIELDS) {
      for (const path of pathsOf(row[field])) {
        if (!values.has(path)) values.set(path, (next -= 13));
        setPath(raw, path, values.get(path)!);
      }
    }
    const read = READERS[wire]!(raw);
    for (const field of FIELDS) {
      const expected = pathsOf(row[field]).reduce((n, p) => n + values.get(p)!, 0);
      expect(read[field], `${wire}.${field} = ${row[field]}`).toBe(expected);
    }
  });
});
