/**
 * The shared scanning pool (piscina) with its real thread entry: a cancelled job's thread is terminated and
 * replaced (the slot is free at once), a full queue answers COMPUTE_BUSY, a job past its deadline is stopped with
 * COMPUTE_FAILED; and through a real agent worker: an interrupt during a pooled grep ends the turn interrupted and
 * frees the slot. Slow jobs are linear-time matching over a few 2 MB lines (the bounded engine's worst case).
 * Needs `npm run build` first (the pool loads dist/actors/scanWorker.bundle.js).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ScanPool } from '../../src/actors/scanPool.js';
import type { GrepJob } from '../../src/core/tools/scan/scanJob.js';
import { reply } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent, until } from './support/villageFixture.js';

const villages = useStubVillages();
let work: string;
const pools: ScanPool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
});

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ff-scan-'));
  mkdirSync(join(work, 'slow'));
  // Each file costs the linear engine about a second for the pattern below.
  for (let i = 0; i < 4; i += 1) writeFileSync(join(work, 'slow', `big${i}.txt`), `${'a'.repeat(2_000_000)}!\n`);
  writeFileSync(join(work, 'small.txt'), 'needle here\n');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SLOW = '(a|aa)+$';
const job = (rel: string, pattern: string): GrepJob => ({
  kind: 'grep', units: [{ kind: 'tree', abs: join(work, rel), rel }], pattern, ignoreCase: false, include: null, context: 0, countOnly: false, maxFiles: 20_000,
});
const small = (): GrepJob => ({ ...job('', 'needle'), units: [{ kind: 'file', abs: join(work, 'small.txt'), rel: 'small.txt' }] });

function pool(options: ConstructorParameters<typeof ScanPool>[0]): ScanPool {
  const p = new ScanPool(options);
  pools.push(p);
  return p;
}

describe('the scanning pool', () => {
  it('an aborted running job rejects, its thread is terminated and a new job runs', async () => {
    const p = pool({ threads: 1 });
    const controller = new AbortController();
    const running = p.run(job('slow', SLOW), controller.signal);
    await until(() => p.stats().started === 1, 'the job running');
    const before = p.stats().threadIds;
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(await p.run(small(), new AbortController().signal)).toMatchObject({ kind: 'grep', hits: [{ rel: 'small.txt', count: 1 }] });
    expect(p.stats().threadIds.some((id) => before.includes(id))).toBe(false);
    expect(p.stats().started).toBe(2);
  });

  it('a full queue answers COMPUTE_BUSY at once instead of growing', async () => {
    const p = pool({ threads: 1, maxQueue: 1 });
    const controller = new AbortController();
    const first = p.run(job('slow', SLOW), controller.signal).catch((e: unknown) => e);
    await until(() => p.stats().started === 1, 'the job running');
    const second = p.run(small(), controller.signal).catch((e: unknown) => e);
    await until(() => p.stats().queued === 1, 'one job waiting');
    await expect(p.run(small(), controller.signal)).rejects.toMatchObject({ code: 'COMPUTE_BUSY', retryable: true, fix: expect.stringContaining('try again') });
    controller.abort();
    await Promise.all([first, second]);
    expect(p.stats().queued).toBe(0);
  });

  it('a job past its deadline is stopped with COMPUTE_FAILED', async () => {
    const p = pool({ threads: 1, deadlineMs: 300 });
    await expect(p.run(job('slow', SLOW), new AbortController().signal)).rejects.toMatchObject({
      code: 'COMPUTE_FAILED',
      message: expect.stringContaining('longer than'),
    });
  });
});

describe('an agent grep on the pool', () => {
  it('an interrupt during a pooled grep ends the turn interrupted and frees the slot', async () => {
    const scanPool = pool({ threads: 1 });
    const v = villages.make([agent('G', [], { workDir: work })], { scanPool });
    const stub = villages.stub();
    await v.sup.startAgent('G');
    stub.respond((r) => (toolResults(r).length === 0 ? reply.tool('grep', { pattern: SLOW, path: 'slow', reason: 'look' }) : reply.text('done')));
    const asked = v.sup.askExternalOutcome('tester', 'search');
    await until(() => scanPool.stats().started === 1, 'the grep running on the pool');
    const busy = scanPool.stats().threadIds;
    await v.sup.interruptAll();
    expect(await asked).toMatchObject({ state: 'interrupted' });
    expect(v.events.some((e) => e.type === 'turnInterrupted' && e.agentId === 'G')).toBe(true);
    await until(() => !scanPool.stats().threadIds.some((id) => busy.includes(id)), 'the busy thread ended');
    expect(scanPool.stats().queued).toBe(0);
    // The next request is answered: the slot is free.
    stub.reset();
    stub.respond((r) => (toolResults(r).length === 0 ? reply.tool('grep', { pattern: 'needle', path: 'small.txt', reason: 'look' }) : reply.text(`found: ${toolResults(r)[0]}`)));
    expect(await v.sup.askExternalOutcome('tester', 'search again')).toMatchObject({ state: 'answered', answer: expect.stringContaining('small.txt:1: needle here') });
  }, 60_000);
});
