/**
 * The supervisor with the real agent worker (dist/actors/agentWorker.bundle.cjs: the turn engine, the
 * OpenAI-compatible backend) against the loopback stub LLM. Each agent has its own template whose model
 * names the agent, so the stub's responder can script every agent separately.
 */
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/core/events.js';
import type { AgentSpec } from '../../src/core/world/types.js';
import { reply, type StubRequest, type StubStep } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent, until, type Village } from './support/villageFixture.js';

const villages = useStubVillages();

/** Per-agent scripts: the agent's n-th request (by model `m-<id>`) gets script[id](request, n). */
function script(steps: Record<string, (r: StubRequest) => StubStep>): void {
  villages.stub().respond((r) => {
    const id = r.model.replace(/^m-/, '');
    const fn = steps[id];
    return fn === undefined ? reply.text(`${id} has no script`) : fn(r);
  });
}

const make = (agents: AgentSpec[]): Village => villages.make(agents);
const ofType = <T extends CoreEvent['type']>(v: Village, type: T) =>
  v.events.filter((e): e is Extract<CoreEvent, { type: T }> => e.type === type);

describe('actors with the real turn engine and the stub LLM', () => {
  it('carries a delegation chain A → B → C and returns each answer to its asker', async () => {
    const v = make(([agent('A', ['B']), agent('B', ['C']), agent('C')]));
    await Promise.all(['A', 'B', 'C'].map((id) => v.sup.startAgent(id)));
    script({
      A: (r) => (toolResults(r).length === 0 ? reply.tool('ask_B', { message: 'question for B' }) : reply.text(`A heard: ${toolResults(r)[0]}`)),
      B: (r) => (toolResults(r).length === 0 ? reply.tool('ask_C', { message: 'question for C' }) : reply.text(`B heard: ${toolResults(r)[0]}`)),
      C: () => reply.text('leaf answer'),
    });
    const out = await v.sup.askExternalOutcome('tester', 'go');
    expect(out.state).toBe('answered');
    expect(out.answer).toContain('A heard:');
    expect(out.answer).toContain('B heard:');
    expect(out.answer).toContain('leaf answer');
    expect(v.recorder.turns.map((t) => t.agentId)).toEqual(['C', 'B', 'A']);
    expect(v.recorder.turns.every((t) => t.backend === 'openai-compat' && t.stop.kind === 'completed')).toBe(true);
  });

  it('bundles a 3-agent plan wave in input order', async () => {
    const v = make(([agent('A', ['B', 'C', 'D']), agent('B'), agent('C'), agent('D')]));
    await Promise.all(['A', 'B', 'C', 'D'].map((id) => v.sup.startAgent(id)));
    let bundle = '';
    script({
      A: (r) => {
        if (toolResults(r).length === 0) {
          return reply.tool('plan', { tasks: ['D', 'B', 'C'].map((to) => ({ to, message: `task for ${to}` })) });
        }
        bundle = toolResults(r)[0] ?? '';
        return reply.text('done');
      },
      B: () => reply.text('answer-B', { delayMs: 30 }),
      C: () => reply.text('answer-C'),
      D: () => reply.text('answer-D', { delayMs: 60 }),
    });
    expect(await v.sup.askExternalOutcome('tester', 'plan it')).toMatchObject({ answer: 'done', state: 'answered' });
    const order = ['answer-D', 'answer-B', 'answer-C'].map((a) => bundle.indexOf(a));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(ofType(v, 'planTaskResolved').map((e) => e.state)).toEqual(['answered', 'answered', 'answered']);
  });

  it('fans a transfer out to two agents who each answer the user', async () => {
    const v = make(([agent('A', ['B', 'C']), agent('B'), agent('C')]));
    await Promise.all(['A', 'B', 'C'].map((id) => v.sup.startAgent(id)));
    script({
      A: () => reply.toolCalls([{ name: 'transfer_to_B', args: { message: 'over to you' } }, { name: 'transfer_to_C', args: { message: 'over to you' } }]),
      B: () => reply.text('B here'),
      C: () => reply.text('C here'),
    });
    v.sup.sendUserMessage('A', 'please route');
    await until(() => v.diag.notes.filter((n) => n.kind === 'reply').length === 2, 'two replies');
    const toUser = v.recorder.messages.filter((m) => m.to.kind === 'user' && m.from.kind === 'agent').map((m) => m.content).sort();
    expect(toUser).toEqual(['B here', 'C here']);
    expect(v.recorder.messages.filter((m) => m.coRecipients?.join() === 'B,C')).toHaveLength(2);
  });

  it('interruptAll during a wave cuts every turn of the tree; the external ask resolves interrupted', async () => {
    const v = make(([agent('A', ['B', 'C']), agent('B'), agent('C')]));
    await Promise.all(['A', 'B', 'C'].map((id) => v.sup.startAgent(id)));
    script({
      A: () => reply.tool('plan', { tasks: [{ to: 'B', message: 'slow' }, { to: 'C', message: 'slow' }] }),
      B: () => reply.text('late B', { delayMs: 1500 }),
      C: () => reply.text('late C', { delayMs: 1500 }),
    });
    const asked = v.sup.askExternalOutcome('tester', 'wave');
    await until(() => villages.stub().count >= 3, 'B and C calling the model');
    await v.sup.interruptAll();
    expect((await asked).state).toBe('interrupted');
    await until(() => ofType(v, 'turnInterrupted').length === 3, 'three interrupted turns');
    expect(ofType(v, 'agentFailed')).toEqual([]);
  });

  it('a fatal API error fails only that agent; the others keep answering', async () => {
    const v = make(([agent('A', ['B', 'C']), agent('B'), agent('C')]));
    await Promise.all(['A', 'B', 'C'].map((id) => v.sup.startAgent(id)));
    script({
      A: (r) => (toolResults(r).length === 0 ? reply.tool(r.lastUserText.includes('to B') ? 'ask_B' : 'ask_C', { message: 'q' }) : reply.text(`A: ${toolResults(r)[0]}`)),
      B: () => reply.error(400),
      C: () => reply.text('C fine'),
    });
    const first = await v.sup.askExternalOutcome('tester', 'to B');
    expect(first.answer).toContain('No answer');
    expect(ofType(v, 'agentFailed')[0]).toMatchObject({ agentId: 'B', error: { code: 'LLM_API' } });
    expect(v.sup.statuses()).toContainEqual({ agentId: 'B', status: 'failed' });
    const second = await v.sup.askExternalOutcome('tester', 'to C');
    expect(second).toMatchObject({ state: 'answered', answer: expect.stringContaining('C fine') });
  });
});
