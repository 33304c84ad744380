/**
 * A real agent worker (the scripted fixture over the real worker loop) and its comlink calls: a call in flight
 * when the thread dies rejects with WORKER_CRASHED, and the supervisor still settles the interrupted turn.
 * Needs `npm run build` first (workers load dist/).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentHandle, type WorkerExit } from '../../src/actors/agentHandle.js';
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

function spawn(): { handle: AgentHandle; inbox: FromWorker[]; exits: WorkerExit[] } {
  const inbox: FromWorker[] = [];
  const exits: WorkerExit[] = [];
  const mainSide = createMainSide({ agentId: 'A', externalTools: undefined, reviews: new PlanReviews(), scanPool: new ScanPool(), readRoomLog: () => ({ found: false }) as never });
  const handle = AgentHandle.spawn(
    SCRIPTED_WORKER,
    {
      kind: 'init', protocolVersion: PROTOCOL_VERSION, agent: agent('A'), template: template(), language: 'en', maxHops: 8,
      apiKey: null, backendMode: 'strict', workspaceDir: '/tmp', runApproval: 'required', history: [], summary: null,
      lastCallMilli: 0, planReview: 'unavailable', externalTools: [], planIds: new SharedArrayBuffer(4), jev: null,
    },
    { onMessage: (m) => inbox.push(m), onExit: (e) => exits.push(e), mainSide },
  );
  handles.push(handle);
  return { handle, inbox, exits };
}

describe('comlink calls into a worker that dies', () => {
  it('an interrupt call in flight when the thread exits rejects with WORKER_CRASHED', async () => {
    const { handle, inbox, exits } = spawn();
    await handle.ready;
    handle.post({
      kind: 'deliver', envelopeId: 'e1', roster: [], material: { ordinance: '', construct: '', skill: '', memory: '' },
      budget: null, folded: false, context: { roomLog: null, presence: null },
      envelope: { from: { kind: 'user' }, fromLabel: 'User', content: 'dieOnInterrupt', hop: 0, awaitingReply: false },
    });
    await until(() => inbox.some((m) => m.kind === 'event' && m.event.type === 'agentTyping'), 'typing');
    await expect(handle.interrupt('e1')).rejects.toMatchObject({ code: 'WORKER_CRASHED', agentId: 'A', message: expect.stringContaining('exit code 4') });
    expect(exits[0]?.code).toBe(4);
    // Calls made after the death fail the same way instead of hanging.
    await expect(handle.interrupt('e1')).rejects.toMatchObject({ code: 'WORKER_CRASHED' });
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
});
