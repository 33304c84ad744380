/**
 * The reliability suite's bookkeeping (issue 19): one seed for the whole run (FF_RELIABILITY_SEED replays it), a
 * seeded generator per case, and a tally of tried / held per case. Every case ends by asserting that all its tries
 * held — the failure message names the seed and the tries that broke — and writes its figures to
 * test-output/reliability/<case>.json, which the README's table is built from.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The seed of this run: fixed by default (reproducible), or FF_RELIABILITY_SEED. */
export const SEED = Number(process.env['FF_RELIABILITY_SEED'] ?? 20261202);

/** mulberry32 seeded with the run's seed and `salt` (one stream per case): numbers in [0, 1). */
export function seeded(salt: number): () => number {
  let a = (SEED ^ Math.imul(salt + 1, 0x9e3779b1)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, n) from `next`. */
export function pick(next: () => number, n: number): number {
  return Math.floor(next() * n);
}

/** Tries and holds of one case. */
export class Tally {
  tried = 0;
  held = 0;
  private readonly broke: string[] = [];

  constructor(readonly name: string) {}

  /** Counts one try; `why` (a falsy value = held) says what broke. */
  check(label: string, why: string | null | false | undefined): void {
    this.tried += 1;
    if (why) this.broke.push(`${label}: ${why}`);
    else this.held += 1;
  }

  /** Asserts every try held and at least `min` were made; writes the figures either way. */
  finish(min: number): void {
    const dir = join(ROOT, 'test-output/reliability');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${this.name}.json`), `${JSON.stringify({ case: this.name, seed: SEED, tried: this.tried, held: this.held })}\n`);
    expect(this.broke, `${this.name} — seed ${SEED} (replay: FF_RELIABILITY_SEED=${SEED}): ${this.held}/${this.tried} held`).toEqual([]);
    expect(this.tried, `${this.name}: fewer tries than the case promises`).toBeGreaterThanOrEqual(min);
  }
}
