import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../src/core/events.js';
import { foldPlanWaves, PLAN_WAVES_KEPT, type PlanWave } from '../../../src/core/turn/planWaves.js';

const started = (planId: number, tos: string[], agentId = 'alice', wave = 1): CoreEvent => ({
  type: 'planWaveStarted',
  planId,
  agentId,
  wave,
  tasks: tos.map((to) => ({ to, msgChars: 10 })),
  startedAtMs: 1000 + planId,
});
const resolved = (planId: number, to: string, state: 'answered' | 'timed_out' | 'interrupted', elapsedMs = 5): CoreEvent => ({
  type: 'planTaskResolved',
  planId,
  to,
  state,
  elapsedMs,
});
const finished = (planId: number, bundleChars = 42, elapsedMs = 9): CoreEvent => ({ type: 'planWaveFinished', planId, bundleChars, elapsedMs });

const fold = (events: CoreEvent[]): readonly PlanWave[] => events.reduce<readonly PlanWave[]>((w, e) => foldPlanWaves(w, e), []);
const states = (w: PlanWave) => w.tasks.map((t) => `${t.to}:${t.state}`);

describe('foldPlanWaves', () => {
  it.each<[string, CoreEvent[], string[][], Array<number | null>]>([
    ['a started wave runs every task', [started(1, ['bob', 'carol'])], [['bob:running', 'carol:running']], [null]],
    ['a resolved task takes its state', [started(1, ['bob', 'carol']), resolved(1, 'carol', 'answered')], [['bob:running', 'carol:answered']], [null]],
    [
      'a finished wave keeps every state and its bundle size',
      [started(1, ['bob', 'carol']), resolved(1, 'bob', 'timed_out'), resolved(1, 'carol', 'answered'), finished(1, 77)],
      [['bob:timed_out', 'carol:answered']],
      [77],
    ],
    [
      'two tasks for one agent resolve in turn',
      [started(1, ['bob', 'bob']), resolved(1, 'bob', 'answered'), resolved(1, 'bob', 'interrupted')],
      [['bob:answered', 'bob:interrupted']],
      [null],
    ],
    ['an outcome for an unknown wave changes nothing', [started(1, ['bob']), resolved(2, 'bob', 'answered'), finished(3)], [['bob:running']], [null]],
    ['an outcome for an agent not in the wave changes nothing', [started(1, ['bob']), resolved(1, 'zed', 'answered')], [['bob:running']], [null]],
    ['waves stay in start order', [started(1, ['bob']), started(2, ['carol'], 'bob'), finished(1, 3)], [['bob:running'], ['carol:running']], [3, null]],
  ])('%s', (_name, events, expectedStates, bundles) => {
    const waves = fold(events);
    expect(waves.map(states)).toEqual(expectedStates);
    expect(waves.map((w) => w.bundleChars)).toEqual(bundles);
  });

  it('keeps the task elapsed time and the start time', () => {
    const [w] = fold([started(4, ['bob'], 'alice', 2), resolved(4, 'bob', 'answered', 1234), finished(4, 10, 1500)]);
    expect(w).toEqual({
      planId: 4,
      agentId: 'alice',
      wave: 2,
      startedAtMs: 1004,
      tasks: [{ to: 'bob', msgChars: 10, state: 'answered', elapsedMs: 1234 }],
      bundleChars: 10,
      elapsedMs: 1500,
    });
  });

  it(`keeps the newest ${PLAN_WAVES_KEPT} waves`, () => {
    const waves = fold(Array.from({ length: PLAN_WAVES_KEPT + 3 }, (_, i) => started(i + 1, ['bob'])));
    expect(waves).toHaveLength(PLAN_WAVES_KEPT);
    expect(waves[0]!.planId).toBe(4);
    expect(waves.at(-1)!.planId).toBe(PLAN_WAVES_KEPT + 3);
  });

  it('answers the same list for other events and for no change (callers compare by identity)', () => {
    const waves = fold([started(1, ['bob'])]);
    expect(foldPlanWaves(waves, { type: 'topologyChanged' })).toBe(waves);
    expect(foldPlanWaves(waves, resolved(9, 'bob', 'answered'))).toBe(waves);
    expect(foldPlanWaves(waves, resolved(1, 'bob', 'answered'))).not.toBe(waves);
  });
});
