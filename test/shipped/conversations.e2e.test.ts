/**
 * Conversations of running agents through the shipped library host (`dist/index.js` `openVillage`, the built agent
 * worker bundle, real LMDB, the loopback stub LLM): the prompt the stub receives is the assertion. A new chat, an
 * opened conversation and a "fresh" schedule replace every running agent's history and room log; a restart inside
 * the host keeps the conversation as it stands; a model-template change reaches a running agent at its next turn.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent, HostApi } from '../../src/index.js';
import { agent, template, world } from '../actors/support/villageFixture.js';
import { requireDist } from '../support/childLines.js';
import { pollUntil } from '../support/pollUntil.js';
import { reply, startStubLlm, type StubLlm, type StubRequest } from '../support/stubLlm.js';

type Library = typeof import('../../src/index.js');
const DIST_INDEX = new URL('../../dist/index.js', import.meta.url).href;

let lib: Library;
let stub: StubLlm;
let dir: string;
let host: HostApi | null = null;
let events: CoreEvent[] = [];

beforeAll(async () => {
  requireDist('index.js');
  requireDist('actors/agentWorker.bundle.cjs');
  lib = (await import(DIST_INDEX)) as Library;
  stub = await startStubLlm();
  stub.respond((r) => reply.text(`noted ${r.lastUserText.slice(-12)}`));
});
afterAll(async () => {
  await stub.close();
});
afterEach(async () => {
  await host?.close();
  host = null;
  stub.reset();
  stub.respond((r) => reply.text(`noted ${r.lastUserText.slice(-12)}`));
  rmSync(dir, { recursive: true, force: true });
});

/** A (hears the room log) and B, each on its own stub model. */
async function open(): Promise<HostApi> {
  dir = mkdtempSync(join(tmpdir(), 'ff-conversations-'));
  const w = world([agent('A', [], { hearsRoomLog: true, modelTemplateId: 'tpl-A' }), agent('B', [], { modelTemplateId: 'tpl-B' })]);
  w.modelTemplates = ['A', 'B'].map((id) => template({ id: `tpl-${id}`, model: `m-${id}`, baseUrl: stub.baseUrl }));
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  writeFileSync(join(dir, 'workspace/world.json'), JSON.stringify(w));
  const h = await lib.openVillage({ dataDir: dir, env: {}, closeGraceMs: 5_000 });
  host = h;
  events = [];
  h.events.subscribe((e) => events.push(e));
  await h.startAgent('A');
  await h.startAgent('B');
  return h;
}

const recorded = (): number => events.filter((e) => e.type === 'turnRecorded').length;

/** Sends one user message and waits until its turn is recorded. */
async function say(h: HostApi, to: string, text: string): Promise<void> {
  const before = recorded();
  h.sendUserMessage(to, text);
  expect(await pollUntil(() => recorded() > before, { limitMs: 30_000 }), `the turn of "${text}"`).toBe(true);
}

/** Everything the request sends the model, as one string. */
const sentText = (r: StubRequest): string =>
  ((r.body?.messages ?? []) as Array<{ content: unknown }>).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
const lastRequestOf = (model: string): StubRequest => {
  const found = stub.requests.filter((r) => r.model === model).at(-1);
  if (found === undefined) throw new Error(`no request for ${model}`);
  return found;
};
const messageTexts = (h: HostApi): string[] => h.messages().map((m) => m.content);

describe('conversations of running agents (shipped library host)', () => {
  it('a new chat leaves every running agent without the previous history and room log; opening the old one brings it back', async () => {
    const h = await open();
    const first = h.sessionId() as string;
    await say(h, 'B', 'B-OLD-SECRET');
    await say(h, 'A', 'A-OLD-SECRET');
    await say(h, 'A', 'A-OLD-SECOND');
    // Before: A's prompt carries its history and the room log (B's conversation).
    expect(sentText(lastRequestOf('m-A'))).toContain('A-OLD-SECRET');
    expect(sentText(lastRequestOf('m-A'))).toContain('B-OLD-SECRET');

    const order: string[] = [];
    h.events.subscribe((e) => {
      if (e.type === 'conversationCleared' || e.type === 'sessionSwitched') order.push(`${e.type}:${h.messages().length}`);
    });
    const second = (await h.newSession()) as string;
    expect(second).not.toBe(first);
    expect(order).toEqual(['conversationCleared:0', 'sessionSwitched:0']);
    expect(messageTexts(h)).toEqual([]);

    await say(h, 'A', 'A-NEW-ONLY');
    const fresh = sentText(lastRequestOf('m-A'));
    expect(fresh).toContain('A-NEW-ONLY');
    for (const old of ['A-OLD-SECRET', 'A-OLD-SECOND', 'B-OLD-SECRET']) expect(fresh).not.toContain(old);
    await say(h, 'B', 'B-NEW-ONLY');
    expect(sentText(lastRequestOf('m-B'))).not.toContain('B-OLD-SECRET');
    expect(messageTexts(h).some((t) => t.includes('OLD'))).toBe(false);

    await h.openSession(first);
    expect(messageTexts(h)).toContain('A-OLD-SECRET');
    expect(messageTexts(h).some((t) => t.includes('NEW-ONLY'))).toBe(false);
    await say(h, 'A', 'A-BACK-AGAIN');
    const reopened = sentText(lastRequestOf('m-A'));
    expect(reopened).toContain('A-OLD-SECRET');
    expect(reopened).toContain('A-OLD-SECOND');
    expect(reopened).not.toContain('A-NEW-ONLY');
    expect(reopened).not.toContain('B-NEW-ONLY');
  }, 120_000);

  it('a fork opened from an early point holds what came before it and nothing after', async () => {
    const h = await open();
    const first = h.sessionId() as string;
    await say(h, 'A', 'A-KEPT-POINT');
    await say(h, 'A', 'A-AFTER-POINT');
    const stored = await h.readSession(first);
    // The fork point: the exchange record of the first turn (its message, exchange and turn are copied, the rest not).
    const at = stored.records.find((r) => r.kind === 'exchange' && r.sent.includes('A-KEPT-POINT'));
    expect(at, 'the first turn is stored').toBeDefined();
    const { id: forked } = await h.village.forkSession(first, (at as { seq: number }).seq);
    expect(h.sessionId()).toBe(first);
    await h.openSession(forked);
    expect(messageTexts(h)).toContain('A-KEPT-POINT');
    expect(messageTexts(h).some((t) => t.includes('A-AFTER-POINT'))).toBe(false);
    await say(h, 'A', 'A-IN-THE-FORK');
    const text = sentText(lastRequestOf('m-A'));
    expect(text).toContain('A-KEPT-POINT');
    expect(text).not.toContain('A-AFTER-POINT');
  }, 120_000);

  it('a "fresh" schedule fires into a new conversation: its prompt holds none of the previous one', async () => {
    const h = await open();
    await say(h, 'A', 'A-BEFORE-FRESH');
    const made = await h.village.addSchedule({ to: 'A', message: 'MORNING-CHECK', recurrence: { kind: 'interval', everyMinutes: 60 }, enabled: false, sessionMode: 'fresh' });
    const task = made.schedules.find((s) => s.message === 'MORNING-CHECK');
    expect(task).toBeDefined();
    const before = h.sessionId();
    await h.runScheduleNow((task as { id: string }).id);
    expect(h.sessionId()).not.toBe(before);
    const fired = sentText(lastRequestOf('m-A'));
    expect(fired).toContain('MORNING-CHECK');
    expect(fired).not.toContain('A-BEFORE-FRESH');
  }, 120_000);

  it('a restart inside the running host keeps the conversation as it stands (not as the boot read it)', async () => {
    const h = await open();
    await say(h, 'A', 'A-FIRST-TURN');
    await say(h, 'A', 'A-SECOND-TURN');
    await h.stopAgent('A');
    await h.startAgent('A');
    await say(h, 'A', 'A-AFTER-RESTART');
    const text = sentText(lastRequestOf('m-A'));
    expect(text).toContain('A-FIRST-TURN');
    expect(text).toContain('A-SECOND-TURN');
  }, 120_000);

  it('a model-template change reaches a running agent at its next turn, without a restart', async () => {
    const h = await open();
    await say(h, 'A', 'on the old model');
    expect(lastRequestOf('m-A').model).toBe('m-A');
    const since = events.length;
    const tpl = h.village.state().world.modelTemplates.find((t) => t.id === 'tpl-A');
    await h.village.upsertTemplate({ ...tpl, model: 'm-A-next' });
    await say(h, 'A', 'on the new model');
    expect(stub.requests.at(-1)?.model).toBe('m-A-next');
    expect(sentText(stub.requests.at(-1) as StubRequest)).toContain('on the new model');
    // Still the same worker: the agent never left `running`.
    expect(events.slice(since).some((e) => e.type === 'agentStatusChanged' && e.agentId === 'A')).toBe(false);
  }, 120_000);

  it("an agent's instructions (Construct.md) changed while it runs reach its next turn", async () => {
    const h = await open();
    await say(h, 'A', 'before the new instructions');
    expect(JSON.stringify(lastRequestOf('m-A').body)).not.toContain('ANSWER-IN-HAIKU');
    const view = await h.files.readAgentFile('A', 'construct');
    await h.files.writeAgentFile('A', 'construct', 'ANSWER-IN-HAIKU always.', Object.values(view.revisions));
    await say(h, 'A', 'after the new instructions');
    expect(JSON.stringify(lastRequestOf('m-A').body)).toContain('ANSWER-IN-HAIKU');
  }, 120_000);
});
