/**
 * The price table on a real host (buildHost on a temp village, real workers, real LMDB, the loopback stub LLM and a
 * loopback table server): nothing is fetched until a person asks; a fetch answers the table without writing, or
 * applies it to the templates it names with its date; the stats' cost then follows the formula; a missing, broken
 * or refused source says why and overwrites nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/core/events.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { buildHost } from '../../src/host/buildHost.js';
import type { HostApi } from '../../src/host/hostApi.js';
import { HostPaths } from '../../src/host/hostPaths.js';
import { agent, template, until, world } from '../actors/support/villageFixture.js';
import { requireDist } from '../support/childLines.js';
import { logRecords } from '../cli/support/cliProcess.js';
import { startPriceTableServer, SAMPLE_TABLE, type PriceTableServer } from '../support/priceTableServer.js';
import { reply, startStubLlm, type StubLlm } from '../support/stubLlm.js';

let stub: StubLlm;
let table: PriceTableServer;
let dir: string;
let host: HostApi | null = null;

beforeAll(async () => {
  requireDist('actors/agentWorker.js');
  stub = await startStubLlm();
  table = await startPriceTableServer();
});
afterAll(async () => {
  await stub.close();
  await table.close();
});
afterEach(async () => {
  await host?.close();
  host = null;
  stub.reset();
  table.requests.length = 0;
  table.answer({ body: JSON.stringify(SAMPLE_TABLE) });
  rmSync(dir, { recursive: true, force: true });
});

const pricingFile = (): string => join(dir, 'pricing.json');
const worldText = (): string => readFileSync(join(dir, 'workspace/world.json'), 'utf8');

/** A (on m-A, unpriced) and B (on m-B, priced by hand); `pricing` is pricing.json's text when given. */
async function boot(pricing?: string): Promise<HostApi> {
  dir = mkdtempSync(join(tmpdir(), 'ff-pricing-'));
  const w = world([agent('A'), agent('B')].map((a) => ({ ...a, modelTemplateId: `tpl-${a.id}` })));
  w.modelTemplates = [
    template({ id: 'tpl-A', model: 'm-A', baseUrl: stub.baseUrl }),
    template({ id: 'tpl-B', model: 'm-B', baseUrl: stub.baseUrl, inputPerMtok: 1, outputPerMtok: 2, pricingAsOf: '2025-01-01' }),
  ];
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  writeFileSync(join(dir, 'workspace/world.json'), JSON.stringify(w));
  if (pricing !== undefined) writeFileSync(pricingFile(), pricing);
  host = await buildHost(new HostPaths(dir), { appVersion: 'test', secrets: 'env', secretStore: new MemorySecretStore(), runSchedules: false, openDoor: false, env: {}, closeGraceMs: 5_000 });
  return host;
}

const logLines = (kind: string): Array<Record<string, unknown>> => logRecords(dir).filter((l) => l.msg === kind);

describe('the price table, fetched only when asked', () => {
  it('boot fetches nothing; fetch answers without writing; apply prices the named templates with the date; the cost follows', async () => {
    const h = await boot(JSON.stringify({ url: table.url, note: 'kept' }));
    const events: CoreEvent[] = [];
    h.events.subscribe((e) => events.push(e));
    expect(await h.pricing.source()).toMatchObject({ url: table.url, blocked: null });
    // One turn with known usage on the unpriced template.
    await h.startAgent('A');
    stub.respond(() => reply.text('hi', { usage: { prompt: 1000, completion: 100, cacheRead: 400 } }));
    h.sendUserMessage('A', 'hello');
    await until(() => events.some((e) => e.type === 'turnRecorded'), 'the turn record', 20_000);
    const sessionId = h.sessionId()!;
    expect((await h.stats({ kind: 'session', sessionId })).cost).toBeNull();
    // Boot, the source read and the stats made no request.
    expect(table.requests).toEqual([]);

    const before = worldText();
    const look = await h.pricing.fetch();
    expect(table.requests).toEqual(['/prices.json']);
    expect(look).toMatchObject({ url: table.url, asOf: '2026-08-18', dropped: 1, applied: [{ templateId: 'tpl-A', model: 'm-A' }], unmatched: ['tpl-B'], state: null });
    expect(look.entries.map((e) => e.key)).toEqual(['m-A', 'not-in-this-village']);
    expect(worldText()).toBe(before);

    const applied = await h.pricing.fetch({ apply: true });
    expect(applied.state).not.toBeNull();
    const tplA = h.world().modelTemplates.find((t) => t.id === 'tpl-A')!;
    expect(tplA).toMatchObject({ inputPerMtok: 3, outputPerMtok: 15, cacheReadPerMtok: 0.3, cacheWritePerMtok: 3.75, cacheWrite1hPerMtok: 6, pricingAsOf: '2026-08-18' });
    // The template the table only half-prices (dropped) keeps its own prices.
    expect(h.world().modelTemplates.find((t) => t.id === 'tpl-B')).toMatchObject({ inputPerMtok: 1, outputPerMtok: 2, pricingAsOf: '2025-01-01' });
    expect(JSON.parse(worldText()).modelTemplates[0]).toMatchObject({ inputPerMtok: 3, pricingAsOf: '2026-08-18' });

    const cost = (await h.stats({ kind: 'session', sessionId })).cost!;
    expect(cost.usd).toBeCloseTo(((1000 - 400) * 3 + 400 * 0.3 + 100 * 15) / 1e6, 12);
    expect(cost).toMatchObject({ asOf: '2026-08-18', pricedRows: 1, totalRows: 1 });
    expect(logLines('pricing fetch')).toEqual([
      expect.objectContaining({ source: new URL(table.url).host, entries: 2, dropped: 1, as_of: '2026-08-18', matched: 1, written: 0 }),
      expect.objectContaining({ matched: 1, written: 1 }),
    ]);
    // The shelf file kept its unknown key.
    expect(JSON.parse(readFileSync(pricingFile(), 'utf8'))).toEqual({ url: table.url, note: 'kept' });
  });

  it('no source: PRICING_FETCH says how to set one; set keeps unknown keys, clear removes the url; non-loopback http is refused', async () => {
    const h = await boot();
    await expect(h.pricing.fetch()).rejects.toMatchObject({ code: 'PRICING_FETCH', message: expect.stringContaining('No price table source'), fix: expect.stringContaining('pricing --url') });
    writeFileSync(pricingFile(), JSON.stringify({ extra: 1 }));
    expect(await h.pricing.setSource(table.url)).toMatchObject({ url: table.url, blocked: null });
    expect(JSON.parse(readFileSync(pricingFile(), 'utf8'))).toEqual({ extra: 1, url: table.url });
    await expect(h.pricing.setSource('http://example.com/prices.json')).rejects.toMatchObject({ code: 'PRICING_FETCH', message: expect.stringContaining('https://') });
    await expect(h.pricing.setSource('not a url')).rejects.toMatchObject({ code: 'PRICING_FETCH' });
    expect(await h.pricing.setSource(null)).toMatchObject({ url: null, blocked: null });
    expect(JSON.parse(readFileSync(pricingFile(), 'utf8'))).toEqual({ extra: 1 });
    expect(table.requests).toEqual([]);
  });

  it('a broken pricing.json blocks fetching and saving and is never overwritten', async () => {
    const h = await boot('{"url": "https://x.example/p.json",');
    const view = await h.pricing.source();
    expect(view.url).toBeNull();
    expect(view.blocked).toContain('pricing.json');
    await expect(h.pricing.fetch()).rejects.toMatchObject({ code: 'CONFIG_PARSE' });
    await expect(h.pricing.setSource(table.url)).rejects.toMatchObject({ code: 'CONFIG_PARSE', fix: expect.stringContaining('pricing.json') });
    expect(readFileSync(pricingFile(), 'utf8')).toBe('{"url": "https://x.example/p.json",');
  });

  it.each([
    ['an HTTP error', { status: 404, body: 'gone' }, /answered HTTP 404/],
    ['a body that is not JSON', { body: '<html>' }, /is not JSON/],
    ['a body over 8 MiB', { body: JSON.stringify({ models: [], pad: 'x'.repeat(8 * 1024 * 1024) }) }, /larger than 8 MiB/],
  ])('%s: PRICING_FETCH naming why, nothing written, a warn line with the code', async (_name, answer, message) => {
    const h = await boot(JSON.stringify({ url: table.url }));
    table.answer(answer);
    const before = worldText();
    await expect(h.pricing.fetch({ apply: true })).rejects.toMatchObject({ code: 'PRICING_FETCH', message: expect.stringMatching(message) });
    expect(worldText()).toBe(before);
    expect(logLines('pricing fetch failed')).toEqual([expect.objectContaining({ level: 'warn', code: 'PRICING_FETCH' })]);
  });
});
