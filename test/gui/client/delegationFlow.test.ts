import { describe, expect, it } from 'vitest';
import { emptyFlow, trackDelegation, type DelegationFlow } from '../../../src/gui/client/lib/delegationFlow.js';
import type { CoreEvent } from '../../../src/gui/client/lib/types.js';

const msg = (from: string, to: string): CoreEvent => ({
  type: 'messageSent',
  message: { id: `${from}-${to}-${Math.random()}`, from: { kind: 'agent', id: from }, to: { kind: 'agent', id: to }, content: 'x', tokens: 0, tsMs: 0, hop: 1 },
});
const typing = (agentId: string, active: boolean): CoreEvent => ({ type: 'agentTyping', agentId, active });

/** Runs events through the tracker, keeping the typing map the way the view does. */
function run(events: CoreEvent[], flow: DelegationFlow = emptyFlow()): DelegationFlow {
  const t: Record<string, boolean> = {};
  for (const e of events) {
    trackDelegation(flow, t, e);
    if (e.type === 'agentTyping') {
      if (e.active) t[e.agentId] = true;
      else delete t[e.agentId];
    }
  }
  return flow;
}

describe('trackDelegation (the tie carrying a delegation)', () => {
  it('an ask is in flight from the request until the answer comes back', () => {
    const asked = run([typing('a', true), msg('a', 'b'), typing('b', true)]);
    expect(asked.ties).toEqual({ 'a>b': true });
    const answered = run([typing('b', false), msg('b', 'a')], asked);
    expect(answered.ties).toEqual({});
  });

  it('a hand-off (recorded after the turn) is not a delegation', () => {
    expect(run([typing('a', true), typing('a', false), msg('a', 'b')]).ties).toEqual({});
  });

  it('plan tasks resolve one by one', () => {
    const flow = run([
      typing('a', true),
      { type: 'planWaveStarted', planId: 7, agentId: 'a', wave: 1, tasks: [{ to: 'b', msgChars: 1 }, { to: 'c', msgChars: 1 }], startedAtMs: 0 },
      msg('a', 'b'),
      msg('a', 'c'),
      { type: 'planTaskResolved', planId: 7, to: 'b', state: 'answered', elapsedMs: 5 },
    ]);
    expect(flow.ties).toEqual({ 'a>c': true });
  });

  it.each<[string, CoreEvent]>([
    ['the asking tool returns (timed out, refused)', { type: 'toolInvoked', agentId: 'a', tool: 'ask_b', ok: false, reason: { kind: 'excluded' } }],
    ['the asker stops typing', typing('a', false)],
    ['the asker stops', { type: 'agentStatusChanged', agentId: 'a', status: 'stopping' }],
    ['a new conversation', { type: 'conversationCleared' }],
  ])('clears when %s', (_why, event) => {
    expect(run([typing('a', true), msg('a', 'b'), event]).ties).toEqual({});
  });

  it('a question back during the answer keeps both directions', () => {
    expect(run([typing('a', true), msg('a', 'b'), typing('b', true), msg('b', 'a')]).ties).toEqual({ 'a>b': true, 'b>a': true });
  });

  it('other tools and messages to the user change nothing', () => {
    const flow = run([typing('a', true), msg('a', 'b'), { type: 'toolInvoked', agentId: 'a', tool: 'grep', ok: true, reason: { kind: 'omitted' } }]);
    expect(flow.ties).toEqual({ 'a>b': true });
  });
});
