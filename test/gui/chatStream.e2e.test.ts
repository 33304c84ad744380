/**
 * The chat as a person uses it, in headless Chromium against a real `fuseforks-cli gui` and the loopback stub:
 * a streamed reply grows in the chat piece by piece (watched by a MutationObserver, not by timing), thinking is
 * shown as thinking, a file is attached and reaches the model, a kind the wire cannot carry is refused with the
 * reason, a sent picture is shown again after a page reload (served from its stored body), and the template dialog's streaming and provider switches are saved and re-read. Fails on any page
 * error or console error.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startStubLlm, type StubLlm } from '../support/stubLlm.js';
import { SAMPLES } from '../support/attachmentSamples.js';
import { guiApi, HAS_CHROMIUM, launchBrowser, openGui, tid as id, until, type BrowserRun } from './support/browserSuite.js';
import { requireGuiBuild, startGui, waitBoot, type GuiChild } from './support/guiChild.js';

let browser: BrowserRun;
let stub: StubLlm;
let gui: GuiChild;
let dir: string;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  requireGuiBuild();
  stub = await startStubLlm();
  dir = mkdtempSync(join(tmpdir(), 'ff-gui-stream-'));
  gui = await startGui(dir);
  await waitBoot(gui.port, gui.token);
  const api = guiApi(gui);
  const template = { id: 'claude', name: 'Claude (stub)', provider: 'anthropic', baseUrl: stub.baseUrl, model: 'claude-sonnet-5', credential: 'not_required', stream: true };
  await api('PUT', '/api/templates', { template });
  await api('POST', '/api/agents', { name: 'Alice' });
  await api('POST', '/api/agents/alice/start');
  browser = await launchBrowser();
}, 180_000);

afterEach(() => {
  if (HAS_CHROMIUM) browser.assertClean();
});

afterAll(async () => {
  await browser?.close();
  await gui?.stop();
  await stub?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * Waits for Alice's reply bubble containing `text`; on a timeout the error carries what the stub saw and the turn
 * lines of the village log, so a failure under load says which step went wrong.
 */
async function waitForReply(page: Page, text: string): Promise<void> {
  try {
    await page.waitForSelector(`${id('bubble-agent')}:has-text(${JSON.stringify(text)})`, { timeout: 60_000 });
  } catch (error) {
    let log = '';
    try {
      log = readFileSync(join(dir, 'workspace/fuseforks.log'), 'utf8')
        .split('\n')
        .filter((l) => /turn|reply|failed|agent (started|stopped)/.test(l))
        .slice(-12)
        .join('\n');
    } catch {
      // no log yet
    }
    const seen = stub.requests.map((r) => `#${r.index} ${r.wire} stream=${r.stream} closedEarly=${r.closedEarly} user=${JSON.stringify(r.lastUserText.slice(-40))}`);
    const chat = await page.textContent(id('chat')).catch(() => '');
    throw new Error(`no reply bubble with ${JSON.stringify(text)}: ${(error as Error).message}\nstub requests:\n${seen.join('\n')}\nchat: ${chat}\nlog:\n${log}\ngui stderr: ${gui.stderr().slice(-2000)}`);
  }
}

/** Opens the app in English with Alice selected and running. */
async function open(): Promise<{ page: Page }> {
  const page = await browser.page();
  await openGui(page, gui.url);
  await page.click(`${id('agent-card-alice')} .card-name`);
  await page.waitForSelector(`${id('status-alice')}[data-status="running"]`);
  return { page };
}

const ANSWER = 'Streaming works: this reply arrives in small pieces, and the chat shows each one as it comes in, so a person sees it grow.';

describe.skipIf(!HAS_CHROMIUM)(`chat streaming and attachments in headless Chromium${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  it('shows the reply growing as it streams, thinking apart, then the finished bubble', async () => {
    const { page } = await open();
    // Records every length the draft's answer text takes, as the DOM changes (no sampling by time).
    await page.evaluate(`(() => {
      window.__lengths = [];
      new MutationObserver(() => {
        const md = document.querySelector('[data-testid="draft-alice"] .md');
        const n = md ? md.textContent.length : -1;
        if (n >= 0 && window.__lengths[window.__lengths.length - 1] !== n) window.__lengths.push(n);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    stub.enqueue({ ...reply.text(ANSWER, { thinking: 'The person wants to see streaming.' }), chunkChars: 5, chunkDelayMs: 30 });
    await page.fill(id('chat-input'), 'show me streaming');
    await page.press(id('chat-input'), 'Enter');
    await page.waitForSelector(id('draft-alice'));
    await waitForReply(page, 'so a person sees it grow');
    await page.waitForSelector(id('draft-alice'), { state: 'detached' });
    const lengths = (await page.evaluate('window.__lengths')) as number[];
    // It grew step by step: several strictly increasing lengths, never the whole answer at once.
    expect(lengths.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < lengths.length; i++) expect(lengths[i]!).toBeGreaterThan(lengths[i - 1]!);
    expect(lengths[0]!).toBeLessThan(ANSWER.length / 2);
    // Thinking is shown as thinking, folded, and never inside the answer.
    const bubble = page.locator(`${id('bubble-agent')}:has-text("so a person sees it grow")`);
    await expect(bubble.locator(`${id('thinking')} summary`).textContent()).resolves.toBe('Thinking');
    await expect(bubble.locator('.md').textContent()).resolves.not.toContain('wants to see streaming');
    expect(stub.requests.at(-1)!.stream).toBe(true);
    await page.close();
  }, 90_000);

  it('attaches a file that reaches the model before the text; a kind the wire cannot carry is refused with the reason', async () => {
    const { page } = await open();
    const png = SAMPLES['image/png'];
    // A responder, not a queued step: a retried call (a transport hiccup under load) gets the same answer.
    stub.respond((r) => (r.lastUserText.includes('what is in it?') ? reply.text('I see a picture.') : reply.text(`[stub] ${r.lastUserText}`)));
    await page.setInputFiles(id('chat-file'), { name: png.fileName, mimeType: 'image/png', buffer: png.bytes });
    await expect(page.textContent(id('chat-attachment'))).resolves.toContain('shot.png');
    await page.fill(id('chat-input'), 'what is in it?');
    await page.click(id('chat-send'));
    await waitForReply(page, 'I see a picture.');
    await page.waitForSelector(id('chat-attachment'), { state: 'detached' });
    await expect(page.locator(id('message-attachment')).last().textContent()).resolves.toContain('shot.png');
    const body = JSON.stringify(stub.requests.at(-1)!.body);
    expect(body).toContain(JSON.stringify({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.bytes.toString('base64') } }));
    expect(readdirSync(join(dir, 'workspace/attachments')).some((f) => f.endsWith('.png'))).toBe(true);

    // Anthropic carries no video: refused before anything is recorded or sent, the toast says why.
    browser.allowHttpError(400);
    const before = stub.count;
    const mp4 = SAMPLES['video/mp4'];
    await page.setInputFiles(id('chat-file'), { name: mp4.fileName, mimeType: 'video/mp4', buffer: mp4.bytes });
    await page.fill(id('chat-input'), 'and this clip?');
    await page.click(id('chat-send'));
    await page.waitForSelector('.toast:has-text("ATTACHMENT_NOT_CARRIED")');
    await expect(page.textContent('.toast:has-text("ATTACHMENT_NOT_CARRIED")')).resolves.toContain('video');
    expect(stub.count).toBe(before);
    await expect(page.locator(`${id('bubble-user')}:has-text("and this clip?")`).count()).resolves.toBe(0);
    await page.close();
  }, 90_000);

  it('after a page reload the chat shows a sent picture again, and its link serves the stored bytes', async () => {
    const { page } = await open();
    // A real 1×1 PNG, so the browser can decode what the chat shows.
    const dot = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    stub.respond(() => reply.text('Got the dot.'));
    await page.setInputFiles(id('chat-file'), { name: 'dot.png', mimeType: 'image/png', buffer: dot });
    await page.fill(id('chat-input'), 'keep this dot');
    await page.click(id('chat-send'));
    await waitForReply(page, 'Got the dot.');

    await page.reload();
    await page.click(`${id('agent-card-alice')} .card-name`);
    const chip = page.locator(`${id('bubble-user')}:has-text("keep this dot") ${id('message-attachment')}`);
    await expect(chip.textContent()).resolves.toContain('dot.png');
    // The picture itself is shown again: loaded and decoded from the stored body.
    // Polled from here (page.evaluate): the page's CSP forbids the string predicates waitForFunction re-evaluates.
    const decoded = `(() => {
      const img = [...document.querySelectorAll('[data-testid="message-attachment-image"]')].find((i) => i.alt === 'dot.png');
      return img !== undefined && img.complete && img.naturalWidth === 1;
    })()`;
    await until(async () => (await page.evaluate<boolean>(decoded)) === true, 'the sent picture decoded after the reload');
    const href = await chip.getAttribute('href');
    // The link names no credential: the page's session cookie loads it; a program needs the launch token.
    expect(href).toMatch(/^\/api\/attachments\/[0-9a-f-]{36}$/);
    const token = { 'x-fuseforks-token': gui.token };
    const served = await fetch(new URL(href!, gui.address), { headers: token });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(dot);
    expect((await fetch(new URL(href!, gui.address))).status).toBe(401);
    // An id that names no stored body is 404.
    expect((await fetch(new URL(`/api/attachments/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, gui.address), { headers: token })).status).toBe(404);
    await page.close();
  }, 90_000);

  it('the template dialog saves the stream switch, the effort and a provider\'s own search switch, and re-reads them', async () => {
    const { page } = await open();
    await page.click(id('open-templates'));
    await page.click(id('template-item-claude'));
    await page.selectOption(id('template-provider'), 'gemini');
    await page.check(id('template-flag-googleSearch'));
    await expect(page.locator(id('template-flag-xaiWebSearch')).count()).resolves.toBe(0);
    await page.uncheck(id('template-stream'));
    await page.selectOption(id('template-effort'), 'high');
    await page.click(id('template-save'));
    await page.waitForSelector(id('template-saved'));
    const world = JSON.parse(readFileSync(join(dir, 'workspace/world.json'), 'utf8')) as { modelTemplates: Array<Record<string, unknown>> };
    expect(world.modelTemplates.find((t) => t.id === 'claude')).toMatchObject({ provider: 'gemini', googleSearch: true, stream: false, effort: 'high' });
    await page.click(id('templates-close'));
    await openGui(page, gui.url);
    await page.click(id('open-templates'));
    await page.click(id('template-item-claude'));
    await expect(page.isChecked(id('template-flag-googleSearch'))).resolves.toBe(true);
    await expect(page.isChecked(id('template-stream'))).resolves.toBe(false);
    await expect(page.inputValue(id('template-effort'))).resolves.toBe('high');
    await page.close();
  }, 90_000);
});
