/**
 * Direct answer channels (directReplies.ts) without threads: a channel per asker/target worker pair, handed out
 * once; an asker's batches that follow a directly taken answer wait until the supervisor handled that answer's
 * turn, then go on in their order.
 */
import { describe, expect, it } from 'vitest';
import type { AgentHandle } from '../../src/actors/agentHandle.js';
import { DirectReplies } from '../../src/actors/directReplies.js';
import type { ToWorker, WorkerBatch } from '../../src/actors/protocol.js';
import { AgentRuntime } from '../../src/actors/agentRuntime.js';
import type { Envelope } from '../../src/actors/types.js';

function fakeHandle(): AgentHandle & { posted: ToWorker[] } {
  const posted: ToWorker[] = [];
  const handle = {
    alive: true,
    posted,
    post(message: ToWorker, transfer?: unknown[]) {
      posted.push(message);
      // The real handle moves the port to the worker; here it is simply closed.
      for (const port of transfer ?? []) (port as { close(): void }).close();
    },
  };
  return handle as unknown as AgentHandle & { posted: ToWorker[] };
}

function slot(id: string, handle: AgentHandle | null): AgentRuntime {
  const runtime = new AgentRuntime(id, { history: [], summary: null });
  runtime.status = 'running';
  runtime.handle = handle;
  return runtime;
}

function asked(id: string, asker: string, requestId: number): Envelope {
  return { id, parentId: 'p', from: { kind: 'agent', id: asker }, to: 'B', content: 'q', hop: 1, awaitingReply: true, pool: null, rootId: 'r', askedBy: { agentId: asker, requestId } };
}

const batch = (label: string, after?: string[]): WorkerBatch => ({ kind: 'batch', items: [{ kind: 'notice', text: label }], ...(after ? { after } : {}) });
const tick = () => new Promise<void>((r) => queueMicrotask(r));

function setup() {
  const a = fakeHandle();
  const b = fakeHandle();
  const slots = new Map([['A', slot('A', a)], ['B', slot('B', b)]]);
  const replayed: string[] = [];
  const direct = new DirectReplies(slots, (s, h, bt) => {
    if (direct.admit(s, h, bt)) replayed.push(...bt.items.map((i) => (i.kind === 'notice' ? i.text : i.kind)));
  });
  return { a, b, slots, direct, replayed };
}

describe('direct reply channels', () => {
  it('hands the asker one channel per target worker, and the target its end on the first delivery only', () => {
    const { a, slots, direct } = setup();
    const first = direct.route(asked('e1', 'A', 1), slots.get('B') as AgentRuntime);
    const second = direct.route(asked('e2', 'A', 2), slots.get('B') as AgentRuntime);
    expect(first?.route).toMatchObject({ channel: 1, requestId: 1 });
    expect(first?.route.port).toBeDefined();
    expect(second?.route).toEqual({ channel: 1, requestId: 2 });
    expect(a.posted.map((m) => m.kind)).toEqual(['peer']);
    expect(direct.answeredDirectly('e1') && direct.answeredDirectly('e2')).toBe(true);
  });

  it('has no route when the asker has no live worker (the supervisor answers then)', () => {
    const { slots, direct } = setup();
    (slots.get('A') as AgentRuntime).handle = null;
    expect(direct.route(asked('e1', 'A', 1), slots.get('B') as AgentRuntime)).toBeUndefined();
    expect(direct.answeredDirectly('e1')).toBe(false);
  });

  it("holds the asker's batches after a directly taken answer until that turn is handled, then replays them in order", async () => {
    const { a, slots, direct, replayed } = setup();
    const A = slots.get('A') as AgentRuntime;
    direct.route(asked('e1', 'A', 1), slots.get('B') as AgentRuntime);
    expect(direct.admit(A, a, batch('next ask', ['e1']))).toBe(false);
    expect(direct.admit(A, a, batch('final reply'))).toBe(false);
    direct.finished('e1');
    expect(replayed).toEqual([]); // not inside the handler that finished e1: its records come first
    await tick();
    expect(replayed).toEqual(['next ask', 'final reply']);
    expect(direct.admit(A, a, batch('later'))).toBe(true);
    expect(direct.pendingCount).toBe(0);
  });

  it('lets a batch through at once when the answered turn was already handled', () => {
    const { a, slots, direct } = setup();
    direct.route(asked('e1', 'A', 1), slots.get('B') as AgentRuntime);
    direct.finished('e1');
    expect(direct.admit(slots.get('A') as AgentRuntime, a, batch('next', ['e1']))).toBe(true);
  });

  it("drops a held queue of a worker that was replaced; the new worker's batches pass", () => {
    const { a, slots, direct } = setup();
    const A = slots.get('A') as AgentRuntime;
    direct.route(asked('e1', 'A', 1), slots.get('B') as AgentRuntime);
    expect(direct.admit(A, a, batch('old', ['e1']))).toBe(false);
    const restarted = fakeHandle();
    A.handle = restarted;
    expect(direct.admit(A, restarted, batch('new'))).toBe(true);
  });
});
