/**
 * Browser e2e: headless Debian Chromium (playwright-core, never a downloaded browser) against a real
 * `fuseforks-cli gui` child and the loopback stub LLM. One browser launch for the file; any page error or
 * console.error fails the test it happened in. Saves the main-screen screenshots (light/dark × en/ja) to
 * test-output/screenshots/ (docs/screenshots/ with UPDATE_SCREENSHOTS=1). Skipped, with the reason, when Chromium
 * is absent.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startStubLlm, type StubLlm } from '../support/stubLlm.js';
import { exampleVillage, startCli, Temps } from '../cli/support/cliProcess.js';
import { HAS_CHROMIUM, launchBrowser, openGui, ready, shotPath, until, type BrowserRun } from './support/browserSuite.js';
import { request, requireGuiBuild, startGui, type GuiChild } from './support/guiChild.js';


let browser: BrowserRun;
let stub: StubLlm;
let gui: GuiChild;
let dir: string;
const temps = new Temps();

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  requireGuiBuild();
  stub = await startStubLlm();
  dir = mkdtempSync(join(tmpdir(), 'ff-gui-e2e-'));
  gui = await startGui(dir);
  browser = await launchBrowser();
}, 180_000);

afterEach(() => browser?.assertClean());

afterAll(async () => {
  await browser?.close();
  await gui?.stop();
  await stub?.close();
  temps.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const id = (testId: string) => `[data-testid="${testId}"]`;

async function center(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = await page.locator(selector).boundingBox();
  if (box === null) throw new Error(`no box for ${selector}`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 10, from.y + 10, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

function worldOnDisk(): { topologyPositions: Record<string, { x: number; y: number }>; reception?: string; agents: Array<{ id: string; connectedAgents: string[] }> } {
  return JSON.parse(readFileSync(join(dir, 'workspace/world.json'), 'utf8'));
}

/** A promise the test resolves by hand: the stub holds a reply until the page has shown what the test checks. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.skipIf(!HAS_CHROMIUM)(`GUI in headless Chromium${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  it('designs a village, talks to it, stops a slow turn, and reloads to the same village', async () => {
    const page = await browser.page();
    await openGui(page, gui.url);
    await page.waitForSelector(id('agent-list-empty'));

    // A model template pointing at the stub, no authentication.
    await page.click(id('open-templates'));
    await page.click(id('template-add'));
    await page.fill(id('template-id'), 'stub');
    await page.fill(id('template-name'), 'Stub model');
    await page.selectOption(id('template-provider'), 'open_ai_compat');
    await page.fill(id('template-base-url'), stub.baseUrl);
    await page.fill(id('template-model'), 'stub-model');
    await page.check(id('template-no-auth'));
    await page.click(id('template-save'));
    await page.waitForSelector(id('template-saved'));
    await expect(page.locator(id('template-id')).isDisabled()).resolves.toBe(true);
    await page.click(id('templates-close'));

    // Two servants.
    for (const name of ['Alice', 'Bob']) {
      await page.click(id('add-agent'));
      await page.fill(id('add-agent-name'), name);
      await page.click(id('add-agent-create'));
      await page.waitForSelector(id(`agent-card-${name.toLowerCase()}`));
      // The node is pinned on free space right after the create.
      await until(() => worldOnDisk().topologyPositions[name.toLowerCase()] !== undefined, `${name} is placed`);
    }

    // Tie Alice → Bob by dragging Alice's card onto Bob's Kizuna node.
    await drag(page, await center(page, `${id('agent-card-alice')} .card-name`), await center(page, id('kizuna-node-bob')));
    await page.waitForSelector(id('kizuna-edge-alice-bob'), { state: 'attached' });
    await expect(page.textContent(id('ties-alice'))).resolves.toBe('1');
    expect(worldOnDisk().agents.find((a) => a.id === 'alice')?.connectedAgents).toEqual(['bob']);

    // Move Bob's node: the new position is saved (a new servant is pinned on free space when created).
    const placed = worldOnDisk().topologyPositions.bob;
    const bob = await center(page, id('kizuna-node-bob'));
    await drag(page, bob, { x: bob.x - 120, y: bob.y + 40 });
    await until(() => JSON.stringify(worldOnDisk().topologyPositions.bob) !== JSON.stringify(placed), 'the dragged position is saved');
    const saved = worldOnDisk().topologyPositions.bob!;

    // Reception.
    await page.click(id('open-village'));
    await page.selectOption(id('reception-select'), 'alice');
    await until(() => worldOnDisk().reception === 'alice');
    await page.click(id('village-close'));

    // Start both with batch ▶.
    await page.click(id('batch-start'));
    await page.waitForSelector(`${id('status-alice')}[data-status="running"]`);
    await page.waitForSelector(`${id('status-bob')}[data-status="running"]`);

    // Talk to Alice: typing indicator comes (the stub holds the reply until the page shows it), the answer
    // bubble (Markdown) arrives, typing goes. No time window: the test opens the gate itself.
    const held = gate();
    stub.respond(async () => {
      await held.opened;
      return reply.text('**Hello** from the stub');
    });
    await page.click(`${id('agent-card-alice')} .card-name`);
    await page.fill(id('chat-input'), 'hi Alice');
    await page.press(id('chat-input'), 'Enter');
    await page.waitForSelector(id('typing-alice'));
    held.open();
    await page.waitForSelector(`${id('bubble-agent')} strong:text("Hello")`);
    stub.respond(null);
    await page.waitForSelector(id('typing-alice'), { state: 'detached' });
    await expect(page.locator(id('bubble-user')).first().textContent()).resolves.toContain('hi Alice');

    // Screenshots of the main screen: light/dark × en/ja.
    for (const lang of ['en', 'ja'] as const) {
      await page.selectOption(id('lang-toggle'), lang);
      for (const theme of ['light', 'dark'] as const) {
        if ((await page.evaluate<string | undefined>('document.documentElement.dataset.theme')) !== theme) await page.click(id('theme-toggle'));
        await page.screenshot({ path: shotPath(`main-${theme}-${lang}.png`) });
      }
    }
    await page.selectOption(id('lang-toggle'), 'en');

    // A slow turn, cut by "Stop all turns".
    stub.enqueue(reply.hang());
    await page.fill(id('chat-input'), 'take your time');
    await page.press(id('chat-input'), 'Enter');
    await page.waitForSelector(id('typing-alice'));
    await page.click(id('stop-all'));
    await page.waitForSelector(id('typing-alice'), { state: 'detached' });

    // Plan review: Alice (planReview) plans a wave for Bob and Carol; the pane shows both tasks; Reject with a note.
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await request(gui.port, method, path, { headers: { 'x-fuseforks-token': gui.token, origin: `http://127.0.0.1:${gui.port}` }, body });
      expect(res.status, `${method} ${path}`).toBe(200);
      return res.body as { world: { agents: Array<{ id: string }> } };
    };
    // Each API step waits until the page shows its outcome: a status the page still shows from before a
    // stop/start (its events not applied yet on a busy machine) would let the message below go to an agent the
    // page then sees stopping, and the chat refuses to send to it.
    await api('POST', '/api/agents', { name: 'Carol' });
    await page.waitForSelector(id('agent-card-carol'));
    await api('PUT', '/api/agents/alice/ties', { targets: ['bob', 'carol'] });
    const alice = (await api('GET', '/api/state')).world.agents.find((a) => a.id === 'alice');
    await api('PUT', '/api/agents/alice', { spec: { ...alice, planReview: true } });
    await api('POST', '/api/agents/alice/stop');
    await page.waitForSelector(`${id('status-alice')}[data-status="idle"]`);
    await api('POST', '/api/agents/alice/start');
    await api('POST', '/api/agents/carol/start');
    await page.waitForSelector(`${id('status-carol')}[data-status="running"]`);
    stub.reset();
    // The wave answers Alice's first round for "count the fruit" only, whatever else may reach the stub first.
    const messagesOf = (r: { body: Record<string, unknown> | null }) => (r.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
    const firstRound = (r: { body: Record<string, unknown> | null }) =>
      JSON.stringify(messagesOf(r)).includes('count the fruit') && !messagesOf(r).some((m) => m.role === 'tool');
    stub.enqueue(reply.tool('plan', { tasks: [{ to: 'bob', message: 'Bob: count the apples' }, { to: 'carol', message: 'Carol: count the pears' }] }), firstRound);
    stub.respond((r) => {
      const results = ((r.body?.messages ?? []) as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'tool');
      return reply.text(`Plan answer: ${results.map((m) => String(m.content)).join(' ')}`);
    });
    await page.waitForSelector(`${id('status-alice')}[data-status="running"]`);
    await page.click(`${id('agent-card-alice')} .card-name`);
    await page.fill(id('chat-input'), 'count the fruit');
    await page.press(id('chat-input'), 'Enter');
    await page.waitForSelector(`${id('bubble-user')}:has-text("count the fruit")`);
    await page.waitForSelector(id('plan-reviews')).catch((error: unknown) => {
      // Which requests the stub saw (roles and the last message's start), to tell a lost send from a stray request.
      const seen = stub.requests.map((r) => messagesOf(r).map((m) => `${m.role}:${JSON.stringify(m.content).slice(0, 40)}`).slice(-2).join(' | '));
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nstub requests: ${JSON.stringify(seen)}`);
    });
    await expect(page.locator(id('plan-review-task')).count()).resolves.toBe(2);
    await expect(page.textContent(id('plan-reviews'))).resolves.toContain('Bob: count the apples');
    await expect(page.textContent(id('plan-reviews'))).resolves.toContain('Carol: count the pears');
    await page.screenshot({ path: shotPath('plan-review-dark-en.png') });
    await page.locator('[data-testid^="plan-review-note-"]').fill('only the apples, please');
    await page.locator('[data-testid^="plan-review-reject-"]').click();
    await page.waitForSelector(id('plan-reviews'), { state: 'detached' });
    await page.waitForSelector(`${id('bubble-agent')}:has-text("only the apples, please")`);
    // Only Alice's two rounds reached the LLM: Bob and Carol got no request.
    expect(stub.count).toBe(2);

    // Reload: same village, position included.
    await page.reload();
    await ready(page);
    await page.waitForSelector(id('kizuna-edge-alice-bob'), { state: 'attached' });
    const transform = await page.getAttribute(id('kizuna-node-bob'), 'transform');
    expect(transform).toBe(`translate(${saved.x} ${saved.y})`);
    await expect(page.textContent(id('agent-card-alice'))).resolves.toContain('Reception');
    await page.waitForSelector(`${id('status-alice')}[data-status="running"]`);
    await page.close();
  }, 240_000);

  it('a village held by `serve` shows the lock message on the boot overlay; the serve log gains no line', async () => {
    const held = exampleVillage(temps);
    const serve = startCli(['serve', '--data-dir', held, '--start', 'batch']);
    await serve.stderrLine((line) => line.includes('[SERVING]'));
    const log = join(held, 'workspace/fuseforks.log');
    const before = readFileSync(log, 'utf8');
    const second = await startGui(held);
    try {
      const page = await browser.page();
      await page.goto(second.url);
      await page.waitForSelector(id('boot-failed'));
      await expect(page.textContent(id('boot-error'))).resolves.toContain('LOCK_HELD');
      await expect(page.textContent(id('boot-error'))).resolves.toContain('open in another process');
      await page.close();
    } finally {
      await second.stop();
      serve.child.kill('SIGTERM');
      await serve.done;
    }
    // The serve process's own shutdown appends lines; none may come from the refused GUI launch.
    const after = readFileSync(log, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).not.toContain('"version"');
  }, 90_000);
});
