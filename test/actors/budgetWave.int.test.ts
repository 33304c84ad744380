/**
 * Issue 3 acceptance: one causal root's token budget is shared by every turn of a plan wave across worker
 * threads (a SharedArrayBuffer pool). Real workers, the real engine, the stub LLM reporting fixed usage.
 */
import { describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent } from './support/villageFixture.js';

const villages = useStubVillages();

// Every call costs 700 prompt + 25 completion = 800 effective tokens; a reservation is at least 1,000.
const USAGE = { usage: { prompt: 700, completion: 25 } };

describe('budget shared by a wave', () => {
  it('the lead and its wave draw on one pool: one target runs, the other is cut, the lead stops on budget', async () => {
    const agents = [agent('L', ['B', 'C']), agent('B'), agent('C')];
    const v = villages.make(agents, {}, { tokenBudget: 2_500 });
    const stub = villages.stub();
    await Promise.all(agents.map((a) => v.sup.startAgent(a.id)));
    stub.respond((r) => {
      if (r.model !== 'm-L') return reply.text(`${r.model} answered`, USAGE);
      return toolResults(r).length === 0
        ? reply.tool('plan', { tasks: [{ to: 'B', message: 'b' }, { to: 'C', message: 'c' }] }, USAGE)
        : reply.text('lead summary', USAGE);
    });

    const out = await v.sup.askExternalOutcome('tester', 'go');

    // 2,500 budget: lead 800 → 1,700 left; B and C each need to reserve 1,000: exactly one fits.
    const targetCalls = stub.requests.filter((r) => r.model !== 'm-L').length;
    expect(targetCalls).toBe(1);
    const states = v.events.flatMap((e) => (e.type === 'planTaskResolved' ? [e.state] : [])).sort();
    expect(states).toEqual(['answered', 'budget_exhausted']);
    // 900 left after the wave: the lead cannot reserve its next call either.
    expect(out.state).toBe('budget_exhausted');
    expect(stub.requests.filter((r) => r.model === 'm-L')).toHaveLength(1);
    const stops = v.recorder.turns.map((t) => `${t.agentId}:${t.stop.kind}`).sort();
    expect(stops).toContain('L:reserve_short');
  });
});
