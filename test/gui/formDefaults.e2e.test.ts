/**
 * Forms that must not mislead, in headless Chromium against a real `fuseforks-cli gui` on the example village:
 * the inspector refuses a work folder that does not exist (a message naming the folder and the fix; world.json
 * untouched, nothing else changes) and keeps one that does, across a reload; an Echo template is saved
 * without the OpenAI preset URL and with no key asked for, the wires are shown by name, never by raw id; Jev says
 * "not set up" while its URL and model are empty, "off" once switched off and saved, across a reload; the Add form
 * offers the village's roles, and the new servant's card shows its role and its whole name after a reload. Fails
 * on any page error or console.error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, ready, tid, until } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

const suite = useGuiSuite({ village: 'init' });
let page: Page;
beforeAll(() => {
  ({ page } = suite);
});

interface WorldFile {
  agents: Array<{ id: string; name: string; workDir: string | null; roleId: string | null }>;
  modelTemplates: Array<{ id: string; baseUrl: string; credential: string; provider: string | null }>;
}
const world = (): WorldFile => JSON.parse(readFileSync(join(suite.dir, 'workspace/world.json'), 'utf8')) as WorldFile;

async function openInspector(id: string): Promise<void> {
  await page.click(tid(`settings-${id}`));
  await page.waitForSelector(tid('settings-workdir'));
}

describe.skipIf(!HAS_CHROMIUM)(`forms that say what is true${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  it('the inspector refuses a work folder that does not exist and keeps one that does', async () => {
    const missing = join(suite.tempDir('ff-gui-wd-'), 'not-there');
    await openInspector('front');
    suite.browser.allowHttpError(400);
    await page.fill(tid('settings-workdir'), missing);
    await page.click(tid('settings-save'));
    const toast = page.locator('.toast.error', { hasText: 'does not exist' });
    await toast.waitFor();
    await expect(toast.textContent()).resolves.toContain(missing);
    await expect(toast.textContent()).resolves.toContain('Create the folder first');
    expect(world().agents.find((a) => a.id === 'front')!.workDir).toBeNull();
    // Still unsaved: the person can correct the path.
    await expect(page.isVisible(tid('settings-unsaved'))).resolves.toBe(true);

    const real = suite.tempDir('ff-gui-wd-real-');
    await page.fill(tid('settings-workdir'), `${real}/`);
    await page.click(tid('settings-save'));
    await until(() => world().agents.find((a) => a.id === 'front')!.workDir === real, 'the real folder stored (normalised)');
    await page.reload();
    await ready(page);
    await openInspector('front');
    await expect(page.inputValue(tid('settings-workdir'))).resolves.toBe(real);
    await page.click(tid('settings-x'));
  });

  it('an Echo template is saved without a URL or a key question; the wires read as names', async () => {
    await page.click(tid('open-templates'));
    await page.click(tid('template-add'));
    await page.fill(tid('template-id'), 'offline');
    await page.fill(tid('template-name'), 'Offline');
    const labels = await page.locator(`${tid('template-provider')} option`).allTextContents();
    expect(labels.some((l) => l.includes('_'))).toBe(false);
    expect(labels).toContain('OpenAI-compatible (Chat Completions)');
    await expect(page.inputValue(tid('template-base-url'))).resolves.toBe('https://api.openai.com/v1');
    await page.selectOption(tid('template-provider'), 'echo');
    await page.waitForSelector(tid('template-echo-note'));
    await expect(page.locator(tid('template-base-url')).count()).resolves.toBe(0);
    await expect(page.locator(tid('template-key')).count()).resolves.toBe(0);
    await page.fill(tid('template-model'), 'echo-1');
    await page.click(tid('template-save'));
    await until(() => world().modelTemplates.some((m) => m.id === 'offline'), 'the template saved');
    expect(world().modelTemplates.find((m) => m.id === 'offline')).toMatchObject({ provider: 'echo', baseUrl: '', credential: 'not_required' });

    // Back to a network wire: the preset returns and the key question is open again.
    await page.selectOption(tid('template-provider'), 'anthropic');
    await expect(page.inputValue(tid('template-base-url'))).resolves.toBe('https://api.anthropic.com/v1');
    await expect(page.isChecked(tid('template-no-auth'))).resolves.toBe(false);
    await page.selectOption(tid('template-provider'), 'echo');
    await page.click(tid('template-close'));
  });

  it('Jev says "not set up" with no URL and model, and "off" once switched off, across a reload', async () => {
    await page.click(tid('open-jev'));
    await page.waitForSelector(tid('jev-state'));
    await expect(page.getAttribute(tid('jev-state'), 'data-state')).resolves.toBe('notConfigured');
    await expect(page.textContent(tid('jev-state'))).resolves.toBe('Not set up');
    const wire = await page.locator(`${tid('jev-wire')} option:checked`).textContent();
    expect(wire).toBe('OpenAI-compatible (Chat Completions)');
    await page.uncheck(tid('jev-enabled'));
    await page.click(tid('jev-save'));
    await until(async () => (await page.getAttribute(tid('jev-state'), 'data-state')) === 'off', 'Jev off after the save');
    await page.reload();
    await ready(page);
    await page.click(tid('open-jev'));
    await page.waitForSelector(tid('jev-state'));
    await expect(page.getAttribute(tid('jev-state'), 'data-state')).resolves.toBe('off');
    await expect(page.isChecked(tid('jev-enabled'))).resolves.toBe(false);
    await page.click(tid('jev-close'));
    await page.waitForSelector(tid('jev-dialog'), { state: 'detached' });
  });

  it('the Add form offers a role; the new servant carries it and its card shows the whole name', async () => {
    await page.click(tid('add-agent'));
    await page.fill(tid('add-agent-name'), 'Bob Builder');
    const roles = await page.locator(`${tid('add-agent-role')} option`).allTextContents();
    expect(roles).toEqual(['No role', 'Reception']);
    await page.selectOption(tid('add-agent-role'), 'reception');
    await page.click(tid('add-agent-create'));
    await until(() => world().agents.some((a) => a.name === 'Bob Builder'), 'the servant saved');
    const bob = world().agents.find((a) => a.name === 'Bob Builder')!;
    expect(bob.roleId).toBe('reception');
    await page.reload();
    await ready(page);
    await page.waitForSelector(tid(`role-badge-${bob.id}`));
    // The whole name shows: its box holds all of its text (string body: no DOM lib in the tests).
    const cut = await page.evaluate<boolean>(`(() => { const el = document.querySelector('[data-testid="card-name-${bob.id}"]'); return el.scrollWidth > el.clientWidth; })()`);
    expect(cut).toBe(false);
  });
});
