/**
 * Conversations that last and a bill you can read, in real Chromium against a real `fuseforks-cli gui` and the
 * loopback stub: "Summarize and continue" asks first (it costs tokens), then the next request carries the
 * summary instead of the folded exchanges; the stats view shows the numbers the stub reported (summed by hand here),
 * a uPlot chart, the ≈ cost by the formula, and "no records" for an empty conversation. Any page error or
 * console.error fails the test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startStubLlm, type StubLlm, type StubRequest } from '../support/stubLlm.js';
import { guiApi, HAS_CHROMIUM, launchBrowser, openGui, tid, until, type BrowserRun } from './support/browserSuite.js';
import { requireGuiBuild, startGui, type GuiChild } from './support/guiChild.js';

let browser: BrowserRun;
let stub: StubLlm;
let gui: GuiChild;
let dir: string;
let page: Page;
let api: ReturnType<typeof guiApi>;

const SUMMARY_MARK = 'Output only the summary.';
const isSummaryCall = (r: StubRequest): boolean => r.lastUserText.includes(SUMMARY_MARK);
const sentText = (r: StubRequest): string => JSON.stringify(r.body?.messages ?? []);

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  requireGuiBuild();
  stub = await startStubLlm();
  dir = mkdtempSync(join(tmpdir(), 'ff-gui-usage-'));
  gui = await startGui(dir);
  api = guiApi(gui);
  browser = await launchBrowser();
  await api('PUT', '/api/templates', {
    template: {
      id: 'stub', name: 'Stub', baseUrl: stub.baseUrl, model: 'stub-model', contextLength: 32000, temperature: null, maxOutputTokens: 1024,
      credential: 'not_required', provider: 'open_ai_compat', useTools: true, requestTimeoutSecs: 60, maxRetries: 1,
      inputPerMtok: 3, outputPerMtok: 15, cacheReadPerMtok: 0.3, pricingAsOf: '2026-07-01',
    },
  });
  await api('POST', '/api/agents', { name: 'Alice', modelTemplateId: 'stub' });
  await api('POST', '/api/agents/alice/start');
  page = await browser.page();
  await openGui(page, gui.url);
}, 180_000);

afterEach(() => browser?.assertClean());

afterAll(async () => {
  await page?.close();
  await browser?.close();
  await gui?.stop();
  await stub?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function say(text: string): Promise<void> {
  const before = await page.locator(tid('bubble-agent')).count();
  await page.fill(tid('chat-input'), text);
  await page.press(tid('chat-input'), 'Enter');
  await until(async () => (await page.locator(tid('bubble-agent')).count()) > before, `the answer to "${text}"`);
}

describe.skipIf(!HAS_CHROMIUM)('summaries in the GUI', () => {
  it('Summarize and continue confirms first, then the next request carries the summary, not the folded talk', async () => {
    stub.respond((r) => (isSummaryCall(r) ? reply.text('SUMMARY: oranges agreed.') : reply.text(`ok (${r.lastUserText.length})`)));
    await page.click(`${tid('agent-card-alice')} .card-name`);
    await say('we talk about oranges');

    // Cancel spends nothing.
    await page.click(tid('summarize'));
    await expect(page.textContent(tid('confirm-text'))).resolves.toContain('costs tokens');
    await page.click(tid('confirm-cancel'));
    await page.waitForSelector(tid('confirm'), { state: 'detached' });
    expect(stub.requests.filter(isSummaryCall)).toHaveLength(0);

    await page.click(tid('summarize'));
    await page.click(tid('confirm-ok'));
    await page.waitForSelector(`${tid('toast-info')}:has-text("Summarized 1 servant")`);
    await page.waitForSelector(`${tid('system-line')}:has-text("Summarized the conversation of 1 agent")`);
    expect(stub.requests.filter(isSummaryCall)).toHaveLength(1);

    await say('and now?');
    const last = stub.requests.filter((r) => !isSummaryCall(r)).at(-1)!;
    expect(sentText(last)).toContain('SUMMARY: oranges agreed.');
    expect(sentText(last)).not.toContain('we talk about oranges');
  });

  it('the stats view shows the usage the stub reported, a chart, the cost; an empty conversation says "no records"', async () => {
    await api('POST', '/api/sessions/new');
    await page.reload();
    await page.waitForSelector(tid('main'));
    stub.respond(() => reply.text('counted', { usage: { prompt: 1000, completion: 50, cacheRead: 400 } }));
    await page.click(`${tid('agent-card-alice')} .card-name`);
    await say('count one');
    await say('count two');

    await page.click(tid('open-stats'));
    await page.waitForSelector(tid('stats-view'));
    // By hand, per turn: uncached 600 + cached 400 × 0.1 + output 50 × 4 = 840 effective; two turns.
    await until(async () => (await page.textContent(tid('stats-turns'))) === '2', 'two turns');
    await expect(page.textContent(tid('stats-effective'))).resolves.toBe('1,680');
    await expect(page.textContent(tid('stats-input'))).resolves.toBe('2,000');
    await expect(page.textContent(tid('stats-cache-rate'))).resolves.toBe('cache 40%');
    await expect(page.textContent(tid('stats-output'))).resolves.toBe('100');
    await expect(page.textContent(tid('stats-avg'))).resolves.toBe('840');
    await expect(page.textContent(tid('stats-failed'))).resolves.toBe('0 failed');
    // ≈ $: 2 × (600 × 3 + 400 × 0.3 + 50 × 15) / 1e6 = 0.00534
    const cost = await page.textContent(tid('stats-cost'));
    expect(cost).toContain('≈ $0.0053');
    expect(cost).toContain('prices as of 2026-07-01');
    expect(cost).toContain('2 of 2 calls priced (100% of tokens)');
    await page.waitForSelector(`${tid('stats-chart')} canvas`);
    // The x axis counts turns: whole numbers only (two turns once drew 1, 1.2, 1.4 …).
    await until(async () => ((await page.getAttribute(tid('stats-chart'), 'data-x-ticks')) ?? '') !== '', 'the x ticks drawn');
    await expect(page.getAttribute(tid('stats-chart'), 'data-x-ticks')).resolves.toBe('1 2');
    await expect(page.textContent(tid('stats-row-alice'))).resolves.toContain('1,680');
    await expect(page.textContent(tid('stats-stops'))).resolves.toContain('completed: 2');

    // A third turn lands while the view is open: it re-reads.
    await api('POST', '/api/messages', { to: 'alice', text: 'count three' });
    await until(async () => (await page.textContent(tid('stats-turns'))) === '3', 'three turns');

    // All conversations, this billing month: the earlier conversation (with its summary call) is in it too.
    await page.selectOption(tid('stats-scope'), 'all');
    const now = new Date();
    await expect(page.textContent(tid('stats-period'))).resolves.toBe(`${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`);
    await until(async () => Number((await page.textContent(tid('stats-turns'))) ?? 0) >= 5, 'every turn of the month');
    await page.click(tid('stats-prev'));
    await page.waitForSelector(tid('stats-no-records'));
    await page.click(tid('stats-all-time'));
    await page.waitForSelector(tid('stats-turns'));
    await page.click(tid('stats-close'));

    await api('POST', '/api/sessions/new');
    await page.click(tid('open-stats'));
    await page.waitForSelector(tid('stats-no-records'));
    await page.click(tid('stats-close'));
  });
});
