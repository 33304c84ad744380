/**
 * Files broken by hand, in real Chromium: each design screen that reads one shows why it cannot be used (the
 * shared and a servant's mcp.json, the door's mcp_server.json, schedules.json), saving elsewhere goes on, and every
 * broken file stays byte-identical. A world.json that cannot be parsed stops the boot with its file and position
 * on the overlay, and is not touched either. Any page error or console.error fails the test it happened in.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/support/cliProcess.js';
import { HAS_CHROMIUM, tid, until } from './support/browserSuite.js';
import { startGui } from './support/guiChild.js';
import { useGuiSuite } from './support/guiSuite.js';

const BROKEN: Record<string, string> = {
  'workspace/mcp.json': '{ "mcpServers": { "notes": { "command": "node", } } }\n',
  'workspace/agents/writer/mcp.json': '{ "mcpServers": [ }\n',
  'mcp_server.json': '{ "enabled": true, "port": \n',
  'workspace/schedules.json': '[ { "id": "s1", \n',
};

const suite = useGuiSuite({
  village: 'init',
  beforeStart: (dataDir) => {
    for (const [rel, text] of Object.entries(BROKEN)) writeFileSync(join(dataDir, rel), text);
  },
});
let page: Page;
let dir: string;
beforeAll(() => {
  ({ page, dir } = suite);
});

const disk = (rel: string) => readFileSync(join(dir, rel), 'utf8');

async function closeWithEscape(testid: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.waitForSelector(tid(testid), { state: 'detached' });
}

describe.skipIf(!HAS_CHROMIUM)('files broken by hand, in headless Chromium', () => {
  it('each screen shows why its file cannot be used; saves elsewhere leave every broken file byte-identical', async () => {
    // The shared mcp.json: no form (the raw text is shown with the parser's reason), nothing to save.
    await page.click(tid('open-mcp'));
    await page.waitForSelector(tid('shared-mcp-form-error'));
    await expect(page.inputValue(tid('shared-mcp-raw'))).resolves.toBe(BROKEN['workspace/mcp.json']);
    await expect(page.isDisabled(tid('shared-mcp-save'))).resolves.toBe(true);
    await closeWithEscape('mcp-dialog');

    // The writer's own mcp.json, in the inspector.
    await page.click(tid('settings-writer'));
    await page.waitForSelector(tid('agent-settings'));
    await page.click(tid('file-tab-mcp'));
    await page.waitForSelector(tid('agent-mcp-form-error'));
    await expect(page.isDisabled(tid('agent-mcp-save'))).resolves.toBe(true);
    // Saving the writer's instructions and settings meanwhile works.
    await page.click(tid('file-tab-skill'));
    await page.waitForSelector(`${tid('file-skill-text')}:not([disabled])`);
    await page.fill(tid('file-skill-text'), 'Write short drafts.');
    await page.click(tid('file-skill-save'));
    await page.waitForSelector(tid('file-skill-unsaved'), { state: 'detached' });
    await closeWithEscape('agent-settings');
    expect(disk('workspace/agents/writer/SKILL.md')).toBe('Write short drafts.');

    // The door's shelf file: the panel says it is blocked and the switch is off limits.
    await page.click(tid('open-door'));
    await page.waitForSelector(tid('door-blocked'));
    await expect(page.textContent(tid('door-blocked'))).resolves.toContain('mcp_server.json');
    await expect(page.isDisabled(tid('door-switch'))).resolves.toBe(true);
    await closeWithEscape('door-panel');
    await page.waitForSelector(`${tid('status-door')}[data-state="error"]`);

    // schedules.json: the dialog names the file and the position.
    await page.click(tid('open-schedules'));
    await page.waitForSelector(tid('schedules-blocked'));
    await expect(page.textContent(tid('schedules-blocked'))).resolves.toContain('schedules.json');
    await closeWithEscape('schedules-dialog');

    // Village settings are saved as usual.
    await page.click(tid('open-settings'));
    await page.fill(tid('set-user-name'), 'Mender');
    await page.click(tid('settings-dialog-save'));
    await until(() => (JSON.parse(disk('workspace/world.json')) as { userName?: string }).userName === 'Mender', 'settings saved');
    // The file is written before the answer reaches the page; until the re-read state arrives the form is still
    // "unsaved" and Escape asks first. Save turns disabled once the dialog holds the saved state.
    await page.waitForSelector(`${tid('settings-dialog-save')}:disabled`);
    await closeWithEscape('settings-dialog');

    for (const [rel, text] of Object.entries(BROKEN)) expect(disk(rel), rel).toBe(text);
  }, 120_000);

  it('a world.json that cannot be parsed stops the boot with its file and position, and stays as it was', async () => {
    const village = mkdtempSync(join(tmpdir(), 'ff-gui-broken-world-'));
    try {
      const init = await runCli(['init', '--data-dir', village]);
      expect(init.code, init.stderr).toBe(0);
      const broken = '{ "agents": [ { "id": "a", } ] }\n';
      writeFileSync(join(village, 'workspace/world.json'), broken);
      const gui = await startGui(village);
      try {
        const second = await suite.browser.page();
        await second.goto(gui.url);
        await second.waitForSelector(tid('boot-failed'));
        const shown = (await second.textContent(tid('boot-error'))) ?? '';
        expect(shown).toContain('CONFIG_PARSE');
        expect(shown).toContain('world.json');
        await second.close();
      } finally {
        await gui.stop();
      }
      expect(readFileSync(join(village, 'workspace/world.json'), 'utf8')).toBe(broken);
    } finally {
      rmSync(village, { recursive: true, force: true });
    }
  }, 90_000);
});
