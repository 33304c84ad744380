/**
 * The batch work-folder dialog as a person uses it, in headless Chromium against a real `fuseforks-cli gui`: tick
 * servants, type a folder, Preview; a relative, missing or file path is named with the reason and the fix and
 * nothing is written; a good folder shows each servant's folder now → after, Apply writes world.json once for the
 * chosen servants with the keys this build does not know kept; after a reload the dialog shows the folders and
 * offers the folder among the recent ones. The server refuses a bad folder by itself too. The settings dialog's
 * reference folders (rag) take the same check before a folder is added, and are saved and re-read. Fails on any page
 * error or console.error.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, ready, tid, until } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

const suite = useGuiSuite({
  village: 'empty',
  beforeStart: (dataDir) => {
    mkdirSync(join(dataDir, 'workspace'), { recursive: true });
    writeFileSync(
      join(dataDir, 'workspace/world.json'),
      JSON.stringify({
        language: 'en',
        laterTopLevel: { kept: 1 },
        modelTemplates: [{ id: 'echo', name: 'echo', model: 'echo', credential: 'not_required', provider: 'echo' }],
        agents: [
          { id: 'alice', name: 'Alice', modelTemplateId: 'echo', laterAgentKey: 'alice-extra' },
          { id: 'bob', name: 'Bob', modelTemplateId: 'echo', order: 1 },
          { id: 'carol', name: 'Carol', modelTemplateId: 'echo', order: 2, workDir: '/carol/keeps' },
        ],
      }),
    );
  },
});
let page: Page;
let dir: string;
beforeAll(() => {
  ({ page, dir } = suite);
});

const worldOnDisk = () => JSON.parse(readFileSync(join(dir, 'workspace/world.json'), 'utf8')) as { laterTopLevel?: unknown; agents: Array<Record<string, unknown>> };

async function preview(folder: string): Promise<void> {
  await page.fill(tid('batch-workdir-folder'), folder);
  await page.click(tid('batch-workdir-preview'));
}

describe.skipIf(!HAS_CHROMIUM)(`batch work folder in headless Chromium${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  it('previews, refuses a bad folder with the reason and fix, applies one folder to the chosen servants, and re-reads it', async () => {
    const project = suite.tempDir('ff-gui-project-');
    writeFileSync(join(project, 'a-file.txt'), '');
    const before = readFileSync(join(dir, 'workspace/world.json'), 'utf8');

    await page.click(tid('open-batch-workdir'));
    await page.waitForSelector(tid('batch-workdir-dialog'));
    await page.check(tid('batch-workdir-pick-alice'));
    await page.check(tid('batch-workdir-pick-bob'));

    for (const [folder, reason, fix] of [
      ['project', 'is not an absolute path', 'full path'],
      ['/no/such/folder/here', 'does not exist', 'Create the folder'],
      [join(project, 'a-file.txt'), 'is a file, not a folder', 'folder that contains it'],
    ] as const) {
      await preview(folder);
      const error = await page.textContent(tid('batch-workdir-error'));
      expect(error).toContain(folder);
      expect(error).toContain(reason);
      expect(error).toContain(fix);
      // Apply checks again and writes nothing.
      await page.click(tid('batch-workdir-apply'));
      await page.waitForSelector(tid('batch-workdir-error'));
      expect(readFileSync(join(dir, 'workspace/world.json'), 'utf8')).toBe(before);
    }

    await preview(project);
    // Typing the folder drops the old preview at once; the new one arrives with the server's answer.
    await until(async () => (await page.textContent(tid('batch-workdir-after-alice'))) === project, 'the preview of the good folder');
    await expect(page.locator(tid('batch-workdir-error')).count()).resolves.toBe(0);
    await expect(page.textContent(tid('batch-workdir-after-bob'))).resolves.toBe(project);
    await expect(page.textContent(tid('batch-workdir-after-carol'))).resolves.toBe('—');
    await page.click(tid('batch-workdir-apply'));
    await page.waitForSelector(`.toast:has-text("Work folder of 2 servant(s) set to")`);
    await expect(page.textContent(tid('batch-workdir-now-alice'))).resolves.toBe(project);

    const world = worldOnDisk();
    expect(world.laterTopLevel).toEqual({ kept: 1 });
    expect(world.agents.map((a) => [a['id'], a['workDir']])).toEqual([['alice', project], ['bob', project], ['carol', '/carol/keeps']]);
    expect(world.agents[0]!['laterAgentKey']).toBe('alice-extra');

    // After a reload: the folders are what the dialog reads, the folder is a recent one.
    await page.reload();
    await ready(page);
    await page.click(tid('open-batch-workdir'));
    await expect(page.textContent(tid('batch-workdir-now-bob'))).resolves.toBe(project);
    await expect(page.textContent(tid('batch-workdir-now-carol'))).resolves.toBe('/carol/keeps');
    await expect(page.locator(tid('batch-workdir-recent')).allTextContents()).resolves.toEqual([project]);
    // A blank folder clears it for the chosen servant.
    await page.check(tid('batch-workdir-pick-bob'));
    await page.fill(tid('batch-workdir-folder'), '');
    await page.click(tid('batch-workdir-apply'));
    await page.waitForSelector(`.toast:has-text("Work folder of 1 servant(s) cleared.")`);
    expect(worldOnDisk().agents[1]!['workDir']).toBeNull();
    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('batch-workdir-dialog'), { state: 'detached' });
  }, 120_000);

  it('the server refuses a bad folder and an unknown servant by itself, writing nothing', async () => {
    const before = readFileSync(join(dir, 'workspace/world.json'), 'utf8');
    const refused = await suite.api<{ code: string; message: string; fix: string }>('PUT', '/api/work-dir', { ids: ['alice'], workDir: '/no/such/folder/here' }, 400);
    expect(refused).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(refused.message).toContain('does not exist');
    expect(refused.fix).toContain('Create the folder');
    const unknown = await suite.api<{ code: string }>('PUT', '/api/work-dir', { ids: ['alice', 'nobody'], workDir: suite.tempDir('ff-gui-ok-') }, 404);
    expect(unknown.code).toBe('AGENT_NOT_FOUND');
    expect(readFileSync(join(dir, 'workspace/world.json'), 'utf8')).toBe(before);
  });

  it('reference folders in the settings dialog: a bad folder is refused with the reason, a good one saved, re-read, removed', async () => {
    const docs = suite.tempDir('ff-gui-docs-');
    await page.click(tid('settings-alice'));
    await page.waitForSelector(tid('agent-settings'));
    await page.fill(tid('settings-rag-input'), 'docs');
    await page.click(tid('settings-rag-add'));
    await expect(page.textContent(tid('settings-rag-error'))).resolves.toContain('is not an absolute path');
    await expect(page.locator(tid('settings-rag-folder')).count()).resolves.toBe(0);
    await page.fill(tid('settings-rag-input'), `${docs}/`);
    await page.press(tid('settings-rag-input'), 'Enter');
    // The folder is added once the server's check answers.
    await page.waitForSelector(tid('settings-rag-folder'));
    await expect(page.locator(tid('settings-rag-folder')).allTextContents()).resolves.toEqual([expect.stringContaining(docs)]);
    await page.waitForSelector(tid('settings-rag-error'), { state: 'detached' });
    await page.click(tid('settings-save'));
    await page.waitForSelector(tid('settings-unsaved'), { state: 'detached' });
    expect(worldOnDisk().agents[0]).toMatchObject({ ragSources: [docs], laterAgentKey: 'alice-extra' });

    await page.reload();
    await ready(page);
    await page.click(tid('settings-alice'));
    await page.waitForSelector(tid('settings-rag-folder'));
    await expect(page.locator(tid('settings-rag-folder')).allTextContents()).resolves.toEqual([expect.stringContaining(docs)]);
    await page.click(tid('settings-rag-remove'));
    await page.click(tid('settings-save'));
    await page.waitForSelector(tid('settings-unsaved'), { state: 'detached' });
    expect(worldOnDisk().agents[0]).toMatchObject({ ragSources: [], laterAgentKey: 'alice-extra' });
    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('agent-settings'), { state: 'detached' });
  }, 120_000);
});
