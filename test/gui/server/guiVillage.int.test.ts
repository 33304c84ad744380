/**
 * The GUI's handle on a real host (buildHost on a temp village, real agent workers from dist/, loopback stub LLM):
 * plan review held and decided through GuiVillage, the one schedule store shared with the ticker, and opening an
 * older conversation (refused while a turn is in flight; newly started servants restore its history).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../src/core/events.js';
import { isFuseforksError } from '../../../src/core/errors.js';
import { MemorySecretStore } from '../../../src/core/secrets/secretStore.js';
import { buildHost } from '../../../src/host/buildHost.js';
import type { HostApi } from '../../../src/host/hostApi.js';
import { HostPaths } from '../../../src/host/hostPaths.js';
import { openGuiVillage, type GuiVillage } from '../../../src/gui/server/guiVillage.js';
import { agent, template, until, world } from '../../actors/support/villageFixture.js';
import { reply, startStubLlm, type StubLlm, type StubRequest } from '../../support/stubLlm.js';
import { requireGuiBuild } from '../support/guiChild.js';

let stub: StubLlm;
let dir: string;
let host: HostApi;
let gv: GuiVillage;
let events: CoreEvent[];

beforeAll(async () => {
  requireGuiBuild();
  stub = await startStubLlm();
});
afterAll(async () => {
  await stub.close();
});
afterEach(async () => {
  await host?.close();
  stub.reset();
  rmSync(dir, { recursive: true, force: true });
});

/** L (planReview) may plan for B and C; every servant has its own model name so the stub tells them apart. */
async function boot(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'ff-gui-village-'));
  const ids = ['L', 'B', 'C'];
  const w = world([agent('L', ['B', 'C'], { planReview: true }), agent('B'), agent('C')].map((a) => ({ ...a, modelTemplateId: `tpl-${a.id}` })));
  w.modelTemplates = ids.map((id) => template({ id: `tpl-${id}`, model: `m-${id}`, baseUrl: stub.baseUrl }));
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  writeFileSync(join(dir, 'workspace/world.json'), JSON.stringify(w));
  host = await buildHost(new HostPaths(dir), {
    appVersion: 'test',
    secrets: 'env',
    secretStore: new MemorySecretStore(),
    runSchedules: true,
    openDoor: false,
    planReview: 'ask',
    env: {},
    closeGraceMs: 5_000,
  });
  gv = await openGuiVillage(host, 'test');
  events = [];
  gv.subscribe((e) => events.push(e));
}

const toolResults = (r: StubRequest): string[] =>
  ((r.body?.messages ?? []) as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'tool').map((m) => String(m.content));
const targetRequests = (): number => stub.requests.filter((r) => r.model !== 'm-L').length;

function scriptLead(): void {
  stub.respond((r) => {
    const id = r.model.replace(/^m-/, '');
    if (id !== 'L') return reply.text(`${id} did it`);
    const results = toolResults(r);
    return results.length === 0
      ? reply.tool('plan', { tasks: [{ to: 'B', message: 'part B, in full' }, { to: 'C', message: 'part C, in full' }] })
      : reply.text(`lead got: ${results[0]}`);
  });
}

/** B's latest typing state (undefined before its first turn). */
function typingB(): boolean | undefined {
  const last = events.filter((e): e is Extract<CoreEvent, { type: 'agentTyping' }> => e.type === 'agentTyping' && e.agentId === 'B').at(-1);
  return last?.active;
}

async function code(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
    return 'ok';
  } catch (error) {
    return isFuseforksError(error) ? error.code : String(error);
  }
}

describe('GuiVillage on a real host', () => {
  it('shows a held wave in the state with both tasks; Reject sends the note back and nothing reaches the targets', async () => {
    await boot();
    await Promise.all(['L', 'B', 'C'].map((id) => gv.start(id)));
    scriptLead();
    const asked = host.askExternal('tester', 'go');
    await until(() => gv.state().planReviews.length === 1, 'a held wave', 20_000);
    const [held] = gv.state().planReviews;
    expect(held).toMatchObject({ agentId: 'L', tasks: [{ to: 'B', message: 'part B, in full' }, { to: 'C', message: 'part C, in full' }] });
    expect(events.some((e) => e.type === 'planReviewRequested' && e.planId === held!.planId)).toBe(true);
    expect(targetRequests()).toBe(0);
    const after = gv.resolvePlanReview(held!.planId, false, '  ask B only  ');
    expect(after.planReviews).toEqual([]);
    const out = await asked;
    expect(out.answer).toContain('ask B only');
    expect(targetRequests()).toBe(0);
    expect(events.some((e) => e.type === 'planReviewResolved' && !e.approved)).toBe(true);
    // Deciding twice is a clear refusal, not a crash.
    expect(await code(() => gv.resolvePlanReview(held!.planId, true, null))).toBe('INVALID_REQUEST');
  }, 60_000);

  it('Approve lets the wave out and the facilitator answers with the bundle', async () => {
    await boot();
    await Promise.all(['L', 'B', 'C'].map((id) => gv.start(id)));
    scriptLead();
    const asked = host.askExternal('tester', 'go');
    await until(() => gv.state().planReviews.length === 1, 'a held wave', 20_000);
    gv.resolvePlanReview(gv.state().planReviews[0]!.planId, true, null);
    const out = await asked;
    expect(out.answer).toContain('B did it');
    expect(out.answer).toContain('C did it');
    // The work-status record: one wave by L, both tasks answered, the bundle's size kept (the held one never ran).
    const waves = gv.state().planWaves;
    expect(waves.map((w) => ({ agentId: w.agentId, tasks: w.tasks.map((t) => `${t.to}:${t.state}`) }))).toEqual([{ agentId: 'L', tasks: ['B:answered', 'C:answered'] }]);
    expect(waves[0]!.bundleChars).toBeGreaterThan(0);
    expect(waves[0]!.tasks.every((t) => t.elapsedMs !== null && t.msgChars > 0)).toBe(true);
  }, 60_000);

  it('schedule edits go through the host\'s own edit engine (the store its ticker reads)', async () => {
    await boot();
    const state = await gv.commands.addSchedule({ to: 'B', message: 'tick', recurrence: { kind: 'interval', everyMinutes: 30 } });
    expect(state.schedules).toHaveLength(1);
    expect(host.village.state().schedules.map((s) => s.id)).toEqual(state.schedules.map((s) => s.id));
    await gv.commands.removeSchedule(state.schedules[0]!.id);
    expect(host.village.state().schedules).toEqual([]);
  }, 60_000);

  it('opens an older conversation: refused mid-turn, then current with its messages; a restarted servant restores it', async () => {
    await boot();
    await gv.start('B');
    stub.enqueue(reply.text('first answer'));
    gv.send('B', 'remember the word kiwi');
    await until(() => events.some((e) => e.type === 'turnRecorded' && e.agentId === 'B'), 'the first turn recorded', 20_000);
    const first = gv.state().sessions.current!;
    const fresh = await gv.newSession();
    expect(fresh.sessions.current).not.toBe(first);
    expect(fresh.messages).toEqual([]);

    stub.enqueue(reply.hang());
    gv.send('B', 'take your time');
    await until(() => typingB() === true, 'a turn in flight', 20_000);
    expect(await code(gv.openSession(first))).toBe('SESSION_SWITCH_BLOCKED');
    await gv.interruptAll();
    await until(() => typingB() === false, 'the turn cut', 20_000);

    const opened = await gv.openSession(first);
    expect(opened.sessions.current).toBe(first);
    // The opened conversation's stored messages (system notices such as "now running" included), not the live tail.
    const shown = opened.messages.map((m) => m.content);
    expect(shown.filter((c) => !c.includes('now running'))).toEqual(['remember the word kiwi', 'first answer']);
    expect(shown).not.toContain('take your time');
    expect(events.some((e) => e.type === 'sessionSwitched' && e.sessionId === first)).toBe(true);
    expect(await code(gv.openSession('no-such-session'))).toBe('SESSION_NOT_FOUND');

    // B was running during the switch (keeps its history); after a restart it starts from the opened conversation.
    await gv.stop('B');
    await gv.start('B');
    stub.reset();
    stub.enqueue(reply.text('again'));
    gv.send('B', 'what was the word?');
    await stub.waitForCount(1);
    expect(JSON.stringify(stub.requests[0]!.body)).toContain('remember the word kiwi');
  }, 90_000);
});
