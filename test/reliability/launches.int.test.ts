/**
 * Concurrent launches (reliability suite): pairs of real processes race for one village — each takes the village
 * lock, then opens the session store, as a boot does. Held when each side either opened (and no two sides held the
 * village at overlapping times) or was refused with LOCK_HELD, no process crashed, and the store still reopens and
 * passes its structural walk with every pair's record in it.
 */
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/core/sessions/openSessionStore.js';
import { verifyLmdbFile } from '../../src/core/sessions/lmdbVerify.js';
import { requireDist, startFixture, type LineChild } from '../support/childLines.js';
import { pick, seeded, Tally } from './support/tally.js';

const PAIRS = 100;
/**
 * A hang guard, not a speed claim: each pair starts two Node processes that load lmdb and koffi, ~0.6 s on an idle
 * two-core machine but several seconds beside other CPU-heavy work (a flat 170 s ran out with two busy loops beside).
 */
const PAIR_BUDGET_MS = 6_000;
const dir = mkdtempSync(join(tmpdir(), 'ff-rel-launch-'));
const workspace = join(dir, 'workspace');
mkdirSync(workspace, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function racePair(next: () => number): Promise<string | null> {
  const hold = String(20 + pick(next, 60));
  const sides: LineChild[] = [startFixture('launchPair.mjs', [workspace, hold]), startFixture('launchPair.mjs', [workspace, hold])];
  await Promise.all(sides.map((s) => s.waitFor((l) => l === 'READY')));
  for (const side of sides) side.child.stdin!.write('go\n');
  const results = await Promise.all(sides.map((s) => s.waitFor((l) => /^(OPEN|HELD|ERR)/.test(l)).catch(() => 'CRASH')));
  await Promise.all(sides.map((s) => s.exited()));
  const crashed = sides.filter((s) => s.child.exitCode !== 0 || s.child.signalCode !== null);
  if (crashed.length > 0) return `a side ended with ${crashed.map((s) => s.child.signalCode ?? s.child.exitCode).join(',')} (${results.join(' | ')})`;
  const errors = results.filter((r) => !r.startsWith('OPEN') && r !== 'HELD');
  if (errors.length > 0) return errors.join(' | ');
  const opened = results.filter((r) => r.startsWith('OPEN')).map((r) => r.split(' ').slice(1).map(Number) as [number, number]);
  if (opened.length === 0) return 'both refused: nobody opened the village';
  if (opened.length === 2) {
    const [[a0, a1], [b0, b1]] = opened as [[number, number], [number, number]];
    if (a0 < b1 && b0 < a1) return `both held the village at once (${a0}-${a1} and ${b0}-${b1})`;
  }
  return null;
}

describe('reliability: concurrent launches', () => {
  it(`${PAIRS} pairs racing for one village: one holds it at a time, the other is refused cleanly`, { timeout: PAIRS * PAIR_BUDGET_MS }, async () => {
    requireDist('host/villageLock.js');
    const tally = new Tally('concurrent-launches');
    const next = seeded(1);
    // Pairs go one after another on one village; within a pair both sides are released at the same moment.
    for (let i = 0; i < PAIRS; i += 1) tally.check(`pair ${i}`, await racePair(next));
    const opened = openSessionStore({ workspaceDir: workspace });
    tally.check('store reopens after every pair', opened.store === null ? opened.warning : null);
    if (opened.store !== null) {
      const records = opened.store.list().length;
      tally.check('every opening side left its session', records < PAIRS ? `${records} sessions for ${PAIRS} pairs` : null);
      await opened.store.close();
    }
    const walk = verifyLmdbFile(join(workspace, 'sessions.mdb'));
    tally.check('the store passes its structural walk', walk.state === 'ok' ? null : JSON.stringify(walk));
    tally.finish(PAIRS);
    expect(tally.held).toBe(tally.tried);
  });
});
