/**
 * Workers spawned ahead of the supervisor (workerPrewarm.ts, used by the CLI's ask): the supervisor adopts them for
 * the agents it starts, they work like freshly spawned ones, and one that died before adoption is never handed out.
 * Needs `npm run build` first (workers load dist/).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { prewarmAgentWorkers, prewarmedCount } from '../../src/actors/workerPrewarm.js';
import { agent, SCRIPTED_WORKER, until, village, world, type Village } from './support/villageFixture.js';

const open: Village[] = [];
afterEach(async () => {
  for (const v of open.splice(0)) await v.close();
});

describe('prewarmed agent workers', () => {
  it('are adopted by the agents started next, which then answer and stop as usual', async () => {
    prewarmAgentWorkers(2, SCRIPTED_WORKER);
    expect(prewarmedCount()).toBe(2);
    // A second call tops up to its count (ask's early guess, then preflight's set): nothing spawned twice.
    prewarmAgentWorkers(2, SCRIPTED_WORKER);
    expect(prewarmedCount()).toBe(2);
    const v = village(world([agent('A', ['B']), agent('B')]));
    open.push(v);
    await Promise.all([v.sup.startAgent('A'), v.sup.startAgent('B')]);
    expect(prewarmedCount()).toBe(0);
    expect(await v.sup.askExternalOutcome('t', 'ask:B:ping')).toMatchObject({ answer: 'A<answered:B:ping>', state: 'answered' });
    await v.sup.stopAgent('B');
    expect(v.sup.liveWorkers()).toHaveLength(1);
  });

  it('never hands out a worker that died before it was adopted', async () => {
    prewarmAgentWorkers(1, new URL('./fixtures/doesNotExist.mjs', import.meta.url));
    await until(() => prewarmedCount() === 0, 'the broken prewarmed worker retired');
    const v = village(world([agent('A')]));
    open.push(v);
    await v.sup.startAgent('A');
    expect(await v.sup.askExternalOutcome('t', 'hi')).toMatchObject({ answer: 'A:hi', state: 'answered' });
  });
});
