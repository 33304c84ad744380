/**
 * Stats and cost on a real host (buildHost, real workers, real LMDB, the loopback stub): the numbers equal the
 * usage the stub reported, summed by hand here; the cost equals the formula on a priced template and is
 * "unpriced" on a half-priced one; a conversation without records says so.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/core/events.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import type { ModelTemplate } from '../../src/core/world/types.js';
import { buildHost } from '../../src/host/buildHost.js';
import type { HostApi } from '../../src/host/hostApi.js';
import { HostPaths } from '../../src/host/hostPaths.js';
import { agent, template, until, world } from '../actors/support/villageFixture.js';
import { requireDist } from '../support/childLines.js';
import { reply, startStubLlm, type StubLlm } from '../support/stubLlm.js';

let stub: StubLlm;
let dir: string;
let host: HostApi | null = null;

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

async function boot(prices: Partial<ModelTemplate>): Promise<{ h: HostApi; events: CoreEvent[] }> {
  dir = mkdtempSync(join(tmpdir(), 'ff-stats-'));
  const w = world([agent('A')].map((a) => ({ ...a, modelTemplateId: 'tpl-A' })));
  w.modelTemplates = [template({ id: 'tpl-A', model: 'm-A', baseUrl: stub.baseUrl, ...prices })];
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  writeFileSync(join(dir, 'workspace/world.json'), JSON.stringify(w));
  const h = await buildHost(new HostPaths(dir), { appVersion: 'test', secrets: 'env', secretStore: new MemorySecretStore(), runSchedules: false, openDoor: false, env: {}, closeGraceMs: 5_000 });
  host = h;
  const events: CoreEvent[] = [];
  h.events.subscribe((e) => events.push(e));
  return { h, events };
}

/** Two answered turns with known usage (the second after one tool-less round), then one failing turn. */
const USAGE = [
  { prompt: 1200, completion: 80, cacheRead: 400 },
  { prompt: 1500, completion: 120, cacheRead: 1000, reasoning: 30 },
];

async function talk(h: HostApi, events: CoreEvent[]): Promise<void> {
  let n = 0;
  stub.respond(() => (n < USAGE.length ? reply.text(`answer ${n}`, { usage: USAGE[n++]! }) : reply.error(400)));
  for (let i = 0; i < 3; i += 1) {
    const before = events.filter((e) => e.type === 'turnRecorded').length;
    h.sendUserMessage('A', `question ${i}`);
    await until(() => events.filter((e) => e.type === 'turnRecorded').length > before, `turn ${i}`, 20_000);
  }
}

describe('stats over the stored usage', () => {
  it('equal the usage the stub reported; cost is the formula on a priced template', async () => {
    const prices = { inputPerMtok: 3, outputPerMtok: 15, cacheReadPerMtok: 0.3, cacheWritePerMtok: null, cacheWrite1hPerMtok: null, pricingAsOf: '2026-07-01' };
    const { h, events } = await boot(prices);
    const sessionId = h.sessionId()!;
    const empty = await h.stats({ kind: 'session', sessionId });
    expect(empty.hasRecords).toBe(false);

    await h.startAgent('A');
    await talk(h, events);
    const report = await h.stats({ kind: 'session', sessionId });
    // By hand: prompt 1200 + 1500, cached 400 + 1000, completion 80 + 120; the failed call reported nothing.
    const prompt = 2700;
    const cached = 1400;
    const completion = 200;
    const effective = Math.ceil((prompt - cached) * 1 + cached * 0.1 + completion * 4);
    expect(report.hasRecords).toBe(true);
    expect(report.totals).toMatchObject({ turns: 3, failed: 1, calls: 3, prompt, cached, completion, reasoning: 30, effective });
    expect(report.totals.cacheRate).toBeCloseTo(cached / prompt, 12);
    expect(report.byAgent).toEqual([expect.objectContaining({ agentId: 'A', model: 'm-A', turns: 3, failed: 1, prompt })]);
    expect(report.byStop).toEqual([
      { stop: 'completed', code: null, count: 2 },
      { stop: 'failed', code: 'LLM_API', count: 1 },
    ]);
    expect(report.series!.points.map((p) => p.effective)).toEqual([
      Math.ceil(800 + 40 + 320),
      Math.ceil(500 + 100 + 480),
      0,
    ]);
    const usd = ((prompt - cached) * 3 + cached * 0.3 + completion * 15) / 1e6;
    expect(report.cost!.usd).toBeCloseTo(usd, 12);
    expect(report.cost).toMatchObject({ asOf: '2026-07-01', pricedRows: 3, totalRows: 3 });
    // All conversations: the same numbers (there is one), and the ask-less GUI path has no chart.
    const all = await h.stats({ kind: 'all' });
    expect(all.totals).toEqual(report.totals);
    expect(all.series).toBeNull();
  });

  it('a half-priced template (no output price) is unpriced, never $0', async () => {
    const { h, events } = await boot({ inputPerMtok: 3, outputPerMtok: null });
    await h.startAgent('A');
    await talk(h, events);
    const report = await h.stats({ kind: 'all' });
    expect(report.totals.turns).toBe(3);
    expect(report.cost).toBeNull();
  });

  it('an unknown conversation is SESSION_NOT_FOUND', async () => {
    const { h } = await boot({});
    await expect(h.stats({ kind: 'session', sessionId: 'nope' })).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });
});
