/**
 * What the chat and the servant cards say about a run, checked in headless Chromium against a real
 * `fuseforks-cli gui` and the loopback stub model (which reports usage on every answer): a message Alice hands to
 * three servants at once is one bubble whose recipient line reads "Bob +2 more" — the whole list on hover, on
 * keyboard focus and in a list that Enter opens — and every servant's bubble shows the tokens its turn used, equal
 * to what the stub reported, still after a reload. A servant card shows its uptime (moving on while the worker
 * runs, "—" once stopped), the share of its prompt tokens the stub reported as cached, and its last tool call with
 * ok/failed, each "—" until known. Every servant's avatar is its initials on a colour from its id — the same in the
 * card, the map and the chat, kept through a rename — and the page fetches nothing beyond the GUI itself. Fails on
 * any page error or console.error. The same texts are checked in Japanese.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { reply, type StubLlm } from '../support/stubLlm.js';
import { HAS_CHROMIUM, ready, shotPath, tid, until } from './support/browserSuite.js';
import { stubTemplate, useGuiSuite } from './support/guiSuite.js';
import { avatarColor } from '../../src/gui/client/lib/avatar.js';

const HELPERS = ['bob', 'carol', 'dave'] as const;

const suite = useGuiSuite({
  village: 'empty',
  stub: true,
  async setUp({ api, stub }) {
    await api('PUT', '/api/templates', { template: stubTemplate(stub.baseUrl) });
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

describe.skipIf(!HAS_CHROMIUM)('servant cards: uptime, cache-hit rate, last tool call in headless Chromium', () => {
  it('each row reads "—" until known, then what the run did, updated live from the event stream', async () => {
    const row = (name: string) => page.textContent(tid(`${name}-erin`)).then((s) => (s ?? '').trim());
    const uptimeSecs = async (): Promise<number> => {
      const m = /^(?:(\d+)m )?(\d+)s$/.exec(await row('uptime'));
      return m === null ? -1 : Number(m[1] ?? 0) * 60 + Number(m[2]);
    };
    await api('POST', '/api/agents', { name: 'Erin', modelTemplateId: 'stub' });
    await page.waitForSelector(tid('agent-card-erin'));
    // Never started: nothing is known yet.
    for (const name of ['uptime', 'cache', 'last-tool']) await expect(row(name)).resolves.toBe('—');

    const startedAt = Date.now();
    await api('POST', '/api/agents/erin/start');
    await page.waitForSelector(`${tid('status-erin')}[data-status="running"]`);
    await until(async () => (await uptimeSecs()) >= 0, 'an uptime once the worker runs');
    const firstSeen = await uptimeSecs();
    // Live: the next stats ticks move it on without a reload; it never claims more than the time since the start.
    await until(async () => (await uptimeSecs()) > firstSeen, 'the uptime moving on');
    expect(await uptimeSecs()).toBeLessThanOrEqual(Math.ceil((Date.now() - startedAt) / 1000));
    await expect(row('cache')).resolves.toBe('—');

    // One turn: `remember` works (1000 prompt tokens, none cached), then the answer (1200, 1000 of them cached).
    const asked = (r: { lastUserText: string }) => r.lastUserText.includes('erin, keep this');
    stub.enqueue(reply.tool('remember', { note: 'Erin keeps tea notes' }, { usage: { prompt: 1000, completion: 10 } }), asked);
    stub.enqueue(reply.text('kept', { usage: { prompt: 1200, cacheRead: 1000, completion: 5 } }), asked);
    await page.click(`${tid('agent-card-erin')} .card-name`);
    await page.fill(tid('chat-input'), 'erin, keep this');
    await page.press(tid('chat-input'), 'Enter');
    await page.waitForSelector('.bubble:has-text("kept")');
    await until(async () => (await row('last-tool')) === 'remember · ok', 'the last tool: remember, ok');
    await expect(page.getAttribute(tid('last-tool-erin'), 'data-ok')).resolves.toBe('true');
    // 1000 of 2200 prompt tokens came from the cache = 45 %, hover names both counts.
    await until(async () => (await row('cache')) === '45%', 'the cache-hit rate of both calls');
    await expect(page.getAttribute(tid('cache-erin'), 'title')).resolves.toBe('1,000 of 2,200 input tokens from the cache');
    await page.locator(tid('agent-card-erin')).screenshot({ path: shotPath('agent-card-en.png') });

    // A failing call (no note): the row says so; the next answer has nothing cached, so the rate falls.
    stub.enqueue(reply.tool('remember', {}, { usage: { prompt: 800, completion: 3 } }), (r) => r.lastUserText.includes('erin, try again'));
    stub.enqueue(reply.text('could not', { usage: { prompt: 1000, completion: 2 } }), (r) => r.lastUserText.includes('erin, try again'));
    await page.fill(tid('chat-input'), 'erin, try again');
    await page.press(tid('chat-input'), 'Enter');
    await page.waitForSelector('.bubble:has-text("could not")');
    await until(async () => (await row('last-tool')) === 'remember · failed', 'the last tool: remember, failed');
    await expect(page.getAttribute(tid('last-tool-erin'), 'data-ok')).resolves.toBe('false');
    await until(async () => (await row('cache')) === '25%', '1000 of 4000 cached');
    const turns = stub.requests.filter((r) => r.lastUserText.includes('erin, '));
    expect(turns).toHaveLength(4);

    // Stopped: no uptime; what was counted stays, also for a page opened afterwards (the host kept it).
    await api('POST', '/api/agents/erin/stop');
    await page.waitForSelector(`${tid('status-erin')}[data-status="idle"]`);
    await expect(row('uptime')).resolves.toBe('—');
    await expect(row('cache')).resolves.toBe('25%');
    await page.reload();
    await ready(page);
    await expect(row('uptime')).resolves.toBe('—');
    await expect(row('cache')).resolves.toBe('25%');
    await expect(row('last-tool')).resolves.toBe('remember · failed');
    await expect(page.getAttribute(tid('cache-erin'), 'title')).resolves.toBe('1,000 of 4,000 input tokens from the cache');
  });
});

describe.skipIf(!HAS_CHROMIUM)('avatars in headless Chromium', () => {
  it('initials on the id\'s colour in the card, the map and the chat; a rename keeps the colour; nothing is fetched', async () => {
    const origin = new URL(suite.gui.url).origin;
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(`${origin}/`)) outside.push(r.url());
    });
    await page.reload();
    await ready(page);
    const background = (selector: string) => page.locator(selector).evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor);
    for (const [id, initials] of [['alice', 'A'], ['bob', 'B'], ['carol', 'C'], ['dave', 'D'], ['erin', 'E']] as const) {
      const card = `${tid(`agent-card-${id}`)} ${tid(`avatar-${id}`)}`;
      await expect(page.textContent(card)).resolves.toBe(initials);
      await expect(page.getAttribute(card, 'data-color')).resolves.toBe(avatarColor(id));
      // The map draws the same initials on the same colour.
      await expect(page.getAttribute(`${tid(`kizuna-node-${id}`)} circle.ring`, 'fill')).resolves.toBe(avatarColor(id));
      await expect(page.textContent(`${tid(`kizuna-node-${id}`)} ${tid(`kizuna-initials-${id}`)}`)).resolves.toBe(initials);
    }
    // Different ids, different colours; the chat's avatar of a sender is its card's.
    expect(await background(`${tid('agent-card-alice')} ${tid('avatar-alice')}`)).not.toBe(await background(`${tid('agent-card-bob')} ${tid('avatar-bob')}`));
    const inChat = `${bubble('split the work')} .who ${tid('avatar-alice')}`;
    await expect(page.textContent(inChat)).resolves.toBe('A');
    expect(await background(inChat)).toBe(await background(`${tid('agent-card-alice')} ${tid('avatar-alice')}`));

    // Renamed, Bob's initials follow the name; his colour stays (it comes from the id).
    const before = await background(`${tid('agent-card-bob')} ${tid('avatar-bob')}`);
    const { world } = await api<{ world: { agents: Array<{ id: string; name: string }> } }>('GET', '/api/state');
    await api('PUT', '/api/agents/bob', { spec: { ...world.agents.find((a) => a.id === 'bob')!, name: 'Robert Brown' } });
    await until(async () => (await page.textContent(`${tid('agent-card-bob')} ${tid('avatar-bob')}`)) === 'RB', 'the initials of the new name');
    expect(await background(`${tid('agent-card-bob')} ${tid('avatar-bob')}`)).toBe(before);
    await expect(page.textContent(`${tid('kizuna-node-bob')} ${tid('kizuna-initials-bob')}`)).resolves.toBe('RB');
    await until(async () => (await page.textContent(tid('uptime-alice'))) !== '—', 'a stats tick after the reload');
    await page.locator(tid('region-servants')).screenshot({ path: shotPath('avatars-en.png') });
    expect(outside, 'requests that left the GUI').toEqual([]);
  });
});

describe.skipIf(!HAS_CHROMIUM)('the new texts in Japanese', () => {
  it('the recipient line, the token count and the card rows read in Japanese', async () => {
    await page.selectOption(tid('lang-toggle'), 'ja');
    const fan = bubble('split the work');
    // Bob was renamed "Robert Brown" above.
    await expect(page.textContent(`${fan} ${tid('recipients-more')}`)).resolves.toBe('ほか 2 名');
    await expect(page.getAttribute(`${fan} ${tid('recipients-more')}`, 'title')).resolves.toBe('宛先: Robert Brown, Carol, Dave');
    await expect(page.textContent(`${fan} ${tid('bubble-tokens')}`)).resolves.toBe('1,050 トークン');
    const card = await page.textContent(tid('agent-card-alice'));
    for (const label of ['稼働時間', 'キャッシュ', '最後のツール']) expect(card).toContain(label);
    await page.locator(tid('region-chat')).screenshot({ path: shotPath('chat-recipients-ja.png') });
    await page.locator(tid('agent-card-alice')).screenshot({ path: shotPath('agent-card-ja.png') });
    await page.selectOption(tid('lang-toggle'), 'en');
    await expect(page.textContent(`${fan} ${tid('recipients-more')}`)).resolves.toBe('+2 more');
  });
});
