/**
 * The basics of every screen in real Chromium: every dialog opens (the ⚙ panel for every servant), takes the
 * focus on its first field, closes with Escape (a confirm above a dialog first); every control is labelled and no
 * placeholder is cut off, in English and Japanese; and the Kizuna map zooms, pans, fits (in and out), places a
 * new servant on free space, keeps ties off the name labels and lights the tie that carries a delegation until
 * the answer comes back. Any page error or console.error fails the test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, type StubLlm } from '../support/stubLlm.js';
import { HAS_CHROMIUM, PAGE_CHECKS, shotPath, tid, until } from './support/browserSuite.js';
import { stubTemplate, useGuiSuite } from './support/guiSuite.js';

// One village for the file: two templates (so the stub can tell Alice's requests from Bob's), three servants.
const suite = useGuiSuite({
  village: 'empty',
  stub: true,
  async setUp({ api, stub }) {
    const template = (id: string, model: string) => stubTemplate(stub.baseUrl, id, model);
    await api('PUT', '/api/templates', { template: template('stub', 'alice-model') });
    await api('PUT', '/api/templates', { template: template('stub-b', 'bob-model') });
    await api('POST', '/api/agents', { name: 'Alice', modelTemplateId: 'stub' });
    await api('POST', '/api/agents', { name: 'Bob', modelTemplateId: 'stub-b' });
    await api('POST', '/api/agents', { name: 'Carol the long-named', modelTemplateId: 'stub' });
    await api('PUT', '/api/agents/alice/ties', { targets: ['bob'] });
    await api('PUT', '/api/agents/bob/ties', { targets: ['carol_the_long-named'] });
  },
});
let page: Page;
let stub: StubLlm;
let dir: string;
let api: typeof suite.api;
beforeAll(() => {
  ({ page, stub, dir, api } = suite);
});

const DIALOGS: Array<[opener: string, dialog: string]> = [
  ['open-templates', 'templates-dialog'],
  ['open-village', 'village-dialog'],
  ['open-schedules', 'schedules-dialog'],
  ['open-mcp', 'mcp-dialog'],
  ['open-sessions', 'sessions-dialog'],
  ['open-ordinance', 'ordinance-dialog'],
  ['open-roles', 'roles-dialog'],
  ['open-approvals', 'approvals-dialog'],
  ['open-settings', 'settings-dialog'],
  ['open-door', 'door-panel'],
  ['open-jev', 'jev-dialog'],
  // The stats take the place of the panes (status bar toggle) and close with Escape like a dialog.
  ['open-stats', 'stats-view'],
  // The status bar's door button opens the same panel as the title bar's.
  ['status-door', 'door-panel'],
];

async function expectFocusIn(dialog: string): Promise<void> {
  const inside = await page.evaluate<boolean>(`!!document.activeElement?.closest('[data-testid="${dialog}"]')`);
  expect(inside, `${dialog} holds the focus`).toBe(true);
}

async function expectLabelledAndUnclipped(where: string): Promise<void> {
  expect(await page.evaluate<string[]>(PAGE_CHECKS.unlabelled), `${where}: unlabelled controls`).toEqual([]);
  expect(await page.evaluate<string[]>(PAGE_CHECKS.clippedPlaceholders), `${where}: clipped placeholders`).toEqual([]);
}

type Box = { x: number; y: number; w: number; h: number };
async function viewOf(): Promise<Box> {
  const [x, y, w, h] = ((await page.getAttribute(tid('kizuna-svg'), 'data-view')) ?? '').split(' ').map(Number);
  return { x: x!, y: y!, w: w!, h: h! };
}

describe.skipIf(!HAS_CHROMIUM)('screen basics in headless Chromium', () => {
  it('every dialog and the ⚙ panel of every servant opens focused, is labelled, and closes with Escape (en, ja)', async () => {
    for (const lang of ['en', 'ja'] as const) {
      await page.selectOption(tid('lang-toggle'), lang);
      await expectLabelledAndUnclipped(`main screen (${lang})`);
      for (const [opener, dialog] of DIALOGS) {
        await page.click(tid(opener));
        await page.waitForSelector(tid(dialog));
        await expectFocusIn(dialog);
        await expectLabelledAndUnclipped(`${dialog} (${lang})`);
        await page.keyboard.press('Escape');
        await page.waitForSelector(tid(dialog), { state: 'detached' });
      }
      for (const id of ['alice', 'bob', 'carol_the_long-named']) {
        await page.click(tid(`settings-${id}`));
        await page.waitForSelector(tid('agent-settings'));
        await expect(page.inputValue(tid('settings-name'))).resolves.not.toBe('');
        expect(await page.evaluate<string>(PAGE_CHECKS.focused)).toBe('settings-name|input');
        await expectLabelledAndUnclipped(`agent settings ${id} (${lang})`);
        await page.keyboard.press('Escape');
        await page.waitForSelector(tid('agent-settings'), { state: 'detached' });
      }
    }
    await page.selectOption(tid('lang-toggle'), 'en');
  }, 90_000);

  it('Escape cancels the unsaved-changes confirm first, then the dialog; "+" focuses the name field', async () => {
    await page.click(tid('settings-alice'));
    await page.fill(tid('settings-name'), 'Alice edited');
    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('confirm'));
    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('confirm'), { state: 'detached' });
    await expect(page.inputValue(tid('settings-name'))).resolves.toBe('Alice edited');
    await page.keyboard.press('Escape');
    await page.click(tid('confirm-ok'));
    await page.waitForSelector(tid('agent-settings'), { state: 'detached' });

    await page.click(tid('add-agent'));
    expect(await page.evaluate<string>(PAGE_CHECKS.focused)).toBe('add-agent-name|input');
    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('add-agent-name'), { state: 'detached' });

    await page.click(tid('open-templates'));
    await page.click(tid('template-add'));
    expect(await page.evaluate<string>(PAGE_CHECKS.focused)).toBe('template-id|input');
    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('templates-dialog'), { state: 'detached' });
  }, 90_000);

  it('Kizuna zooms with the wheel, pans by dragging the background, and Fit zooms out and back in', async () => {
    await page.click(tid('kizuna-fit'));
    const fitted = await viewOf();
    // Four servants seeded near the centre take less room than the 800-pixel default canvas: Fit zooms in.
    expect(fitted.w).toBeLessThan(800);
    const svg = await page.locator(tid('kizuna-svg')).boundingBox();
    if (svg === null) throw new Error('no map');
    // An empty corner of the background.
    const at = { x: svg.x + 12, y: svg.y + 12 };
    await page.mouse.move(at.x, at.y);
    await page.mouse.wheel(0, -300);
    await until(async () => (await viewOf()).w < fitted.w * 0.8, 'wheel up zooms in');
    const zoomedIn = await viewOf();
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move(at.x + 120, at.y + 60, { steps: 6 });
    await page.mouse.up();
    const panned = await viewOf();
    expect(panned.w).toBeCloseTo(zoomedIn.w);
    expect(panned.x).toBeLessThan(zoomedIn.x);
    expect(panned.y).toBeLessThan(zoomedIn.y);
    // Fit from a close zoom zooms out to the fitted view ...
    await page.click(tid('kizuna-fit'));
    expect((await viewOf()).w).toBeCloseTo(fitted.w, 0);
    // ... and from far out zooms back in.
    await page.mouse.move(at.x, at.y);
    for (let i = 0; i < 4; i += 1) await page.mouse.wheel(0, 400);
    await until(async () => (await viewOf()).w > fitted.w * 3, 'wheel down zooms out');
    await page.click(tid('kizuna-fit'));
    expect((await viewOf()).w).toBeCloseTo(fitted.w, 0);
  }, 90_000);

  it('a new servant lands on free space, and no tie runs through a name label', async () => {
    await page.click(tid('add-agent'));
    await page.fill(tid('add-agent-name'), 'Dave');
    await page.click(tid('add-agent-create'));
    await page.waitForSelector(tid('kizuna-node-dave'));
    await until(() => JSON.parse(readFileSync(join(dir, 'workspace/world.json'), 'utf8')).topologyPositions.dave !== undefined, 'Dave is pinned');
    const overlaps = await page.evaluate<string[]>(`(() => {
      const svg = document.querySelector('[data-testid="kizuna-svg"]');
      const nodes = [...svg.querySelectorAll('[data-kizuna-node]')];
      const centre = (n) => { const m = /translate\\(([-\\d.]+) ([-\\d.]+)\\)/.exec(n.getAttribute('transform')); return { x: +m[1], y: +m[2] }; };
      const labelRect = (n) => { const b = n.querySelector('text[data-testid^="kizuna-label-"]').getBBox(); const c = centre(n); return { x: b.x + c.x, y: b.y + c.y, w: b.width, h: b.height }; };
      const bad = [];
      const dave = nodes.find((n) => n.getAttribute('data-kizuna-node') === 'dave');
      for (const n of nodes) {
        if (n === dave) continue;
        const a = centre(n), d = centre(dave);
        if (Math.hypot(a.x - d.x, a.y - d.y) < 60) bad.push('dave is on ' + n.getAttribute('data-kizuna-node'));
      }
      for (const path of svg.querySelectorAll('path.edge')) {
        const len = path.getTotalLength();
        for (const n of nodes) {
          const r = labelRect(n);
          for (let s = 0; s <= len; s += 2) {
            const p = path.getPointAtLength(s);
            if (p.x > r.x && p.x < r.x + r.w && p.y > r.y && p.y < r.y + r.h) { bad.push(path.parentNode.getAttribute('data-testid') + ' crosses the label of ' + n.getAttribute('data-kizuna-node')); break; }
          }
        }
      }
      return bad;
    })()`);
    expect(overlaps).toEqual([]);
  }, 90_000);

  it('the tie carrying a delegation is lit until the answer comes back', async () => {
    await api('POST', '/api/agents/alice/start');
    await api('POST', '/api/agents/bob/start');
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    stub.enqueue(reply.tool('ask_bob', { message: 'How many apples?' }), (r) => r.model === 'alice-model');
    stub.respond(async (r) => {
      if (r.model === 'bob-model') {
        await held;
        return reply.text('Forty-two apples.');
      }
      return reply.text('Bob says forty-two.');
    });
    await page.waitForSelector(`${tid('status-alice')}[data-status="running"]`);
    await page.click(`${tid('agent-card-alice')} .card-name`);
    await page.fill(tid('chat-input'), 'ask Bob about apples');
    await page.press(tid('chat-input'), 'Enter');
    await page.waitForSelector(`${tid('kizuna-edge-alice-bob')}[data-carrying="true"]`, { state: 'attached' });
    await expect(page.getAttribute(tid('kizuna-edge-bob-carol_the_long-named'), 'data-carrying')).resolves.toBe('false');
    // The map while the tie carries the question, in both languages (docs/screenshots with UPDATE_SCREENSHOTS=1).
    for (const lang of ['en', 'ja'] as const) {
      await page.selectOption(tid('lang-toggle'), lang);
      await page.locator(tid('kizuna')).screenshot({ path: shotPath(`kizuna-${lang}.png`) });
    }
    await page.selectOption(tid('lang-toggle'), 'en');
    release();
    await page.waitForSelector(`${tid('bubble-agent')}:has-text("Bob says forty-two.")`);
    await expect(page.getAttribute(tid('kizuna-edge-alice-bob'), 'data-carrying')).resolves.toBe('false');
    stub.respond(null);
  }, 90_000);
});
