/**
 * Workers spawned ahead of the supervisor (workerPrewarm.ts, used by the CLI's ask): the supervisor adopts them for
 * the agents it starts, they work like freshly spawned ones, and one that died before adoption is never handed out.
 * Needs `npm run build` first (workers load dist/).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { prewarmAgentWorkers, prewarmedCount, prewarmStages } from '../../src/actors/workerPrewarm.js';
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

  it('boot one at a time with one slot (the main thread keeps the other core); the rest wait their turn', async () => {
    prewarmAgentWorkers(3, SCRIPTED_WORKER, 1);
    expect(prewarmStages()).toEqual({ waiting: 2, booting: 1, online: 0 });
    let most = 0;
    await until(() => {
      const stages = prewarmStages();
      most = Math.max(most, stages.booting);
      return stages.online === 3;
    }, 'all three prewarmed workers online');
    expect(most).toBe(1);
    const v = village(world([agent('A', ['B']), agent('B'), agent('C')]));
    open.push(v);
    await Promise.all(['A', 'B', 'C'].map((id) => v.sup.startAgent(id)));
    expect(prewarmedCount()).toBe(0);
    expect(v.sup.liveWorkers()).toHaveLength(3);
    expect(await v.sup.askExternalOutcome('t', 'ask:B:ping')).toMatchObject({ answer: 'A<answered:B:ping>', state: 'answered' });
  });

  it('a worker still waiting for its turn is spawned when the supervisor adopts it', async () => {
    prewarmAgentWorkers(2, SCRIPTED_WORKER, 1);
    expect(prewarmStages()).toEqual({ waiting: 1, booting: 1, online: 0 });
    const v = village(world([agent('A', ['B']), agent('B')]));
    open.push(v);
    await Promise.all([v.sup.startAgent('A'), v.sup.startAgent('B')]);
    expect(prewarmedCount()).toBe(0);
    expect(await v.sup.askExternalOutcome('t', 'ask:B:ping')).toMatchObject({ answer: 'A<answered:B:ping>', state: 'answered' });
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
