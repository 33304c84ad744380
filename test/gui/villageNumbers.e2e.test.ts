/**
 * What the chat and the servant cards say about a run, checked in headless Chromium against a real
 * `fuseforks-cli gui` and the loopback stub model (which reports usage on every answer): a message Alice hands to
 * three servants at once is one bubble whose recipient line reads "Bob +2 more" — the whole list on hover, on
 * keyboard focus and in a list that Enter opens — and every servant's bubble shows the tokens its turn used, equal
 * to what the stub reported, still after a reload. Fails on any page error or console.error.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { reply, type StubLlm } from '../support/stubLlm.js';
import { HAS_CHROMIUM, ready, shotPath, tid, until } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

const HELPERS = ['bob', 'carol', 'dave'] as const;

const suite = useGuiSuite({
  village: 'empty',
  stub: true,
  async setUp({ api, stub }) {
    const template = {
      id: 'stub', name: 'stub', baseUrl: stub.baseUrl, model: 'stub-model', contextLength: 32000, temperature: null, maxOutputTokens: 1024,
      credential: 'not_required', provider: 'open_ai_compat', useTools: true, requestTimeoutSecs: 60, maxRetries: 1,
    };
    await api('PUT', '/api/templates', { template });
    for (const name of ['Alice', 'Bob', 'Carol', 'Dave']) await api('POST', '/api/agents', { name, modelTemplateId: 'stub' });
    await api('PUT', '/api/agents/alice/ties', { targets: [...HELPERS] });
    for (const id of ['alice', ...HELPERS]) await api('POST', `/api/agents/${id}/start`);
  },
});
let page: Page;
let stub: StubLlm;
let api: typeof suite.api;
beforeAll(() => {
  ({ page, stub, api } = suite);
});

const bubble = (text: string) => `.bubble:has-text(${JSON.stringify(text)})`;

interface Msg { from: { kind: string; id?: string }; to: { kind: string; id?: string }; content: string; tokens: number }

describe.skipIf(!HAS_CHROMIUM)('chat recipients and token counts in headless Chromium', () => {
  it('a message to three servants is one bubble "Bob +2 more" (list on hover, focus, Enter); each reply shows its tokens', async () => {
    for (const id of ['alice', ...HELPERS]) await page.waitForSelector(`${tid(`status-${id}`)}[data-status="running"]`);
    // Alice hands the work to all three in one answer (1000 in + 50 out); each helper answers the person.
    stub.enqueue(
      reply.toolCalls(HELPERS.map((id) => ({ name: `transfer_to_${id}`, args: { message: 'split the work' } })), { usage: { prompt: 1000, completion: 50 } }),
      (r) => r.lastUserText.includes('please share this out'),
    );
    const helperUsage = { bob: { prompt: 300, completion: 20 }, carol: { prompt: 410, completion: 7 }, dave: { prompt: 250, completion: 1 } };
    stub.respond((r) => {
      const id = HELPERS.find((h) => r.system.includes(`${h[0]!.toUpperCase()}${h.slice(1)}`) && r.lastUserText.includes('split the work'));
      return id === undefined ? reply.text('nothing to do') : reply.text(`${id} is done`, { usage: helperUsage[id] });
    });
    await page.click(`${tid('agent-card-alice')} .card-name`);
    await page.fill(tid('chat-input'), 'please share this out');
    await page.press(tid('chat-input'), 'Enter');
    for (const id of HELPERS) await page.waitForSelector(bubble(`${id} is done`));

    // The server recorded three copies (one per recipient); the screen shows one bubble.
    const messages = (await api<{ messages: Msg[] }>('GET', '/api/state')).messages;
    const copies = messages.filter((m) => m.from.id === 'alice' && m.content === 'split the work');
    expect(copies.map((m) => m.to.id)).toEqual([...HELPERS]);
    await checkFanOut();

    // Tokens: what the stub reported for each turn (input + output); the person's own bubble shows none.
    await expect(page.textContent(`${bubble('split the work')} ${tid('bubble-tokens')}`)).resolves.toBe('1,050 tokens');
    expect(copies.reduce((n, m) => n + m.tokens, 0)).toBe(1050);
    for (const id of HELPERS) {
      const u = helperUsage[id];
      await expect(page.textContent(`${bubble(`${id} is done`)} ${tid('bubble-tokens')}`)).resolves.toBe(`${u.prompt + u.completion} tokens`);
      // A reply to one person has no "+N more".
      await expect(page.locator(`${bubble(`${id} is done`)} ${tid('recipients-more')}`).count()).resolves.toBe(0);
    }
    await expect(page.locator(`${tid('bubble-user')} ${tid('bubble-tokens')}`).count()).resolves.toBe(0);

    // Filtered to Carol, the bubble still names everyone it went to; after a reload everything reads the same.
    await page.selectOption(tid('chat-filter'), 'carol');
    await expect(page.textContent(`${bubble('split the work')} ${tid('recipients')}`)).resolves.toContain('Bob +2 more');
    await page.selectOption(tid('chat-filter'), '');
    await page.reload();
    await ready(page);
    await page.waitForSelector(bubble('dave is done'));
    await checkFanOut();
    await expect(page.textContent(`${bubble('split the work')} ${tid('bubble-tokens')}`)).resolves.toBe('1,050 tokens');
  });
});

/** One bubble for the three copies: "Bob +2 more", the whole list on hover and keyboard focus, a list on Enter. */
async function checkFanOut(): Promise<void> {
  const fan = bubble('split the work');
  await expect(page.locator(fan).count()).resolves.toBe(1);
  await expect(page.textContent(`${fan} ${tid('recipients-first')}`)).resolves.toBe('Bob');
  const more = page.locator(`${fan} ${tid('recipients-more')}`);
  await expect(more.textContent()).resolves.toBe('+2 more');
  await expect(more.getAttribute('title')).resolves.toBe('To Bob, Carol, Dave');
  const tip = page.locator(`${fan} ${tid('recipients-tip')}`);
  await expect(tip.isVisible()).resolves.toBe(false);
  await more.hover();
  await until(() => tip.isVisible(), 'the list shown on hover');
  await expect(tip.textContent()).resolves.toBe('To Bob, Carol, Dave');
  await page.mouse.move(0, 0);
  await until(async () => !(await tip.isVisible()), 'the hover list gone');

  // Keyboard: Tab from the bubble's copy button reaches "+2 more"; focus shows the list, Enter opens it, again closes.
  await page.hover(fan);
  await page.focus(`${fan} ${tid('bubble-copy')}`);
  await page.keyboard.press('Tab');
  await until(() => more.evaluate((el) => el === el.ownerDocument.activeElement), '"+2 more" focused by Tab');
  await page.mouse.move(0, 0);
  await until(() => tip.isVisible(), 'the list shown on keyboard focus');
  await expect(more.getAttribute('aria-expanded')).resolves.toBe('false');
  await page.keyboard.press('Enter');
  const list = page.locator(`${fan} ${tid('recipients-list')}`);
  await expect(list.locator('[role="listitem"]').allTextContents()).resolves.toEqual(['Bob', 'Carol', 'Dave']);
  await expect(more.getAttribute('aria-expanded')).resolves.toBe('true');
  await expect(more.getAttribute('aria-controls')).resolves.toBe(await list.getAttribute('id'));
  await page.locator(tid('region-chat')).screenshot({ path: shotPath('chat-recipients-en.png') });
  await page.keyboard.press('Enter');
  await until(async () => (await list.count()) === 0, 'the list closed again');
}
