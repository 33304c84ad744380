/**
 * The Kizuna map's hover panel in headless Chromium against a real `fuseforks-cli gui` (the offline echo model):
 * hovering a node shows the servant's model template, status, offered tools and last activity; keyboard focus
 * (Tab) shows it too and Enter selects the servant; a tool change saved in the settings dialog and a started,
 * answered servant show up in the panel, also after a reload. Fails on any page error or console.error.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, PAGE_CHECKS, ready, tid, until } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

const suite = useGuiSuite({
  village: 'empty',
  async setUp({ api }) {
    await api('PUT', '/api/templates', { template: { id: 'offline', name: 'Offline echo', model: 'echo-1', credential: 'not_required', provider: 'echo' } });
    await api('POST', '/api/agents', { name: 'Alice', modelTemplateId: 'offline' });
    await api('POST', '/api/agents', { name: 'Bob', modelTemplateId: 'offline' });
    const state = await api<{ world: { agents: Array<{ id: string }> } }>('GET', '/api/state');
    const alice = state.world.agents.find((a) => a.id === 'alice')!;
    await api('PUT', '/api/agents/alice', { spec: { ...alice, enabledTools: ['grep', 'remember'] } });
  },
});
let page: Page;
beforeAll(() => {
  ({ page } = suite);
});

const hud = tid('kizuna-hud');
const hudText = (part: string) => page.textContent(tid(`kizuna-hud-${part}`));

describe.skipIf(!HAS_CHROMIUM)(`Kizuna hover panel in headless Chromium${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  it('hover and keyboard focus show model, status, tools and last activity; edits and activity show up, also after a reload', async () => {
    await page.hover(tid('kizuna-node-alice'));
    await expect(page.getAttribute(hud, 'data-agent')).resolves.toBe('alice');
    await expect(hudText('model')).resolves.toBe('Offline echo · echo-1');
    await expect(hudText('status')).resolves.toBe('Idle');
    await expect(hudText('tools')).resolves.toBe('grep, remember');
    await expect(hudText('last')).resolves.toBe('nothing since this page opened');
    await page.mouse.move(2, 2);
    await page.waitForSelector(hud, { state: 'detached' });

    // Keyboard: focus a node, Tab to the next; the panel follows the focus; Enter selects.
    await page.focus(tid('kizuna-node-alice'));
    await expect(page.getAttribute(hud, 'data-agent')).resolves.toBe('alice');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(PAGE_CHECKS.focused)).resolves.toBe('kizuna-node-bob|g');
    await expect(page.getAttribute(hud, 'data-agent')).resolves.toBe('bob');
    await expect(hudText('tools')).resolves.toContain('(default set)');
    await expect(page.getAttribute(tid('kizuna-node-bob'), 'aria-describedby')).resolves.toBe('kizuna-hud');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${tid('agent-card-bob')}.selected`);

    // Edit Alice's tools in the settings dialog; the panel shows the saved set.
    await page.click(tid('settings-alice'));
    await page.click(tid('settings-tool-remember'));
    await page.click(tid('settings-save'));
    await page.waitForSelector(tid('settings-unsaved'), { state: 'detached' });
    await page.click(tid('settings-close'));
    await page.hover(tid('kizuna-node-alice'));
    await until(async () => (await hudText('tools')) === 'grep', 'the saved tools in the panel');

    // Start Alice and talk to her: status and last activity follow.
    await page.click(tid('power-alice'));
    await page.waitForSelector(`${tid('status-alice')}[data-status="running"]`);
    await suite.api('POST', '/api/messages', { to: 'alice', text: 'hello from the test' });
    await page.waitForSelector(tid('bubble-agent'));
    await page.mouse.move(2, 2);
    await page.hover(tid('kizuna-node-alice'));
    await expect(hudText('status')).resolves.toBe('Running');
    await expect(hudText('last')).resolves.toMatch(/^\d\d:\d\d:\d\d sent a message$/);

    await page.reload();
    await ready(page);
    await page.hover(tid('kizuna-node-alice'));
    await expect(hudText('tools')).resolves.toBe('grep');
    await expect(hudText('status')).resolves.toBe('Running');
    await expect(hudText('last')).resolves.toMatch(/sent a message$/);
  }, 120_000);
});
