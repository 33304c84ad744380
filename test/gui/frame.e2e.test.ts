/**
 * The main screen's frame in real Chromium: the work-status grid of plan waves (a task shown running while its
 * servant is still answering, then every task's outcome), the status bar (servants running, tokens, the door's
 * state, opening the door panel), a per-region error boundary (a panel that cannot render shows why and the rest
 * keeps working; Re-render brings it back) and the splitters (drag, arrow keys, double-click reset; sizes kept per
 * device across a reload), and Alt+↑/↓ servant selection. Any page error or console.error fails the test it happened in.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/freePort.js';
import { reply, type StubLlm } from '../support/stubLlm.js';
import { clearToasts, HAS_CHROMIUM, ready, shotPath, tid, until } from './support/browserSuite.js';
import { stubTemplate, useGuiSuite } from './support/guiSuite.js';

// One template per servant so the stub can tell their requests apart by model.
const suite = useGuiSuite({
  village: 'empty',
  stub: true,
  async setUp({ api, stub }) {
    const template = (id: string) => stubTemplate(stub.baseUrl, id, `${id}-model`);
    for (const name of ['Alice', 'Bob', 'Carol']) {
      await api('PUT', '/api/templates', { template: template(name.toLowerCase()) });
      await api('POST', '/api/agents', { name, modelTemplateId: name.toLowerCase() });
    }
    await api('PUT', '/api/agents/alice/ties', { targets: ['bob', 'carol'] });
  },
});
let page: Page;
let stub: StubLlm;
beforeAll(() => {
  ({ page, stub } = suite);
});

const box = async (testid: string) => {
  const b = await page.locator(tid(testid)).boundingBox();
  if (b === null) throw new Error(`${testid} has no box`);
  return b;
};

/** A promise the test opens by hand: the stub holds Bob's answer until the grid has shown his task running. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.skipIf(!HAS_CHROMIUM)('the main screen frame in headless Chromium', () => {
  it('the work status shows each wave: a task running until its servant answers, then every outcome', async () => {
    await page.waitForSelector(tid('plan-waves-empty'));
    // Every pane fits the window: a long title bar scrolls on its own instead of pushing the chat off screen.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
    expect((await box('region-chat')).x + (await box('region-chat')).width).toBeLessThanOrEqual(1440);
    expect((await box('status-bar')).y + (await box('status-bar')).height).toBeLessThanOrEqual(880);
    await page.click(tid('batch-start'));
    for (const id of ['alice', 'bob', 'carol']) await page.waitForSelector(`${tid(`status-${id}`)}[data-status="running"]`);
    await expect(page.textContent(tid('status-running'))).resolves.toContain('3 / 3 running');

    const bobHeld = gate();
    stub.enqueue(reply.tool('plan', { tasks: [{ to: 'bob', message: 'Bob: count the apples' }, { to: 'carol', message: 'Carol: count the pears' }] }), (r) => r.model === 'alice-model');
    stub.respond(async (r) => {
      if (r.model === 'bob-model') {
        await bobHeld.opened;
        return reply.text('three apples');
      }
      if (r.model === 'carol-model') return reply.text('two pears');
      return reply.text('Alice: all counted');
    });
    await page.click(`${tid('agent-card-alice')} .card-name`);
    await page.fill(tid('chat-input'), 'count the fruit');
    await page.press(tid('chat-input'), 'Enter');

    // Carol has answered, Bob is still at it: the grid says so, cell by cell.
    const head = page.locator('[data-testid^="plan-wave-head-"]');
    await head.first().waitFor();
    const planId = ((await head.first().getAttribute('data-testid')) ?? '').replace('plan-wave-head-', '');
    const cell = (id: string) => tid(`plan-wave-cell-${planId}-${id}`);
    await page.waitForSelector(`${cell('carol')} [data-state="answered"]`);
    await page.waitForSelector(`${cell('bob')} [data-state="running"]`);
    await expect(page.textContent(cell('alice'))).resolves.toBe('');
    await expect(head.first().textContent()).resolves.toContain('Wave 1');
    await expect(head.first().textContent()).resolves.toContain('Alice');
    bobHeld.open();
    await page.waitForSelector(`${cell('bob')} [data-state="answered"]`);
    await page.waitForSelector(`${'[data-testid="bubble-agent"]'}:has-text("Alice: all counted")`);
    // The header's tooltip carries the bundle size once the wave finished.
    await until(async () => /\d+ characters handed back/.test((await head.first().getAttribute('title')) ?? ''), 'the finished wave header');
    await expect(page.getAttribute(`${cell('carol')} [data-state]`, 'title')).resolves.toMatch(/^answered: 22-character request, \d+\.\d s$/);
    stub.respond(null);

    // The status bar adds up the tokens the servants reported.
    await until(async () => !/^0 tokens$/.test(((await page.textContent(tid('status-tokens'))) ?? '').trim()), 'tokens in the status bar');

    // A reload reads the same waves from the host.
    await page.reload();
    await ready(page);
    await page.waitForSelector(`${cell('bob')} [data-state="answered"]`);
    await until(async () => !/^0 tokens$/.test(((await page.textContent(tid('status-tokens'))) ?? '').trim()), 'tokens after a reload');
    await clearToasts(page).catch(() => undefined);
    await page.screenshot({ path: shotPath('work-status-en.png') });
    await page.selectOption(tid('lang-toggle'), 'ja');
    await expect(head.first().textContent()).resolves.toContain('ウェーブ 1');
    await expect(page.textContent(`${cell('bob')} [data-state]`)).resolves.toBe('回答済み');
    await page.screenshot({ path: shotPath('work-status-ja.png') });
    await page.selectOption(tid('lang-toggle'), 'en');
  }, 120_000);

  it('the status bar shows the door and opens its panel; switched on, it says where the door listens', async () => {
    await page.waitForSelector(`${tid('status-door')}[data-state="off"]`);
    await page.click(tid('status-door'));
    await page.waitForSelector(tid('door-panel'));
    const port = await freePort();
    await page.fill(tid('door-port'), String(port));
    await page.click(tid('door-port-apply'));
    await page.click(tid('door-switch'));
    await page.waitForSelector(`${tid('door-state')}[data-listening="true"]`);
    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('door-panel'), { state: 'detached' });
    await page.waitForSelector(`${tid('status-door')}[data-state="listening"]`);
    await expect(page.textContent(tid('status-door'))).resolves.toContain(`listening :${port}`);
    // A reload reads the door from the host again.
    await page.reload();
    await ready(page);
    await page.waitForSelector(`${tid('status-door')}[data-state="listening"]`);
    await page.click(tid('status-door'));
    await page.click(tid('door-switch'));
    await page.waitForSelector(`${tid('door-state')}[data-listening="false"]`);
    await page.keyboard.press('Escape');
    await page.waitForSelector(`${tid('status-door')}[data-state="off"]`);
    await expect(page.textContent(tid('status-clock'))).resolves.toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  }, 60_000);

  it('a panel that cannot render shows its error; the other panels keep working; Re-render brings it back', async () => {
    // The host's answer is bent on its way to the page so that one wave has no task list: only the work-status
    // panel reads it.
    const isState = (url: URL): boolean => url.pathname === '/api/state';
    await page.route(
      isState,
      async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { planWaves: unknown[] };
        body.planWaves = [...body.planWaves, { planId: 999, agentId: 'alice', wave: 1, startedAtMs: 0, tasks: null, bundleChars: null, elapsedMs: null }];
        await route.fulfill({ response: res, json: body });
      },
    );
    await page.reload();
    await ready(page);
    await page.waitForSelector(tid('region-failed-work'));
    await expect(page.textContent(tid('region-error-work'))).resolves.toContain('TypeError');
    await expect(page.textContent(tid('region-failed-work'))).resolves.toContain('Failed to render: Work status');
    // The rest works: the map, the list, a message answered in the chat.
    await page.waitForSelector(tid('kizuna-node-alice'));
    await page.click(`${tid('agent-card-alice')} .card-name`);
    await page.fill(tid('chat-input'), 'still here?');
    await page.press(tid('chat-input'), 'Enter');
    await page.waitForSelector(`${tid('bubble-agent')}:has-text("still here?")`);
    await expect(page.locator('[data-testid^="region-failed-"]').count()).resolves.toBe(1);

    await page.unroute(isState);
    await page.click(tid('region-rerender-work'));
    await page.waitForSelector(tid('region-failed-work'), { state: 'detached' });
    await page.waitForSelector('[data-testid^="plan-wave-head-"]');
  }, 60_000);

  it('Alt+↓ / Alt+↑ move the selected servant, even from the chat input; not while a dialog is open', async () => {
    await page.click(`${tid('agent-card-alice')} .card-name`);
    await page.waitForSelector(`${tid('agent-card-alice')}.selected`);
    await page.focus(tid('chat-input'));
    await page.keyboard.press('Alt+ArrowDown');
    await page.waitForSelector(`${tid('agent-card-bob')}.selected`);
    await expect(page.getAttribute(tid('chat-input'), 'aria-label')).resolves.toContain('Bob');
    await page.keyboard.press('Alt+ArrowDown');
    await page.keyboard.press('Alt+ArrowDown');
    await page.waitForSelector(`${tid('agent-card-carol')}.selected`);
    await page.keyboard.press('Alt+ArrowUp');
    await page.waitForSelector(`${tid('agent-card-bob')}.selected`);
    // (A dialog whose first field is a text box: Alt+↑ on a focused <select> opens its own list.)
    await page.click(tid('open-settings'));
    await page.waitForSelector(tid('settings-dialog'));
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('settings-dialog'), { state: 'detached' });
    await page.waitForSelector(`${tid('agent-card-bob')}.selected`);
  }, 60_000);

  it('splitters resize the panes by drag and arrow keys, double-click resets, and the sizes survive a reload', async () => {
    const left0 = (await box('region-servants')).width;
    const chat0 = (await box('region-chat')).width;
    const work0 = (await box('region-work')).height;
    const splitter = await box('splitter-left');
    const x = splitter.x + splitter.width / 2;
    const y = splitter.y + splitter.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 40, y, { steps: 4 });
    await page.mouse.move(x + 100, y, { steps: 4 });
    await page.mouse.up();
    await until(async () => Math.abs((await box('region-servants')).width - (left0 + 100)) <= 2, 'the list is 100 px wider');

    await page.focus(tid('splitter-bottom'));
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await until(async () => Math.abs((await box('region-work')).height - (work0 + 32)) <= 2, 'the work status is 32 px taller');
    await page.focus(tid('splitter-right'));
    await page.keyboard.press('Shift+ArrowLeft');
    await until(async () => Math.abs((await box('region-chat')).width - (chat0 + 64)) <= 2, 'the chat is 64 px wider');

    const stored = JSON.parse((await page.evaluate<string | null>("localStorage.getItem('fuseforks.layout.v1')")) ?? 'null') as Record<string, number>;
    expect(stored).toEqual({ left: 420, right: 464, bottom: 202 });
    await page.reload();
    await ready(page);
    expect(Math.abs((await box('region-servants')).width - (left0 + 100))).toBeLessThanOrEqual(2);
    expect(Math.abs((await box('region-work')).height - (work0 + 32))).toBeLessThanOrEqual(2);
    await expect(page.getAttribute(tid('splitter-left'), 'aria-valuenow')).resolves.toBe('420');

    await page.dblclick(tid('splitter-left'));
    await until(async () => Math.abs((await box('region-servants')).width - left0) <= 2, 'the list is back to its default width');
    await page.dblclick(tid('splitter-bottom'));
    await page.dblclick(tid('splitter-right'));
    await until(async () => Math.abs((await box('region-chat')).width - chat0) <= 2, 'the chat is back to its default width');
    expect(JSON.parse((await page.evaluate<string | null>("localStorage.getItem('fuseforks.layout.v1')")) ?? 'null')).toEqual({ left: 320, right: 400, bottom: 170 });
  }, 60_000);
});
