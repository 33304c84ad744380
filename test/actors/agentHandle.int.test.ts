/**
 * A real agent worker (the scripted fixture over the real worker loop) and everything in flight on it: a call in
 * flight when the thread dies rejects with WORKER_CRASHED, held reviews are withdrawn, `destroy` runs once however
 * often it is called, and the supervisor still settles the interrupted turn and the asks waiting on it.
 * Needs `npm run build` first (workers load dist/).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentHandle, type TeardownReason, type WorkerExit } from '../../src/actors/agentHandle.js';
import { createMainSide } from '../../src/actors/mainSide.js';
import { PlanReviews } from '../../src/actors/planReviews.js';
import { ScanPool } from '../../src/actors/scanPool.js';
import { PROTOCOL_VERSION, type FromWorker } from '../../src/actors/protocol.js';
import { agent, SCRIPTED_WORKER, template, until, village, world, type Village } from './support/villageFixture.js';

const handles: AgentHandle[] = [];
const villages: Village[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.terminate();
  for (const v of villages.splice(0)) await v.close();
});

interface Spawned {
  handle: AgentHandle;
  inbox: FromWorker[];
  exits: WorkerExit[];
  releases: TeardownReason[];
  reviews: PlanReviews;
}

function spawn(planReview: 'ask' | 'unavailable' = 'unavailable'): Spawned {
  const inbox: FromWorker[] = [];
  const exits: WorkerExit[] = [];
  const releases: TeardownReason[] = [];
  const reviews = new PlanReviews();
  const mainSide = createMainSide({ agentId: 'A', externalTools: undefined, reviews, scanPool: new ScanPool(), readRoomLog: () => ({ found: false }) as never });
  const handle = AgentHandle.spawn(
    SCRIPTED_WORKER,
    {
      kind: 'init', protocolVersion: PROTOCOL_VERSION, agent: agent('A'), template: template(), language: 'en', maxHops: 8,
      apiKey: null, backendMode: 'strict', workspaceDir: '/tmp', runApproval: 'required',
      lastCallMilli: 0, planReview, externalTools: [], planIds: new SharedArrayBuffer(4), jev: null, loadEngineAtStart: false,
    },
    { onMessage: (m) => inbox.push(m), onExit: (e) => exits.push(e), release: (r) => releases.push(r), mainSide },
  );
  handles.push(handle);
  return { handle, inbox, exits, releases, reviews };
}

function deliver(handle: AgentHandle, content: string): void {
  handle.post({
    kind: 'deliver', envelopeId: 'e1', roster: [], material: { ordinance: '', construct: '', skill: '', memory: '' },
    budget: null, folded: false, context: { roomLog: null, presence: null }, conversation: { history: [], summary: null },
    envelope: { from: { kind: 'user' }, fromLabel: 'User', content, hop: 0, awaitingReply: false },
  });
}

/** A fold with something in it: the worker makes one call on its backend, which never answers (fixture). */
const SUMMARY = { history: [{ sent: 'hello', replied: 'hi' }], previous: null, throughTurnSeq: 1 };

/** Settles with the error a call failed with (caught at once: no unhandled rejection while the test waits). */
function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(() => new Error('expected a rejection'), (error: unknown) => error);
}

describe('comlink calls into a worker that dies', () => {
  it('an interrupt call in flight when the thread exits rejects with WORKER_CRASHED', async () => {
    const { handle, inbox, exits } = spawn();
    await handle.ready;
    deliver(handle, 'dieOnInterrupt');
    await until(() => inbox.some((m) => m.kind === 'event' && m.event.type === 'agentTyping'), 'typing');
    await expect(handle.interrupt('e1')).rejects.toMatchObject({ code: 'WORKER_CRASHED', agentId: 'A', message: expect.stringContaining('exit code 4') });
    expect(exits[0]?.code).toBe(4);
    // Calls made after the death fail the same way instead of hanging.
    await expect(handle.interrupt('e1')).rejects.toMatchObject({ code: 'WORKER_CRASHED' });
  });

  it('a crash with calls, interrupts and a held review in flight fails them all with WORKER_CRASHED, once', async () => {
    const { handle, inbox, exits, releases, reviews } = spawn('ask');
    await handle.ready;
    deliver(handle, 'reviewThenDie');
    await until(() => reviews.list().length === 1, 'review held on the main side');
    // The summary call never answers by itself: it is in flight until the thread ends.
    const summary = failure(handle.summarize(SUMMARY));
    expect(handle.inFlightCount).toBe(2);
    const first = failure(handle.interrupt('e1'));
    const second = failure(handle.interrupt('e1'));
    for (const call of [summary, first, second]) {
      await expect(call).resolves.toMatchObject({ code: 'WORKER_CRASHED', agentId: 'A', message: expect.stringContaining('exit code 4') });
    }
    expect(exits).toHaveLength(1);
    expect(inbox.some((m) => m.kind === 'event' && m.event.type === 'agentTyping')).toBe(true);
    expect(reviews.list()).toEqual([]);
    expect(handle.inFlightCount).toBe(0);
    expect(handle.stage).toBe('destroyed');
    expect(releases).toEqual([{ kind: 'crashed', reason: 'exit code 4' }]);
    // Tearing down again (stop, reap, shutdown after the crash) changes nothing and keeps the crash as the reason.
    await handle.destroy({ kind: 'stopped' });
    await handle.terminate();
    expect(releases).toHaveLength(1);
    await expect(handle.summarize(SUMMARY)).rejects.toMatchObject({ code: 'WORKER_CRASHED' });
  });

  it('destroy twice on a live worker is safe: one teardown, one exit, calls fail with NOT_RUNNING', async () => {
    const { handle, exits, releases } = spawn();
    await handle.ready;
    const summary = failure(handle.summarize(SUMMARY));
    const once = handle.destroy({ kind: 'stopped' });
    const twice = handle.destroy({ kind: 'crashed', reason: 'ignored' });
    expect(twice).toBe(once);
    await Promise.all([once, twice]);
    await expect(summary).resolves.toMatchObject({ code: 'NOT_RUNNING', agentId: 'A' });
    await expect(handle.interrupt('e1')).rejects.toMatchObject({ code: 'NOT_RUNNING' });
    expect(handle.alive).toBe(false);
    expect(exits).toHaveLength(1);
    expect(releases).toEqual([{ kind: 'stopped' }]);
    await handle.destroy({ kind: 'stopped' });
    expect(releases).toHaveLength(1);
  });

  it('an exit nobody asked for is a crash; after requestStop the exit is a stop', async () => {
    const crashed = spawn();
    await crashed.handle.ready;
    deliver(crashed.handle, 'exit');
    await crashed.handle.exited;
    expect(crashed.releases).toEqual([{ kind: 'crashed', reason: 'exit code 3' }]);
    const stopped = spawn();
    await stopped.handle.ready;
    stopped.handle.requestStop();
    expect(stopped.handle.stage).toBe('exiting');
    await stopped.handle.exited;
    expect(stopped.releases).toEqual([{ kind: 'stopped' }]);
  });

  it('the supervisor settles such a turn: the interrupt resolves and the agent fails with WORKER_CRASHED', async () => {
    const v = village(world([agent('A')]));
    villages.push(v);
    await v.sup.startAgent('A');
    v.sup.sendUserMessage('A', 'dieOnInterrupt');
    await until(() => v.sup.turnsInFlight().includes('A'), 'turn in flight');
    await until(() => v.events.some((e) => e.type === 'agentTyping' && e.active), 'typing');
    await v.sup.interruptTurn('A');
    await until(() => v.events.some((e) => e.type === 'agentFailed'), 'agentFailed');
    expect(v.events.find((e) => e.type === 'agentFailed')).toMatchObject({ agentId: 'A', error: { code: 'WORKER_CRASHED' } });
    expect(v.sup.statuses()).toContainEqual({ agentId: 'A', status: 'failed' });
  });

  it('a crash settles the asks waiting on that worker (no_answer) and fails its summary call with WORKER_CRASHED', async () => {
    const v = village(world([agent('A', ['B']), agent('B')]));
    villages.push(v);
    await v.sup.startAgent('A');
    await v.sup.startAgent('B');
    const outcome = v.sup.askExternalOutcome('cli', 'ask:B:sleep:300:exit');
    await until(() => v.sup.turnsInFlight().includes('B'), 'B handling the ask');
    const summary = failure(v.sup.summarizeAgent('B', SUMMARY));
    await expect(summary).resolves.toMatchObject({ code: 'WORKER_CRASHED', agentId: 'B' });
    await expect(outcome).resolves.toMatchObject({ state: 'answered', answer: expect.stringMatching(/^A<no_answer:/) });
    expect(v.sup.statuses()).toContainEqual({ agentId: 'B', status: 'failed' });
    expect(v.sup.turnsInFlight()).toEqual([]);
  });
});
