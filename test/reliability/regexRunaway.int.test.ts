/**
 * Runaway regular expressions (reliability suite; the engine is the grep tool's bounded matcher): seeded
 * catastrophic patterns — nested and overlapping quantifiers, alternations that match the same text, counted
 * repeats of wildcards — against lines built to make a backtracking engine explode (41 bytes up to 4 KB). Held when
 * every call returns (a count, or a refusal that says why — an invalid or non-linear pattern), throws nothing, and the agent's thread is free again.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { grepTool } from '../../src/core/tools/grep.js';
import { bodyOf, makeSandbox, toolCtx, type Sandbox } from '../core/tools/fixtures.js';
import { pick, seeded, Tally } from './support/tally.js';

const TRIES = 40;
let box: Sandbox;
beforeAll(() => {
  box = makeSandbox();
  const lines = [40, 41, 100, 2_000, 4_000].map((n) => `${'a'.repeat(n)}${n % 2 === 0 ? '!' : 'b'}`);
  writeFileSync(join(box.root, 'evil.txt'), `${lines.join('\n')}\n`);
});
afterAll(() => box.cleanup());

function pattern(next: () => number): string {
  const atom = ['a', 'a?', '[a-z]', '\\w', '.'][pick(next, 5)]!;
  const shapes = [
    `^(${atom}+)+$`,
    `(${atom}|${atom}${atom})+$`,
    `^(${atom}|${atom}?)+b`,
    `(${atom}*)*c`,
    `(.*${atom}){${2 + pick(next, 12)}}x`,
    `^(${atom}+|${atom}+)+$`,
    `((${atom}+)+)+!z`,
    `(${atom}|\\w)*y$`,
  ];
  return shapes[pick(next, shapes.length)]!;
}

describe('reliability: runaway regular expressions', () => {
  it(`${TRIES} seeded catastrophic patterns each return a count or a reason`, { timeout: 150_000 }, async () => {
    const tally = new Tally('runaway-regex');
    const next = seeded(8);
    for (let i = 0; i < TRIES; i += 1) {
      const p = pattern(next);
      let why: string | null = null;
      try {
        const body = bodyOf((await grepTool.call({ pattern: p, path: 'evil.txt', case_insensitive: next() < 0.3 }, toolCtx(box))) as string);
        if (!/matches in \d+ files|linear|refus|Backreferences|cannot|Not a valid regular expression/i.test(body)) why = `unexpected reply: ${body.slice(0, 160)}`;
      } catch (error) {
        why = `threw ${error instanceof Error ? error.message : String(error)}`;
      }
      tally.check(`try ${i}: /${p}/`, why);
    }
    tally.finish(TRIES);
  });
});
