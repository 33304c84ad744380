/**
 * The chat's view controls as a person uses them, in headless Chromium against a real `fuseforks-cli gui` and the
 * loopback stub model: consecutive messages of one sender share one header, the recipient filter shows one
 * servant's conversation (and is still chosen after a reload), the copy button puts a bubble's text on the
 * clipboard (read back from the clipboard itself), and "clear the view" hides the rows on this screen only — the
 * conversation on the server is untouched, the cut survives a reload, "Show all" brings the rows back. Fails on any
 * page error or console.error. The chat input's `@` lists the addressed servant's work-folder paths (arrow keys and
 * Enter insert one, a folder opens inside it), refuses a link that leads out with the tools' reason, and the server
 * refuses the same over HTTP.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { reply, type StubLlm } from '../support/stubLlm.js';
import { HAS_CHROMIUM, ready, tid, until } from './support/browserSuite.js';
import { stubTemplate, useGuiSuite } from './support/guiSuite.js';

const suite = useGuiSuite({
  village: 'empty',
  stub: true,
  async setUp({ api, stub }) {
    await api('PUT', '/api/templates', { template: stubTemplate(stub.baseUrl) });
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
    // Quiet first: nobody typing, and every message on the server shown (a late reply would change the count).
    const shownRows = () => page.locator('.bubble:not(.draft), [data-testid="system-line"]').count();
    await until(async () => (await page.locator('[data-testid^="typing-"]').count()) === 0 && (await shownRows()) === (await messagesOnServer()), 'a quiet chat');
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

  it('@ completes paths of the addressed servant\'s work folder with the keyboard; links out are refused, in the page and on the server', async () => {
    const work = suite.tempDir('ff-gui-work-');
    const outside = suite.tempDir('ff-gui-outside-');
    mkdirSync(join(work, 'src'));
    writeFileSync(join(work, 'src/main.ts'), '');
    writeFileSync(join(work, 'src/model.ts'), '');
    writeFileSync(join(work, 'notes.md'), '');
    writeFileSync(join(outside, 'secret.txt'), '');
    symlinkSync(outside, join(work, 'out'));
    const state = await api<{ world: { agents: Array<{ id: string }> } }>('GET', '/api/state');
    const alice = state.world.agents.find((a) => a.id === 'alice')!;
    await api('PUT', '/api/agents/alice', { spec: { ...alice, workDir: work } });
    stub.respond((r) => lastLine(r.lastUserText));

    await reload();
    await page.click(`${tid('agent-card-alice')} .card-name`);
    const input = tid('chat-input');
    await page.fill(input, '');
    await page.type(input, 'compare @src/m');
    await until(async () => (await page.locator(tid('path-suggestion')).allTextContents()).join(',') === 'src/main.ts,src/model.ts', 'two matches listed');
    await page.keyboard.press('ArrowDown');
    await expect(page.getAttribute(`${tid('path-suggestion')}:has-text("src/model.ts")`, 'aria-selected')).resolves.toBe('true');
    await page.keyboard.press('Enter');
    await expect(page.inputValue(input)).resolves.toBe('compare @src/model.ts ');
    await page.waitForSelector(tid('path-suggestions'), { state: 'detached' });
    await expect(page.locator(bubble('compare @src')).count()).resolves.toBe(0);

    // A folder opens inside it; Escape closes the list without sending.
    await page.type(input, 'with @');
    await page.waitForSelector(`${tid('path-suggestion')}:has-text("src/")`);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.inputValue(input)).resolves.toBe('compare @src/model.ts with @src/');
    await until(async () => (await page.locator(tid('path-suggestion')).allTextContents()).join(',') === 'src/main.ts,src/model.ts', 'the folder\'s files listed');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect(page.inputValue(input)).resolves.toBe('compare @src/model.ts with @src/model.ts ');

    // A link that leads out of the work folder: the tools' reason, nothing listed.
    suite.browser.allowHttpError(400);
    await page.type(input, '@out/');
    // Each keystroke asks again ("@o" finds nothing first): wait for the answer to "@out/".
    await until(async () => ((await page.locator(tid('path-note')).textContent()) ?? '').includes('points outside the work folder'), 'the refusal of out/');
    await expect(page.locator(tid('path-suggestion')).count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('path-suggestions'), { state: 'detached' });

    // The server refuses the same by itself, and never lists what a link points at.
    const refused = await api<{ code: string; message: string }>('POST', '/api/agents/alice/work-files', { query: 'out/' }, 400);
    expect(refused.code).toBe('INVALID_REQUEST');
    expect(refused.message).toContain('points outside the work folder');
    await expect(api('POST', '/api/agents/alice/work-files', { query: 'secret' })).resolves.toMatchObject({ paths: [] });
    await api('POST', '/api/agents/alice/work-files', { query: '../' }, 400);

    // With the caret after a space no list is open: Enter sends. Answered, and still there after a reload.
    await page.fill(input, 'compare @src/model.ts with @src/main.ts please');
    await expect(page.locator(tid('path-suggestions')).count()).resolves.toBe(0);
    await page.press(input, 'Enter');
    await page.waitForSelector(bubble('[stub] compare @src/model.ts with @src/main.ts please'));
    await reload();
    await page.waitForSelector(bubble('[stub] compare @src/model.ts with @src/main.ts please'));

    // A servant without a work folder says so.
    await page.click(`${tid('agent-card-bob')} .card-name`);
    await page.type(input, '@');
    await expect(page.locator(tid('path-note')).textContent()).resolves.toContain('Bob has no work folder');
  }, 120_000);
});
