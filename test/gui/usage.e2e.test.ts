/**
 * Conversations that last and a bill you can read, in real Chromium against a real `fuseforks-cli gui` and the
 * loopback stub: "Summarize and continue" asks first (it costs tokens), then the next request carries the
 * summary instead of the folded exchanges. Any page error or console.error fails the test.
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
});
