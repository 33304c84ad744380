/**
 * "Summarize and continue" on a real host (buildHost on a temp village, real agent workers from dist/, real LMDB,
 * the loopback stub LLM): the summary is stored, the history folded, and the next request the stub sees carries
 * the summary and none of the folded exchanges — also after a restart; an empty summary folds nothing; a longer one
 * folds with a warning; a turn in flight keeps its exchange; a schedule's summarizeAfter summarizes its chain's agents once.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/core/events.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { openSessionStore } from '../../src/core/sessions/openSessionStore.js';
import { buildHost, type HostOptions } from '../../src/host/buildHost.js';
import type { HostApi } from '../../src/host/hostApi.js';
import { HostPaths } from '../../src/host/hostPaths.js';
import { agent, template, until, world } from '../actors/support/villageFixture.js';
import { reply, startStubLlm, type StubLlm, type StubRequest } from '../support/stubLlm.js';
import { requireDist } from '../support/childLines.js';
import { logRecords } from '../cli/support/cliProcess.js';

let stub: StubLlm;
let dir: string;
let host: HostApi | null = null;
let events: CoreEvent[] = [];

beforeAll(async () => {
  requireDist('actors/agentWorker.js');
  stub = await startStubLlm();
});
afterAll(async () => {
  await stub.close();
});
afterEach(async () => {
  await host?.close();
  host = null;
  stub.reset();
  rmSync(dir, { recursive: true, force: true });
});

const SUMMARY_MARK = 'Output only the summary.';
type Message = { role: string; content: unknown };
const messagesOf = (r: StubRequest): Message[] => (r.body?.messages ?? []) as Message[];
const isSummaryCall = (r: StubRequest): boolean => r.lastUserText.includes(SUMMARY_MARK);
/** Everything a request sends the model, as one string. */
const sentText = (r: StubRequest): string => messagesOf(r).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
const toolResults = (r: StubRequest): string[] => messagesOf(r).filter((m) => m.role === 'tool').map((m) => String(m.content));

/** A (tied to B) and B, each on its own stub model. */
function makeVillage(schedules?: unknown[]): void {
  dir = mkdtempSync(join(tmpdir(), 'ff-summaries-'));
  const w = world([agent('A', ['B']), agent('B')].map((a) => ({ ...a, modelTemplateId: `tpl-${a.id}` })));
  w.modelTemplates = ['A', 'B'].map((id) => template({ id: `tpl-${id}`, model: `m-${id}`, baseUrl: stub.baseUrl }));
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  writeFileSync(join(dir, 'workspace/world.json'), JSON.stringify(w));
  if (schedules !== undefined) writeFileSync(join(dir, 'workspace/schedules.json'), JSON.stringify(schedules));
}

async function boot(options: Partial<HostOptions> = {}): Promise<HostApi> {
  const h = await buildHost(new HostPaths(dir), {
    appVersion: 'test',
    secrets: 'env',
    secretStore: new MemorySecretStore(),
    runSchedules: false,
    openDoor: false,
    env: {},
    closeGraceMs: 5_000,
    ...options,
  });
  host = h;
  events = [];
  h.events.subscribe((e) => events.push(e));
  return h;
}

/** What the store holds (read after the host closed: the store has one owner at a time). */
function storedRecords(sessionId: string) {
  const opened = openSessionStore({ workspaceDir: join(dir, 'workspace') });
  if (opened.store === null) throw new Error(opened.warning);
  const records = opened.store.records(sessionId).records;
  return { records, close: () => opened.store.close() };
}

/** A's token counter as its latest agentStatsUpdated said (the counters tick once a second). */
const counterA = (): number =>
  events.filter((e): e is Extract<CoreEvent, { type: 'agentStatsUpdated' }> => e.type === 'agentStatsUpdated' && e.agentId === 'A').at(-1)?.totalTokens ?? -1;

const recorded = (): number => events.filter((e) => e.type === 'turnRecorded').length;

/** Sends one user message to A and waits until its turn record is committed. */
async function say(h: HostApi, text: string): Promise<void> {
  const before = recorded();
  h.sendUserMessage('A', text);
  await until(() => recorded() > before, `the turn record of "${text}"`, 20_000);
}

/** The last request A's turns sent (not a summary call). */
const lastTurnRequest = (): StubRequest => stub.requests.filter((r) => r.model === 'm-A' && !isSummaryCall(r)).at(-1)!;

const logLines = (kind: string): Array<Record<string, unknown>> => logRecords(dir).filter((l) => l.msg === kind);

describe('summarize and continue', () => {
  it('stores the summary, folds the history, and the next prompt carries the summary instead — after a restart too', async () => {
    makeVillage();
    const h = await boot();
    await h.startAgent('A');
    stub.respond((r) =>
      isSummaryCall(r)
        ? reply.text('SUMMARY: apples then pears.', { usage: { prompt: 300, completion: 20 } })
        : reply.text(`noted: ${r.lastUserText.slice(-14)}`, { usage: { prompt: 100, completion: 10 } }),
    );
    await say(h, 'first topic: apples');
    await say(h, 'second topic: pears');
    const sessionId = h.sessionId()!;

    const report = await h.summarize();
    const covers = report.coversUpToSeq!;
    expect(report.agents).toEqual([expect.objectContaining({ agentId: 'A', folded: true, warning: null, summaryChars: 27, foldedMsgs: 4 })]);
    expect(report.skipped.stopped).toEqual(['B']);
    expect(report.tokens).toMatchObject({ rows: 1, prompt: 300, completion: 20 });
    // The summary call is the agent's spend like any other: 2 turns × 110 + 320.
    await until(() => counterA() === 540, "A's counters with the summary call", 10_000);
    const summaryCall = stub.requests.find(isSummaryCall)!;
    expect(summaryCall.body?.tools).toBeUndefined();
    expect(sentText(summaryCall)).toContain('first topic: apples');
    expect(sentText(summaryCall)).toContain('second topic: pears');
    const line = logLines('summarize')[0]!;
    expect(line).toMatchObject({ agent: 'A', model: 'm-A', covers_up_to: covers, folded_msgs: 4, summary_chars: 27, prompt: 300, cached: 0, total: 320 });
    expect(Number(line.folded_chars)).toBeGreaterThan(27);
    // The originals stay: the export still has them.
    const exported = readFileSync((await h.village.exportSession(sessionId)).path, 'utf8');
    expect(exported).toContain('first topic: apples');
    expect(exported).toContain('"kind":"summary"');

    await say(h, 'third topic: plums');
    const next = lastTurnRequest();
    const system = messagesOf(next).filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
    expect(system).toContain('## Summary so far\nSUMMARY: apples then pears.');
    expect(sentText(next)).not.toContain('first topic: apples');
    expect(sentText(next)).not.toContain('second topic: pears');
    expect(sentText(next)).toContain('third topic: plums');
    await h.close();

    const stored = storedRecords(sessionId);
    const summary = stored.records.find((r) => r.kind === 'summary')!;
    expect(summary).toMatchObject({ agentId: 'A', text: 'SUMMARY: apples then pears.', coversUpToSeq: covers });
    expect(summary.seq).toBeGreaterThan(covers);
    expect(stored.records.filter((r) => r.kind === 'call' && r.purpose === 'summarize')).toHaveLength(1);
    expect(stored.records.filter((r) => r.kind === 'exchange')).toHaveLength(3);
    await stored.close();

    // Restart: the summary and only the exchanges after it come back from the store.
    const again = await boot();
    await again.startAgent('A');
    await say(again, 'fourth topic: figs');
    const afterRestart = lastTurnRequest();
    expect(sentText(afterRestart)).toContain('## Summary so far\nSUMMARY: apples then pears.');
    expect(sentText(afterRestart)).toContain('third topic: plums');
    expect(sentText(afterRestart)).not.toContain('first topic: apples');
  });

  it('an empty summary folds nothing and warns; the history stays in the next prompt', async () => {
    makeVillage();
    const h = await boot();
    await h.startAgent('A');
    stub.respond((r) => (isSummaryCall(r) ? reply.text('') : reply.text('ok')));
    await say(h, 'keep me: kiwis');
    const report = await h.summarize(['A']);
    expect(report.agents).toEqual([expect.objectContaining({ agentId: 'A', folded: false, warning: 'empty' })]);
    expect(logLines('summarize')[0]).toMatchObject({ level: 'warn', warn: 'empty' });
    await say(h, 'next');
    expect(sentText(lastTurnRequest())).toContain('keep me: kiwis');
    const sessionId = h.sessionId()!;
    await h.close();
    const stored = storedRecords(sessionId);
    expect(stored.records.some((r) => r.kind === 'summary')).toBe(false);
    await stored.close();
  });

  it('a summary at least as long as what it folds still folds, with a warning (it saves nothing)', async () => {
    makeVillage();
    const h = await boot();
    await h.startAgent('A');
    const long = `SUMMARY: ${'a very long account of very little. '.repeat(10)}`;
    stub.respond((r) => (isSummaryCall(r) ? reply.text(long) : reply.text('ok')));
    await say(h, 'hi: figs');
    const report = await h.summarize(['A']);
    expect(report.agents).toEqual([expect.objectContaining({ agentId: 'A', folded: true, warning: 'longer', summaryChars: long.trim().length })]);
    const line = logLines('summarize')[0]!;
    expect(line).toMatchObject({ level: 'warn', warn: 'longer', summary_chars: long.trim().length });
    expect(Number(line.folded_chars)).toBeLessThanOrEqual(long.trim().length);
    await say(h, 'next: pears');
    const text = sentText(lastTurnRequest());
    expect(text).toContain('a very long account');
    expect(text).not.toContain('hi: figs');
  });

  it('runs while a turn is in flight: that turn keeps its exchange, the earlier ones are folded', async () => {
    makeVillage();
    const h = await boot();
    await h.startAgent('A');
    stub.respond((r) => {
      if (isSummaryCall(r)) return reply.text('SUMMARY: the early talk.');
      return r.lastUserText.includes('slow one') ? reply.text('slow answer', { delayMs: 1500 }) : reply.text('quick answer');
    });
    await say(h, 'early talk: dates');
    const before = recorded();
    h.sendUserMessage('A', 'slow one: melons');
    await stub.waitForCount(2);
    const report = await h.summarize(['A']);
    expect(report.agents[0]).toMatchObject({ folded: true, foldedMsgs: 2 });
    await until(() => recorded() > before, 'the slow turn record', 20_000);
    await say(h, 'after: limes');
    const text = sentText(lastTurnRequest());
    expect(text).toContain('SUMMARY: the early talk.');
    expect(text).not.toContain('early talk: dates');
    expect(text).toContain('slow one: melons');
  });

  it("a schedule's summarizeAfter summarizes the chain's agents once, when the chain has ended", async () => {
    // Anchored an hour back, so due at once; off until both agents run (a firing at a stopped target is skipped).
    const id = '11111111-1111-4111-8111-111111111111';
    const recurrence = { kind: 'interval', everyMinutes: 60 };
    makeVillage([{ id, to: 'A', message: 'morning check', recurrence, createdAtMs: Date.now() - 61 * 60_000, lastConsumedDueMs: null, enabled: false, summarizeAfter: true }]);
    stub.respond((r) => {
      if (isSummaryCall(r)) return reply.text(`SUMMARY of ${r.model}`);
      if (r.model === 'm-B') return reply.text('B checked');
      return toolResults(r).length === 0 ? reply.tool('ask_B', { message: 'please check' }) : reply.text('A: all good');
    });
    const h = await boot({ runSchedules: true, scheduleTickMs: 100 });
    await h.startSet(['A', 'B']);
    await h.village.setScheduleEnabled(id, true);
    await until(() => stub.requests.filter(isSummaryCall).length === 2, 'two summary calls', 20_000);
    const summaryModels = stub.requests.filter(isSummaryCall).map((r) => r.model).sort();
    expect(summaryModels).toEqual(['m-A', 'm-B']);
    // Every summary call came after the chain's last turn call.
    const lastTurn = Math.max(...stub.requests.filter((r) => !isSummaryCall(r)).map((r) => r.index));
    expect(Math.min(...stub.requests.filter(isSummaryCall).map((r) => r.index))).toBeGreaterThan(lastTurn);
    expect(logLines('schedule summarize')).toEqual([expect.objectContaining({ root: 'A', agents: 'A,B' })]);
    // Later traffic (and more ticks) summarizes nothing more.
    await say(h, 'an unrelated question');
    await new Promise((r) => setTimeout(r, 500));
    expect(stub.requests.filter(isSummaryCall)).toHaveLength(2);
  });
});
