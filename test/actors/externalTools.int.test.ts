/**
 * Main-thread (MCP) tools from real agent workers: the worker presents the spec, the call crosses to the
 * supervisor's ExternalToolPort and back; an interrupt aborts a call in flight. Real workers, stub LLM.
 */
import { describe, expect, it } from 'vitest';
import type { ExternalToolPort } from '../../src/actors/supervisor.js';
import type { ToolReply } from '../../src/core/tools/contract.js';
import { reply } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent, until, type Village } from './support/villageFixture.js';

const villages = useStubVillages();

/** A port with two tools: an adder, and a call that waits until aborted. Records what happened. */
function port() {
  const log = { opened: [] as string[], closed: [] as string[], aborted: 0, calls: [] as string[] };
  const p: ExternalToolPort = {
    async openAgent(id) {
      log.opened.push(id);
    },
    async closeAgent(id) {
      log.closed.push(id);
    },
    specsFor: () => [
      { name: 'calc__add', description: '[calc] add two numbers', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
      { name: 'calc__slow', description: '[calc] never finishes', parameters: { type: 'object', properties: {} } },
    ],
    call(_agentId, name, args, signal): Promise<ToolReply> {
      log.calls.push(name);
      if (name === 'calc__add') return Promise.resolve({ body: String(Number(args.a) + Number(args.b)), ok: true });
      return new Promise((resolve) =>
        signal.addEventListener('abort', () => {
          log.aborted += 1;
          resolve({ body: 'aborted', ok: false });
        }),
      );
    },
  };
  return { p, log };
}

const make = (p: ExternalToolPort): Village => villages.make([agent('A')], { externalTools: p });

describe('external (main-thread) tools from agent workers', () => {
  it('presents the port tools without a reason field and carries a call there and back', async () => {
    const { p, log } = port();
    const v = make(p);
    await v.sup.startAgent('A');
    villages.stub().respond((r) => (toolResults(r).length === 0 ? reply.tool('calc__add', { a: 2, b: 40 }) : reply.text(`sum is ${toolResults(r)[0]}`)));
    const out = await v.sup.askExternalOutcome('tester', 'add');
    expect(out.answer).toBe('sum is 42');
    const tools = (villages.stub().requests[0]?.body?.tools ?? []) as Array<{ function: { name: string; parameters: { properties: object } } }>;
    const add = tools.find((t) => t.function.name === 'calc__add');
    expect(add).toBeDefined();
    expect(Object.keys(add!.function.parameters.properties)).not.toContain('reason');
    expect(log.opened).toEqual(['A']);
    expect(v.events).toContainEqual(expect.objectContaining({ type: 'toolInvoked', tool: 'calc__add', ok: true, reason: { kind: 'unsupported' } }));
    await v.sup.stopAgent('A');
    expect(log.closed).toEqual(['A']);
  });

  it('an interrupt aborts a main-thread call in flight and the turn ends interrupted', async () => {
    const { p, log } = port();
    const v = make(p);
    await v.sup.startAgent('A');
    villages.stub().respond((r) => (toolResults(r).length === 0 ? reply.tool('calc__slow', {}) : reply.text('should not be reached')));
    const asked = v.sup.askExternalOutcome('tester', 'slow');
    await until(() => log.calls.includes('calc__slow'), 'the slow call to start');
    await v.sup.interruptAll();
    const out = await asked;
    expect(out.state).toBe('interrupted');
    await until(() => log.aborted === 1, 'the remote call aborted');
  });
});
