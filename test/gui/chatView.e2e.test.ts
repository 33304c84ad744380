/**
 * The chat's view controls as a person uses them, in headless Chromium against a real `fuseforks-cli gui` and the
 * loopback stub model: consecutive messages of one sender share one header, the recipient filter shows one
 * servant's conversation (and is still chosen after a reload), the copy button puts a bubble's text on the
 * clipboard (read back from the clipboard itself), and "clear the view" hides the rows on this screen only — the
 * conversation on the server is untouched, the cut survives a reload, "Show all" brings the rows back. Fails on any
 * page error or console.error.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { reply, type StubLlm } from '../support/stubLlm.js';
import { HAS_CHROMIUM, ready, tid, until } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

const suite = useGuiSuite({
  village: 'empty',
  stub: true,
  async setUp({ api, stub }) {
    const template = {
      id: 'stub', name: 'stub', baseUrl: stub.baseUrl, model: 'stub-model', contextLength: 32000, temperature: null, maxOutputTokens: 1024,
      credential: 'not_required', provider: 'open_ai_compat', useTools: true, requestTimeoutSecs: 60, maxRetries: 1,
    };
    await api('PUT', '/api/templates', { template });
    await api('POST', '/api/agents', { name: 'Alice', modelTemplateId: 'stub' });
    await api('POST', '/api/agents', { name: 'Bob', modelTemplateId: 'stub' });
    await api('POST', '/api/agents/alice/start');
    await api('POST', '/api/agents/bob/start');
  },
});
let page: Page;
let stub: StubLlm;
let api: typeof suite.api;
beforeAll(() => {
  ({ page, stub, api } = suite);
});

/** The stub's answer: `[stub] ` and the last line of what it was sent (the person's text; the prompt adds notices above it). */
const lastLine = (text: string) => reply.text(`[stub] ${text.trim().split('\n').at(-1) ?? ''}`);
const bubble = (text: string) => `.bubble:has-text(${JSON.stringify(text)})`;
const messagesOnServer = async () => (await api<{ messages: unknown[] }>('GET', '/api/state')).messages.length;

async function reload(): Promise<void> {
  await page.reload();
  await ready(page);
}

describe.skipIf(!HAS_CHROMIUM)(`chat view controls in headless Chromium${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  it('groups one sender\'s consecutive messages, filters by servant (kept after a reload) and copies a bubble', async () => {
    // Alice's first answer waits, so both of the person's messages to her are recorded one after the other.
    stub.respond((r) => (r.lastUserText.includes('first for alice') ? { ...reply.text('[stub] alice answers'), delayMs: 3000 } : lastLine(r.lastUserText)));
    await api('POST', '/api/messages', { to: 'alice', text: 'first for alice' });
    await api('POST', '/api/messages', { to: 'alice', text: 'second for alice' });
    await api('POST', '/api/messages', { to: 'bob', text: 'hello bob' });
    await page.waitForSelector(bubble('[stub] hello bob'));
    await page.waitForSelector(bubble('alice answers'));

    // Grouping: the second message to Alice carries no header of its own.
    await expect(page.getAttribute(bubble('first for alice'), 'data-grouped')).resolves.toBe('false');
    await expect(page.getAttribute(bubble('second for alice'), 'data-grouped')).resolves.toBe('true');
    await expect(page.locator(`${bubble('second for alice')} .who`).count()).resolves.toBe(0);
    await expect(page.locator(`${bubble('first for alice')} .who`).textContent()).resolves.toContain('You → Alice');

    // Filter: only Bob's conversation, still chosen after a reload; then everyone again.
    await page.selectOption(tid('chat-filter'), 'bob');
    await expect(page.locator(bubble('for alice')).count()).resolves.toBe(0);
    await expect(page.locator(bubble('hello bob')).count()).resolves.toBe(2);
    await reload();
    await expect(page.inputValue(tid('chat-filter'))).resolves.toBe('bob');
    await page.waitForSelector(bubble('[stub] hello bob'));
    await expect(page.locator(bubble('for alice')).count()).resolves.toBe(0);
    await page.selectOption(tid('chat-filter'), '');
    await page.waitForSelector(bubble('second for alice'));

    // Copy: the bubble's text lands on the clipboard (read back through the clipboard API).
    await suite.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(suite.gui.url).origin });
    await page.hover(bubble('[stub] hello bob'));
    await page.click(`${bubble('[stub] hello bob')} ${tid('bubble-copy')}`);
    await page.waitForSelector('.toast:has-text("Copied.")');
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe('[stub] hello bob');
  }, 120_000);

  it('clears the view only: the conversation stays on the server, the cut survives a reload, Show all undoes it', async () => {
    stub.respond((r) => lastLine(r.lastUserText));
    await page.waitForSelector(bubble('hello bob'));
    const before = await messagesOnServer();
    await expect(page.textContent(tid('chat'))).resolves.toContain('the conversation is kept');
    await page.click(tid('chat-clear-view'));
    await page.waitForSelector(bubble('hello bob'), { state: 'detached' });
    await expect(page.textContent(tid('chat-hidden'))).resolves.toContain(`${before} earlier`);
    expect(await messagesOnServer()).toBe(before);

    await reload();
    await page.waitForSelector(tid('chat-hidden'));
    await expect(page.locator('.bubble').count()).resolves.toBe(0);

    // A new message after the cut is shown.
    await page.click(`${tid('agent-card-bob')} .card-name`);
    await page.fill(tid('chat-input'), 'after the cut');
    await page.press(tid('chat-input'), 'Enter');
    await page.waitForSelector(bubble('[stub] after the cut'));
    await expect(page.locator(bubble('hello bob')).count()).resolves.toBe(0);

    await page.click(tid('chat-show-all'));
    await page.waitForSelector(bubble('hello bob'));
    await until(async () => (await page.locator(tid('chat-hidden')).count()) === 0, 'the hidden line is gone');
    await reload();
    await page.waitForSelector(bubble('first for alice'));
    await expect(page.locator(tid('chat-hidden')).count()).resolves.toBe(0);
  }, 120_000);
});
