import { describe, expect, it } from 'vitest';
import { ScriptedBackend, textResponse, toolCallResponse } from '../../../src/core/llm/scripted.js';
import { planBundle, validatePlan } from '../../../src/core/turn/plan.js';
import type { RosterEntry } from '../../../src/core/turn/ports.js';
import { agentSpec, TurnHarness } from '../../support/turnHarness.js';

describe('validatePlan', () => {
  const ids = ['b', 'c'];
  it.each([
    ['valid', { tasks: [{ to: 'b', message: 'x' }, { to: 'c', message: 'y' }] }, null],
    ['no tasks', {}, 'tasks is missing or empty'],
    ['empty tasks', { tasks: [] }, 'tasks is missing or empty'],
    ['missing to', { tasks: [{ message: 'x' }] }, 'tasks[0] has no "to"'],
    ['missing message', { tasks: [{ to: 'b' }] }, 'tasks[0] has no "message"'],
    ['not a connection', { tasks: [{ to: 'b', message: 'x' }, { to: 'z', message: 'y' }] }, 'z is not one of your current connections'],
    ['duplicate to', { tasks: [{ to: 'b', message: 'x' }, { to: 'b', message: 'y' }] }, 'b appears more than once'],
    ['not an object', null, 'tasks is missing or empty'],
  ])('%s', (_name, args, problem) => {
    const v = validatePlan(args, ids, 'en');
    if (problem === null) expect(v.ok).toBe(true);
    else expect(v).toEqual({ ok: false, problem });
  });
});

describe('planBundle', () => {
  const roster: RosterEntry[] = [
    { id: 'b', name: 'Bob', roleName: null, status: 'running' },
    { id: 'c', name: 'Cy', roleName: null, status: 'running' },
  ];
  it.each([
    ['ja', '## c（Cy）\nC!\n\n## b（Bob）\nB!'],
    ['en', '## c (Cy)\nC!\n\n## b (Bob)\nB!'],
  ] as const)('%s keeps input order', (language, expected) => {
    const tasks = [
      { to: 'c', message: '1' },
      { to: 'b', message: '2' },
    ];
    expect(planBundle(tasks, ['C!', 'B!'], roster, language)).toBe(expected);
  });
});

/** A backend whose answer arrives only after `gate` resolves (so answers come back out of order). */
function gated(text: string, gate: Promise<void>): ScriptedBackend {
  return new ScriptedBackend([
    async () => {
      await gate;
      return textResponse(text);
    },
  ]);
}

describe('plan waves through the engine', () => {
  it('bundles answers in input order even when they resolve out of order', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const a = new ScriptedBackend([
      toolCallResponse([{ name: 'plan', args: { tasks: [{ to: 'c', message: 'do C' }, { to: 'b', message: 'do B' }] } }]),
      textResponse('all done'),
    ]);
    const b = new ScriptedBackend([
      () => {
        release();
        return textResponse('B answer');
      },
    ]);
    const h = new TurnHarness([
      { spec: agentSpec('a', { connectedAgents: ['b', 'c'] }), backend: a },
      { spec: agentSpec('b'), backend: b },
      { spec: agentSpec('c'), backend: gated('C answer', gate) },
    ]);
    const r = await h.send('a', 'go');
    const bundle = a.requests[1]!.messages.at(-1)!.content;
    expect(bundle).toBe('## c (c-name)\nC answer\n\n## b (b-name)\nB answer');
    expect(r.waves).toBe(1);
    expect(r.rounds).toBe(2);
    expect(h.eventsOf('planWaveStarted')).toEqual([
      { type: 'planWaveStarted', planId: 1, agentId: 'a', wave: 1, tasks: [{ to: 'c', msgChars: 4 }, { to: 'b', msgChars: 4 }], startedAtMs: 0 },
    ]);
    expect(h.eventsOf('planTaskResolved').map((e) => [e.to, e.state])).toEqual([
      ['b', 'answered'],
      ['c', 'answered'],
    ]);
    expect(h.eventsOf('planWaveFinished')).toEqual([{ type: 'planWaveFinished', planId: 1, bundleChars: bundle.length, elapsedMs: 0 }]);
    expect(h.noteKinds()).toEqual(expect.arrayContaining(['plan wave', 'plan bundle']));
    expect(h.deliveries.map((d) => d.hop)).toEqual([1, 1]);
  });

  it('an invalid plan sends nothing', async () => {
    const a = new ScriptedBackend([
      toolCallResponse([{ name: 'plan', args: { tasks: [{ to: 'b', message: 'x' }, { to: 'b', message: 'y' }] } }]),
      textResponse('ok'),
    ]);
    const h = new TurnHarness([
      { spec: agentSpec('a', { connectedAgents: ['b', 'c'] }), backend: a },
      { spec: agentSpec('b'), backend: new ScriptedBackend() },
      { spec: agentSpec('c'), backend: new ScriptedBackend() },
    ]);
    const r = await h.send('a', 'go');
    expect(h.deliveries).toEqual([]);
    expect(r.waves).toBe(0);
    expect(a.requests[1]!.messages.at(-1)!.content).toBe('The plan was not sent: b appears more than once');
  });

  it('an interrupt during the wave marks unresolved tasks interrupted and ends the turn', async () => {
    const controller = new AbortController();
    const never = new Promise<void>(() => {});
    const a = new ScriptedBackend([toolCallResponse([{ name: 'plan', args: { tasks: [{ to: 'b', message: 'x' }, { to: 'c', message: 'y' }] } }])]);
    const b = new ScriptedBackend([
      () => {
        queueMicrotask(() => controller.abort());
        return textResponse('B done');
      },
    ]);
    const h = new TurnHarness([
      { spec: agentSpec('a', { connectedAgents: ['b', 'c'] }), backend: a },
      { spec: agentSpec('b'), backend: b },
      { spec: agentSpec('c'), backend: gated('late', never) },
    ]);
    const r = await h.send('a', 'go', { signal: controller.signal });
    expect(r.stop).toEqual({ kind: 'interrupted' });
    const states = Object.fromEntries(h.eventsOf('planTaskResolved').map((e) => [e.to, e.state]));
    expect(states.c).toBe('interrupted');
    expect(h.eventsOf('planWaveFinished')[0]!.bundleChars).toBe(0);
    expect(h.noteKinds()).toContain('plan wave interrupted');
  });

  it('the hop limit refuses the whole wave', async () => {
    const a = new ScriptedBackend([
      toolCallResponse([{ name: 'plan', args: { tasks: [{ to: 'b', message: 'x' }, { to: 'c', message: 'y' }] } }]),
      textResponse('ok'),
    ]);
    const h = new TurnHarness(
      [
        { spec: agentSpec('a', { connectedAgents: ['b', 'c'] }), backend: a },
        { spec: agentSpec('b'), backend: new ScriptedBackend() },
        { spec: agentSpec('c'), backend: new ScriptedBackend() },
      ],
      { maxHops: 1 },
    );
    await h.send('a', 'go');
    expect(h.deliveries).toEqual([]);
    expect(h.eventsOf('hopLimitReached')).toHaveLength(1);
    expect(h.eventsOf('planWaveStarted')).toHaveLength(0);
  });
});
