import { describe, expect, it } from 'vitest';
import type { ChatResponse } from '../../../src/core/llm/canonical.js';
import { textResponse, toolCallResponse } from '../../../src/core/llm/scripted.js';
import {
  buildDelegationTools,
  decide,
  delegationGates,
  delegationNames,
  spokenText,
  type DecideContext,
} from '../../../src/core/turn/delegationTools.js';
import type { RosterEntry, TurnOutcome } from '../../../src/core/turn/ports.js';
import { MAX_LISTED_TIES } from '../../../src/core/turn/promptCaps.js';

describe('delegationGates', () => {
  it.each([
    // useTools, connections, allowHandoff, awaitingReply → useHandoffTools, offerTransfer
    [true, 2, true, false, true, true],
    [true, 2, true, true, true, false], // a delegated turn never transfers
    [true, 2, false, false, true, false],
    [true, 0, true, false, false, false],
    [false, 2, true, false, false, false],
  ])('useTools=%s conns=%i allow=%s awaiting=%s', (useTools, conns, allow, awaiting, handoff, transfer) => {
    expect(delegationGates(useTools, conns, allow, awaiting)).toEqual({ useHandoffTools: handoff, offerTransfer: transfer });
  });
});

describe('delegationNames', () => {
  const long = 'x'.repeat(60);
  it.each([
    ['plain ids', 'ask_', ['b', 'c'], [], ['ask_b', 'ask_c']],
    ['64 chars exactly is kept', 'ask_', ['y'.repeat(60)], [], [`ask_${'y'.repeat(60)}`]],
    ['over 64 chars falls back to the index', 'transfer_to_', ['b', long], [], ['transfer_to_b', 'transfer_to_agent_1']],
    ['collision with another tool falls back', 'ask_', ['b', 'c'], ['ask_c'], ['ask_b', 'ask_agent_1']],
    ['unsafe characters fall back', 'ask_', ['a b'], [], ['ask_agent_0']],
  ])('%s', (_name, prefix, ids, taken, expected) => {
    expect(delegationNames(prefix, ids, new Set(taken))).toEqual(expected);
  });
});

const roster: RosterEntry[] = [
  { id: 'b', name: 'Bob', roleName: null, status: 'running' },
  { id: 'c', name: 'Cy', roleName: null, status: 'running' },
];

describe('buildDelegationTools', () => {
  it('offers transfer, ask, plan in that order', () => {
    const tools = buildDelegationTools(roster, { useHandoffTools: true, offerTransfer: true }, 'en');
    expect(tools.specs.map((s) => s.name)).toEqual(['transfer_to_b', 'transfer_to_c', 'ask_b', 'ask_c', 'plan']);
    expect(tools.specs[0]!.parameters).toMatchObject({ required: ['message'], additionalProperties: false });
    const plan = tools.specs[4]!.parameters as { properties: { tasks: { items: { properties: { to: { enum: string[] } } } } } };
    expect(plan.properties.tasks.items.properties.to.enum).toEqual(['b', 'c']);
  });

  it('no transfer when not offered, no plan with one connection', () => {
    const tools = buildDelegationTools(roster.slice(0, 1), { useHandoffTools: true, offerTransfer: false }, 'ja');
    expect(tools.specs.map((s) => s.name)).toEqual(['ask_b']);
    expect(tools.planOffered).toBe(false);
  });

  it('plan lists at most MAX_LISTED_TIES ties (issue 28: 9,999 ties made one 300 kB spec)', () => {
    const many: RosterEntry[] = Array.from({ length: 9_999 }, (_, i) => ({ id: `p${i}`, name: `P${i}`, roleName: null, status: 'idle' }));
    const tools = buildDelegationTools(many, { useHandoffTools: true, offerTransfer: false }, 'en');
    const plan = tools.specs.find((s) => s.name === 'plan')!;
    const to = (plan.parameters as { properties: { tasks: { items: { properties: { to: { enum: string[] } } } } } }).properties.tasks.items.properties.to.enum;
    expect(to).toEqual(many.slice(0, MAX_LISTED_TIES).map((r) => r.id));
    expect(plan.description).toContain(`p${MAX_LISTED_TIES - 1} = P${MAX_LISTED_TIES - 1}`);
    expect(plan.description).not.toContain(`p${MAX_LISTED_TIES} = `);
    // Every tie keeps its ask_* tool; which of them go out is the tool cap's business.
    expect(tools.askTargets.size).toBe(9_999);
  });
});

describe('decide', () => {
  const transferTargets = new Map([
    ['transfer_to_b', 'b'],
    ['transfer_to_c', 'c'],
  ]);
  const ctx = (patch: Partial<DecideContext> = {}): DecideContext => ({
    useTools: true,
    offerTransfer: true,
    connectionIds: ['b', 'c'],
    transferTargets,
    ...patch,
  });
  const cases: Array<[string, ChatResponse, DecideContext, unknown]> = [
    ['plain text finishes', textResponse('done'), ctx(), { kind: 'finish', text: 'done' }],
    [
      'tools without transfer offered always finish',
      toolCallResponse([{ name: 'transfer_to_b', args: { message: 'm' } }], 'txt'),
      ctx({ offerTransfer: false }),
      { kind: 'finish', text: 'txt' },
    ],
    [
      'a transfer hands off with its message',
      toolCallResponse([{ name: 'transfer_to_b', args: { message: 'please' } }], 'txt'),
      ctx(),
      { kind: 'handoff', targets: ['b'], message: 'please' },
    ],
    [
      'dedupe by target, first wins; message falls back to text',
      toolCallResponse([{ name: 'transfer_to_c', args: {} }, { name: 'grep' }, { name: 'transfer_to_b', args: { message: 'x' } }, { name: 'transfer_to_c', args: { message: 'y' } }], 'T'),
      ctx(),
      { kind: 'handoff', targets: ['c', 'b'], message: 'x' },
    ],
    ['only other tools → finish (loop continues)', toolCallResponse([{ name: 'grep' }], 'T'), ctx(), { kind: 'finish', text: 'T' }],
    [
      'no-tools path: no marker hands the whole text to the first connection',
      textResponse('over to you'),
      ctx({ useTools: false }),
      { kind: 'handoff', targets: ['b'], message: 'over to you' },
    ],
    ['no-tools path: marker finishes, stripped', textResponse('all done [[END]]'), ctx({ useTools: false }), { kind: 'finish', text: 'all done' }],
    ['no-tools path without connections finishes', textResponse('hi'), ctx({ useTools: false, connectionIds: [] }), { kind: 'finish', text: 'hi' }],
  ];
  it.each(cases)('%s', (_name, response, context, expected) => {
    expect(decide(response, context)).toEqual(expected);
  });
});

describe('spokenText', () => {
  it.each<[TurnOutcome, string]>([
    [{ kind: 'finish', text: 'x' }, 'x'],
    [{ kind: 'handoff', targets: ['b'], message: 'm' }, 'm'],
    [{ kind: 'handoff', targets: ['b', 'c'], message: 'm' }, '[→ b] m\n[→ c] m'],
  ])('%j', (outcome, expected) => {
    expect(spokenText(outcome)).toBe(expected);
  });
});
