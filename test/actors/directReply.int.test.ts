/**
 * Asks answered on the direct channel between two real workers (directReplies.ts): the supervisor's own rules still
 * decide what the asker gets when the answer is late, and every answer is recorded once, in causal order.
 * Needs `npm run build` first (workers load dist/).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { agent, until, village, world, type Village } from './support/villageFixture.js';

const open: Village[] = [];
afterEach(async () => {
  for (const v of open.splice(0)) await v.close();
});

describe('direct answers between workers', () => {
  it('an ask past askTimeoutSecs answers timed_out; the late direct answer is recorded but not taken', async () => {
    const v = village(world([agent('A', ['B']), agent('B')], { askTimeoutSecs: 1 }));
    open.push(v);
    await Promise.all([v.sup.startAgent('A'), v.sup.startAgent('B')]);
    const out = await v.sup.askExternalOutcome('t', 'ask:B:sleep:1800:late', { timeoutMs: 20_000 });
    expect(out.answer).toMatch(/^A<timed_out:\(No answer: the wait timed out\.\)>$/);
    await until(() => v.recorder.turns.some((t) => t.agentId === 'B'), "B's late turn recorded");
    expect(v.recorder.messages.filter((m) => m.from.kind === 'agent' && m.from.id === 'B').map((m) => m.content)).toEqual(['B:late']);
  });

  it('records a plan wave answered directly in causal order: each answer before the bundle that used it', async () => {
    const v = village(world([agent('A', ['B', 'C']), agent('B'), agent('C')]));
    open.push(v);
    await Promise.all(['A', 'B', 'C'].map((id) => v.sup.startAgent(id)));
    for (let round = 0; round < 5; round += 1) {
      const out = await v.sup.askExternalOutcome('t', `plan:B,C:r${round}`);
      expect(out.state).toBe('answered');
    }
    const agentLines = v.recorder.messages
      .filter((m) => m.from.kind === 'agent')
      .map((m) => `${m.from.kind === 'agent' ? m.from.id : ''}>${m.to.kind === 'agent' ? m.to.id : m.to.kind}`);
    // Per round: A asks B and C, both answer A (either order), then A answers the external client.
    for (let round = 0; round < 5; round += 1) {
      const lines = agentLines.slice(round * 5, round * 5 + 5);
      expect(lines.slice(0, 4).sort()).toEqual(['A>B', 'A>C', 'B>A', 'C>A']);
      expect(lines.indexOf('B>A')).toBeGreaterThan(lines.indexOf('A>B'));
      expect(lines[4]).toBe('A>external');
    }
  });
});
