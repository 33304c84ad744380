/**
 * The chat as a person uses it, in headless Chromium against a real `fuseforks-cli gui` and the loopback stub:
 * a streamed reply grows in the chat piece by piece (watched by a MutationObserver, not by timing), thinking is
 * shown as thinking, a file is attached and reaches the model, a kind the wire cannot carry is refused with the
 * reason, and the template dialog's streaming and provider switches are saved and re-read. Fails on any page
 * error or console error.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startStubLlm, type StubLlm } from '../support/stubLlm.js';
import { SAMPLES } from '../support/attachmentSamples.js';
import { request, requireGuiBuild, startGui, type GuiChild } from './support/guiChild.js';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);

let browser: BrowserContext;
let stub: StubLlm;
let gui: GuiChild;
let dir: string;
let profile: string;

const id = (testId: string) => `[data-testid="${testId}"]`;

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await request(gui.port, method, path, { headers: { 'x-fuseforks-token': gui.token, origin: `http://127.0.0.1:${gui.port}` }, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  requireGuiBuild();
  stub = await startStubLlm();
  dir = mkdtempSync(join(tmpdir(), 'ff-gui-stream-'));
  profile = mkdtempSync(join(tmpdir(), 'ff-chromium-'));
  gui = await startGui(dir);
  for (;;) {
    const boot = await request(gui.port, 'GET', '/api/boot', { headers: { 'x-fuseforks-token': gui.token } });
    if ((boot.body as { state: string }).state !== 'booting') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const template = { id: 'claude', name: 'Claude (stub)', provider: 'anthropic', baseUrl: stub.baseUrl, model: 'claude-sonnet-5', credential: 'not_required', stream: true };
  await api('PUT', '/api/templates', { template });
  await api('POST', '/api/agents', { name: 'Alice' });
  await api('POST', '/api/agents/alice/start');
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 860 },
    locale: 'en-US',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await gui?.stop();
  await stub?.close();
  for (const d of [dir, profile]) if (d) rmSync(d, { recursive: true, force: true });
});

/** Opens the app in English and collects every page error and console error. */
async function open(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() === 404) errors.push(`404: ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  await page.goto(gui.url);
  await page.evaluate("localStorage.setItem('fuseforks.lang', 'en')");
  await page.reload();
  await page.waitForSelector(id('main'));
  await page.waitForSelector(id('boot-overlay'), { state: 'detached' });
  await page.click(`${id('agent-card-alice')} .card-name`);
  await page.waitForSelector(`${id('status-alice')}[data-status="running"]`);
  return { page, errors };
}

const ANSWER = 'Streaming works: this reply arrives in small pieces, and the chat shows each one as it comes in, so a person sees it grow.';

describe.skipIf(!HAS_CHROMIUM)(`chat streaming and attachments in headless Chromium${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  it('shows the reply growing as it streams, thinking apart, then the finished bubble', async () => {
    const { page, errors } = await open();
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
    await page.waitForSelector(`${id('bubble-agent')}:has-text("so a person sees it grow")`);
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
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('attaches a file that reaches the model before the text; a kind the wire cannot carry is refused with the reason', async () => {
    const { page, errors } = await open();
    const png = SAMPLES['image/png'];
    stub.enqueue(reply.text('I see a picture.'));
    await page.setInputFiles(id('chat-file'), { name: png.fileName, mimeType: 'image/png', buffer: png.bytes });
    await expect(page.textContent(id('chat-attachment'))).resolves.toContain('shot.png');
    await page.fill(id('chat-input'), 'what is in it?');
    await page.click(id('chat-send'));
    await page.waitForSelector(`${id('bubble-agent')}:has-text("I see a picture.")`);
    await page.waitForSelector(id('chat-attachment'), { state: 'detached' });
    await expect(page.locator(id('message-attachment')).last().textContent()).resolves.toContain('shot.png');
    const body = JSON.stringify(stub.requests.at(-1)!.body);
    expect(body).toContain(JSON.stringify({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.bytes.toString('base64') } }));
    expect(readdirSync(join(dir, 'workspace/attachments')).some((f) => f.endsWith('.png'))).toBe(true);

    // Anthropic carries no video: refused before anything is recorded or sent, the toast says why.
    const before = stub.count;
    const mp4 = SAMPLES['video/mp4'];
    await page.setInputFiles(id('chat-file'), { name: mp4.fileName, mimeType: 'video/mp4', buffer: mp4.bytes });
    await page.fill(id('chat-input'), 'and this clip?');
    await page.click(id('chat-send'));
    await page.waitForSelector('.toast:has-text("ATTACHMENT_NOT_CARRIED")');
    await expect(page.textContent('.toast:has-text("ATTACHMENT_NOT_CARRIED")')).resolves.toContain('video');
    expect(stub.count).toBe(before);
    await expect(page.locator(`${id('bubble-user')}:has-text("and this clip?")`).count()).resolves.toBe(0);
    // The refused request is the one failed load the browser reports; nothing else went wrong.
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await page.close();
  }, 90_000);

  it('the template dialog saves the stream switch, the effort and a provider\'s own search switch, and re-reads them', async () => {
    const { page, errors } = await open();
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
    await page.reload();
    await page.waitForSelector(id('main'));
    await page.click(id('open-templates'));
    await page.click(id('template-item-claude'));
    await expect(page.isChecked(id('template-flag-googleSearch'))).resolves.toBe(true);
    await expect(page.isChecked(id('template-stream'))).resolves.toBe(false);
    await expect(page.inputValue(id('template-effort'))).resolves.toBe('high');
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);
});
