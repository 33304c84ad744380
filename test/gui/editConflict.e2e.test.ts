/**
 * A stale tab cannot undo an edit, in real Chromium against a real `fuseforks-cli gui` on the example village: two
 * tabs show the writer's run policy; the new tab revokes `sh *`; the old tab's save is refused (nothing written) and
 * the conflict dialog offers reload — which shows the revoke — or overwrite — which saves the old tab's form as it
 * is, on the person's say-so. Any page error or console.error other than the refusal's 409 fails the test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, openGui, tid, until } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

const suite = useGuiSuite({
  village: 'init',
  setUp: async (s) => {
    await s.api('PUT', '/api/agents/writer/run-policy', { allow: ['ls *', 'sh *'], deny: [], timeoutSecs: 60 });
  },
});

let oldTab: Page;
let newTab: Page;
beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  oldTab = suite.page;
  newTab = await suite.browser.page();
  await openGui(newTab, suite.gui.url);
}, 120_000);
afterAll(async () => newTab?.close());

const runJson = (): { allow: string[]; deny: string[]; timeoutSecs: number } =>
  JSON.parse(readFileSync(join(suite.dir, 'workspace/agents/writer/run.json'), 'utf8'));

async function openRunPolicy(page: Page): Promise<void> {
  await page.bringToFront();
  await page.click(tid('settings-writer'));
  await page.waitForSelector(tid('agent-settings'));
  await page.click(tid('file-tab-run'));
  await page.waitForSelector(`${tid('run-policy-allow')}:not([disabled])`);
}

async function save(page: Page, changes: { allow?: string; deny?: string; timeout?: string }): Promise<void> {
  // A background tab's frames are throttled, and every playwright action waits for them: act in the front tab.
  await page.bringToFront();
  if (changes.allow !== undefined) await page.fill(tid('run-policy-allow'), changes.allow);
  if (changes.deny !== undefined) await page.fill(tid('run-policy-deny'), changes.deny);
  if (changes.timeout !== undefined) await page.fill(tid('run-policy-timeout'), changes.timeout);
  await page.click(tid('run-policy-save'));
}

describe.skipIf(!HAS_CHROMIUM)(`two tabs, one run policy${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  it('the old tab\'s save after a revoke in the new tab is refused; reload shows the revoke', async () => {
    await openRunPolicy(oldTab);
    await openRunPolicy(newTab);
    await expect(oldTab.inputValue(tid('run-policy-allow'))).resolves.toBe('ls *\nsh *');

    // The new tab revokes `sh *`.
    await save(newTab, { allow: 'ls *' });
    await until(() => runJson().allow.length === 1, 'the revoke is on disk');
    await newTab.waitForSelector(`${tid('run-policy-save')}:disabled`);

    // The old tab still shows `sh *`; its save of another field is refused, and nothing is written.
    suite.browser.allowHttpError(409);
    await save(oldTab, { timeout: '30' });
    await oldTab.waitForSelector(tid('conflict'));
    await expect(oldTab.textContent(tid('conflict-text'))).resolves.toContain(join(suite.dir, 'workspace/agents/writer/run.json'));
    expect(runJson()).toMatchObject({ allow: ['ls *'], deny: [], timeoutSecs: 60 });

    // Reload: the form shows the file as it is now (the revoke), with nothing unsaved.
    await oldTab.click(tid('conflict-reload'));
    await oldTab.waitForSelector(tid('conflict'), { state: 'detached' });
    await until(async () => (await oldTab.inputValue(tid('run-policy-allow'))) === 'ls *', 'the old tab shows the revoke');
    await expect(oldTab.inputValue(tid('run-policy-timeout'))).resolves.toBe('60');
    await oldTab.waitForSelector(`${tid('run-policy-save')}:disabled`);
    expect(runJson()).toMatchObject({ allow: ['ls *'], deny: [], timeoutSecs: 60 });
  }, 120_000);

  it('overwrite saves the old tab\'s form over what the new tab saved, when the person chooses it', async () => {
    await save(newTab, { deny: 'rm *' });
    await until(() => runJson().deny.length === 1, 'the new tab\'s deny is on disk');

    suite.browser.allowHttpError(409);
    await save(oldTab, { timeout: '45' });
    await oldTab.waitForSelector(tid('conflict'));
    expect(runJson()).toMatchObject({ deny: ['rm *'], timeoutSecs: 60 });
    await oldTab.click(tid('conflict-overwrite'));
    await oldTab.waitForSelector(tid('conflict'), { state: 'detached' });
    await until(() => runJson().timeoutSecs === 45, 'the old tab\'s form is on disk');
    expect(runJson()).toMatchObject({ allow: ['ls *'], deny: [], timeoutSecs: 45 });
    await oldTab.waitForSelector(`${tid('run-policy-save')}:disabled`);

    // Keep editing: the third choice writes nothing and leaves the edit in the form (the other writer is a program now).
    await suite.api('PUT', '/api/agents/writer/run-policy', { allow: ['ls *'], deny: ['rm *'], timeoutSecs: 50 });
    await save(oldTab, { deny: 'curl *' });
    await oldTab.waitForSelector(tid('conflict'));
    await oldTab.click(tid('conflict-cancel'));
    await oldTab.waitForSelector(tid('conflict'), { state: 'detached' });
    await expect(oldTab.inputValue(tid('run-policy-deny'))).resolves.toBe('curl *');
    expect(runJson()).toMatchObject({ deny: ['rm *'], timeoutSecs: 50 });
  }, 120_000);
});
