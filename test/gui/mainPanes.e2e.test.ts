/**
 * Stats and blackboard as parts of the main screen, in headless Chromium against a real `fuseforks-cli gui` (the
 * offline echo model): the pane under the map switches between work status and the blackboard (a note shown,
 * deleted, still gone after a reload, where the pane starts on work status again); the status bar's Stats takes the
 * place of the three panes while the chat draft and the selection survive underneath, the title bar's dialogs wait
 * meanwhile, Escape or the toggle returns, and a reload opens the village, not the stats. Fails on any page error or
 * console.error.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { postNote } from '../../src/core/blackboard/board.js';
import { HAS_CHROMIUM, ready, tid, until } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

let work = '';
const suite = useGuiSuite({
  village: 'empty',
  async setUp(s) {
    work = s.tempDir('ff-gui-panes-');
    mkdirSync(join(work, 'blackboard'));
    await s.api('PUT', '/api/templates', { template: { id: 'offline', name: 'Offline echo', model: 'echo-1', credential: 'not_required', provider: 'echo' } });
    await s.api('POST', '/api/agents', { name: 'Alice', modelTemplateId: 'offline' });
    await s.api('POST', '/api/agents', { name: 'Bob', modelTemplateId: 'offline' });
    await s.api('PUT', '/api/work-dir', { ids: ['alice'], workDir: work });
    await s.api('POST', '/api/agents/bob/start');
    await postNote(join(work, 'blackboard'), 'alice', 'Alice', 'Standup', 'Ship the **panes** today.', Date.UTC(2026, 11, 3, 8));
  },
});
let page: Page;
beforeAll(() => {
  ({ page } = suite);
});

describe.skipIf(!HAS_CHROMIUM)(`stats and blackboard in the main screen${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  it('the pane under the map switches to the blackboard, deletes a note, and starts on work status after a reload', async () => {
    await page.waitForSelector(tid('plan-waves'));
    await expect(page.getAttribute(tid('bottom-tab-work'), 'aria-selected')).resolves.toBe('true');
    await page.click(tid('bottom-tab-blackboard'));
    await page.waitForSelector(`${tid('blackboard-note')}:has-text("Standup")`);
    await expect(page.locator(tid('plan-waves')).count()).resolves.toBe(0);
    await expect(page.locator(`${tid('blackboard-note')} strong`, { hasText: 'panes' }).count()).resolves.toBe(1);
    await page.click(`${tid('blackboard-note')}:has-text("Standup") ${tid('blackboard-delete')}`);
    await page.waitForSelector(tid('blackboard-note'), { state: 'detached' });
    expect(readdirSync(join(work, 'blackboard'))).toEqual([]);

    await page.reload();
    await ready(page);
    await page.waitForSelector(tid('plan-waves'));
    await page.click(tid('bottom-tab-blackboard'));
    await page.waitForSelector(`${tid('blackboard-panel')}:has-text("No notes on this board.")`);
    await page.click(tid('bottom-tab-work'));
    await page.waitForSelector(tid('plan-waves'));
  });

  it('Stats take the place of the panes; the chat draft survives; title-bar dialogs wait; Escape returns; a reload opens the village', async () => {
    await page.click(`${tid('agent-card-bob')} .card-name`);
    await page.fill(tid('chat-input'), 'a draft that must survive');
    await page.click(tid('open-stats'));
    await page.waitForSelector(tid('stats-view'));
    await expect(page.isVisible(tid('main-grid'))).resolves.toBe(false);
    await expect(page.getAttribute(tid('open-stats'), 'aria-pressed')).resolves.toBe('true');
    await expect(page.isDisabled(tid('open-templates'))).resolves.toBe(true);
    await page.waitForSelector(`${tid('stats-turns')}, ${tid('stats-no-records')}`);

    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('stats-view'), { state: 'detached' });
    await expect(page.isVisible(tid('main-grid'))).resolves.toBe(true);
    await expect(page.inputValue(tid('chat-input'))).resolves.toBe('a draft that must survive');
    await expect(page.isDisabled(tid('open-templates'))).resolves.toBe(false);

    // The toggle opens and closes it too; a reload never lands on the stats.
    await page.click(tid('open-stats'));
    await page.waitForSelector(tid('stats-view'));
    await page.click(tid('open-stats'));
    await page.waitForSelector(tid('stats-view'), { state: 'detached' });
    await page.click(tid('open-stats'));
    await page.reload();
    await ready(page);
    await until(async () => page.isVisible(tid('main-grid')), 'the village after a reload');
    await expect(page.locator(tid('stats-view')).count()).resolves.toBe(0);
  });
});
