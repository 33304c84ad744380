/**
 * Plan review across threads (issue 8): a `planReview` agent's wave is held by the supervisor until a person
 * decides; nothing is delivered and no LLM request is made for the targets meanwhile. Real workers, stub LLM.
 */
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../src/core/world/types.js';
import { reply } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent, until, type Village } from './support/villageFixture.js';

const villages = useStubVillages();

/** Lead plans a wave to B and C, then reports what the plan tool returned. */
function scriptLead(): void {
  villages.stub().respond((r) => {
    const id = r.model.replace(/^m-/, '');
    if (id !== 'L') return reply.text(`${id} did it`);
    const results = toolResults(r);
    return results.length === 0
      ? reply.tool('plan', { tasks: [{ to: 'B', message: 'part B' }, { to: 'C', message: 'part C' }] })
      : reply.text(`lead got: ${results[0]}`);
  });
}

const make = (agents: AgentSpec[], planReview: 'ask' | 'bypass' | 'unavailable'): Village => villages.make(agents, { planReview });

const team = (): AgentSpec[] => [agent('L', ['B', 'C'], { planReview: true }), agent('B'), agent('C')];
const targetRequests = (): number => villages.stub().requests.filter((r) => r.model !== 'm-L').length;

describe('plan review through the supervisor', () => {
  it('holds the wave (no target request) until approved, then delivers and bundles', async () => {
    const v = make(team(), 'ask');
    await Promise.all(['L', 'B', 'C'].map((id) => v.sup.startAgent(id)));
    scriptLead();
    const asked = v.sup.askExternalOutcome('tester', 'go');
    await until(() => v.sup.pendingPlanReviews().length === 1, 'a held wave');
    const [held] = v.sup.pendingPlanReviews();
    expect(held).toMatchObject({ agentId: 'L', tasks: [{ to: 'B', message: 'part B' }, { to: 'C', message: 'part C' }] });
    expect(targetRequests()).toBe(0);
    v.sup.resolvePlanReview(held!.planId, { kind: 'approved' });
    const out = await asked;
    expect(out.state).toBe('answered');
    expect(out.answer).toContain('B did it');
    expect(out.answer).toContain('C did it');
    expect(v.events.some((e) => e.type === 'planReviewResolved' && e.approved)).toBe(true);
  });

  it('a rejection returns the note to the facilitator and nothing reaches the targets', async () => {
    const v = make(team(), 'ask');
    await Promise.all(['L', 'B', 'C'].map((id) => v.sup.startAgent(id)));
    scriptLead();
    const asked = v.sup.askExternalOutcome('tester', 'go');
    await until(() => v.sup.pendingPlanReviews().length === 1, 'a held wave');
    v.sup.resolvePlanReview(v.sup.pendingPlanReviews()[0]!.planId, { kind: 'rejected', note: 'ask B only' });
    const out = await asked;
    expect(out.answer).toContain('ask B only');
    expect(targetRequests()).toBe(0);
    expect(v.sup.pendingPlanReviews()).toEqual([]);
  });

  it('interruptAll while a wave is held withdraws it', async () => {
    const v = make(team(), 'ask');
    await Promise.all(['L', 'B', 'C'].map((id) => v.sup.startAgent(id)));
    scriptLead();
    const asked = v.sup.askExternalOutcome('tester', 'go');
    await until(() => v.sup.pendingPlanReviews().length === 1, 'a held wave');
    await v.sup.interruptAll();
    const out = await asked;
    expect(out.state).toBe('interrupted');
    await until(() => v.sup.pendingPlanReviews().length === 0, 'the held wave withdrawn');
    expect(targetRequests()).toBe(0);
  });

  it('headless --bypass-plan-review lets the wave straight through', async () => {
    const v = make(team(), 'bypass');
    await Promise.all(['L', 'B', 'C'].map((id) => v.sup.startAgent(id)));
    scriptLead();
    const out = await v.sup.askExternalOutcome('tester', 'go');
    expect(out.answer).toContain('B did it');
    expect(v.events.some((e) => e.type === 'planReviewRequested')).toBe(false);
  });
});
