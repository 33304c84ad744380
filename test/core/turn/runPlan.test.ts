import { describe, expect, it } from 'vitest';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import type { CoreEvent } from '../../../src/core/events.js';
import { runPlan, type PlanContext } from '../../../src/core/turn/plan.js';
import type { DeliveryRequest, PlanReviewDecision, PlanReviewRequest, TurnPorts } from '../../../src/core/turn/ports.js';

/** Ports that deliver by echoing and record every delivery, review request and event. */
function ports(review?: (r: PlanReviewRequest, signal: AbortSignal) => Promise<PlanReviewDecision>) {
  const deliveries: DeliveryRequest[] = [];
  const events: CoreEvent[] = [];
  const reviews: PlanReviewRequest[] = [];
  const p: TurnPorts = {
    async deliverAndWait(request) {
      deliveries.push(request);
      return { text: `answer from ${request.to}`, state: 'answered' };
    },
    notice() {},
    emit: (e) => events.push(e),
    diag: new MemoryDiagSink(),
    ...(review
      ? {
          reviewPlan: (r: PlanReviewRequest, s: AbortSignal) => {
            reviews.push(r);
            return review(r, s);
          },
        }
      : {}),
  };
  return { p, deliveries, events, reviews };
}

function context(p: TurnPorts, needsReview: boolean, signal = new AbortController().signal): PlanContext {
  let id = 0;
  return {
    agentId: 'lead',
    language: 'en',
    roster: [
      { id: 'b', name: 'Bea', roleName: null, status: 'running' },
      { id: 'c', name: 'Cid', roleName: null, status: 'running' },
    ],
    hop: 0,
    maxHops: 8,
    ports: p,
    signal,
    now: () => 0,
    allocatePlanId: () => ++id,
    wave: 1,
    needsReview,
  };
}

const ARGS = { tasks: [{ to: 'b', message: 'do B' }, { to: 'c', message: 'do C' }] };

describe('plan review (a planReview agent waits for a person before delivery)', () => {
  it('approved: the wave goes out after the decision, with the tasks shown in full', async () => {
    const { p, deliveries, events, reviews } = ports(async () => ({ kind: 'approved' }));
    const run = await runPlan(ARGS, context(p, true));
    expect(reviews).toEqual([{ planId: 1, agentId: 'lead', wave: 1, tasks: ARGS.tasks }]);
    expect(deliveries.map((d) => d.to)).toEqual(['b', 'c']);
    expect(run.waveStarted).toBe(true);
    const types = events.map((e) => e.type);
    expect(types.indexOf('planReviewResolved')).toBeLessThan(types.indexOf('planWaveStarted'));
    expect(events).toContainEqual({ type: 'planReviewResolved', planId: 1, agentId: 'lead', approved: true });
  });

  it('rejected: nothing is delivered and the facilitator gets the reason as text', async () => {
    const { p, deliveries, events } = ports(async () => ({ kind: 'rejected', note: 'too broad' }));
    const run = await runPlan(ARGS, context(p, true));
    expect(deliveries).toEqual([]);
    expect(run).toEqual({ body: expect.stringContaining('too broad'), waveStarted: false });
    expect(events.some((e) => e.type === 'planWaveStarted')).toBe(false);
  });

  it('no reviewer attached and no bypass: the wave is refused, nothing delivered', async () => {
    const { p, deliveries } = ports();
    const run = await runPlan(ARGS, context(p, true));
    expect(deliveries).toEqual([]);
    expect(run.body).toContain('no reviewer');
  });

  it('review not needed (planReview off, or bypassed for this run): delivered without asking', async () => {
    const { p, deliveries, reviews } = ports(async () => ({ kind: 'rejected', note: null }));
    await runPlan(ARGS, context(p, false));
    expect(reviews).toEqual([]);
    expect(deliveries).toHaveLength(2);
  });

  it('an interrupt while waiting for review ends the call as interrupted, nothing delivered', async () => {
    const controller = new AbortController();
    const { p, deliveries } = ports(
      (_r, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('cut')))),
    );
    const pending = runPlan(ARGS, context(p, true, controller.signal));
    controller.abort();
    const run = await pending;
    expect(deliveries).toEqual([]);
    expect(run.body).toContain('interrupted');
  });
});

describe('a plan wave cut by an interrupt', () => {
  it('ignores answers that arrive after the cut: each task resolves once, as interrupted', async () => {
    const controller = new AbortController();
    const events: CoreEvent[] = [];
    let release!: () => void;
    const late = new Promise<void>((r) => (release = r));
    const p: TurnPorts = {
      async deliverAndWait(request) {
        await late; // both answers come back only after the interrupt
        return { text: `answer from ${request.to}`, state: 'answered' };
      },
      notice() {},
      emit: (e) => events.push(e),
      diag: new MemoryDiagSink(),
    };
    const pending = runPlan(ARGS, context(p, false, controller.signal));
    controller.abort();
    const run = await pending;
    release();
    await new Promise((r) => setImmediate(r));
    expect(run.body).toContain('interrupted');
    const resolved = events.flatMap((e) => (e.type === 'planTaskResolved' ? [`${e.to}:${e.state}`] : []));
    expect(resolved.sort()).toEqual(['b:interrupted', 'c:interrupted']);
  });
});
