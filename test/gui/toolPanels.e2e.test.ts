/**
 * Issue 14 in real Chromium: the blackboard panel (notes of the shared work folder rendered, delete one, clear all,
 * reload and re-read) and the Jev page (edit the helper model and switches, save, store the token, test the
 * connection against a loopback stub, switch a servant's judge, reload and re-read what the server kept), plus the
 * mark on an enabledTools name this build does not have. Any page error or console.error fails the test.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postNote } from '../../src/core/blackboard/board.js';
import { reply, startStubLlm, type StubLlm } from '../support/stubLlm.js';
import { guiApi, HAS_CHROMIUM, launchBrowser, openGui, tid, until, type BrowserRun } from './support/browserSuite.js';
import { requireGuiBuild, startGui, type GuiChild } from './support/guiChild.js';

/** The Jev token goes to the OS keyring: that part needs a Secret Service session (.ci/run provides one). */
const KEYRING = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
if (!KEYRING) console.warn('[skip] Jev page token steps: no D-Bus session (run under .ci/run to include them)');

let browser: BrowserRun;
let helper: StubLlm;
let gui: GuiChild;
let dir: string;
let work: string;
let page: Page;
let api: ReturnType<typeof guiApi>;

interface Spec { id: string; workDir: string | null; enabledTools: string[] | null; [k: string]: unknown }
async function agentSpec(id: string): Promise<Spec> {
  const state = await api<{ world: { agents: Spec[] } }>('GET', '/api/state');
  return state.world.agents.find((a) => a.id === id)!;
}

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  requireGuiBuild();
  helper = await startStubLlm();
  dir = mkdtempSync(join(tmpdir(), 'ff-gui-tools-'));
  work = join(dir, 'shared-work');
  mkdirSync(join(work, 'blackboard'), { recursive: true });
  gui = await startGui(dir);
  api = guiApi(gui);
  browser = await launchBrowser();
  const template = { id: 'stub', name: 'stub', baseUrl: helper.baseUrl, model: 'agent-model', contextLength: 32000, temperature: null, maxOutputTokens: 512, credential: 'not_required', provider: 'open_ai_compat', useTools: true, requestTimeoutSecs: 30, maxRetries: 1 };
  await api('PUT', '/api/templates', { template });
  for (const name of ['Alice', 'Bob']) await api('POST', '/api/agents', { name, modelTemplateId: 'stub' });
  for (const id of ['alice', 'bob']) await api('PUT', `/api/agents/${id}`, { spec: { ...(await agentSpec(id)), workDir: work } });
  await postNote(join(work, 'blackboard'), 'alice', 'Alice', 'Findings', 'The cache is **cold** on Mondays.', Date.UTC(2026, 11, 1, 9));
  await postNote(join(work, 'blackboard'), 'bob', 'Bob', 'Plan', '- warm it at 08:00', Date.UTC(2026, 11, 1, 10));
  writeFileSync(join(work, 'blackboard', 'summary.md'), '# Summary\nall good\n');
  page = await browser.page();
  await openGui(page, gui.url);
}, 180_000);

afterEach(() => browser?.assertClean());

afterAll(async () => {
  await page?.close();
  await browser?.close();
  await gui?.stop();
  await helper?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const titles = (): Promise<string[]> => page.locator(tid('blackboard-note-title')).allTextContents();

describe.skipIf(!HAS_CHROMIUM)('the blackboard panel and the Jev page in headless Chromium', () => {
  it('shows the notes read-only, deletes one, clears the rest, and re-reads after a reload', async () => {
    await page.click(tid('open-blackboard'));
    await page.waitForSelector(tid('blackboard-panel'));
    await until(async () => (await titles()).length === 3, 'three notes');
    expect(await titles()).toEqual(['Findings', 'Plan', 'Summary']);
    // Markdown rendered safely, the header block not shown as text.
    expect(await page.locator(`${tid('blackboard-note')} strong`, { hasText: 'cold' }).count()).toBe(1);
    expect(await page.locator(tid('blackboard-panel')).textContent()).not.toContain('author:');
    // No write path from the GUI: there is no editor in the panel.
    expect(await page.locator(`${tid('blackboard-panel')} textarea, ${tid('blackboard-panel')} input`).count()).toBe(0);

    await page.click(`${tid('blackboard-note')}:has-text("Plan") ${tid('blackboard-delete')}`);
    await until(async () => (await titles()).join() === 'Findings,Summary', 'Plan deleted');
    expect(readdirSync(join(work, '.fuseforks-trash')).some((f) => f.endsWith('-bob.md'))).toBe(true);

    await page.reload();
    await page.waitForSelector(tid('main'));
    await page.click(tid('open-blackboard'));
    await until(async () => (await titles()).join() === 'Findings,Summary', 'the deletion survives a reload');

    await page.click(tid('blackboard-clear'));
    await page.waitForSelector(tid('confirm'));
    expect(await page.textContent(tid('confirm-text'))).toContain('2');
    await page.click(tid('confirm-ok'));
    await until(async () => (await titles()).length === 0, 'board cleared');
    expect(readdirSync(join(work, 'blackboard'))).toEqual([]);
    expect(readdirSync(join(work, '.fuseforks-trash'))).toHaveLength(3);
    await page.click(tid('blackboard-close'));
  });

  it('edits Jev, saves, stores the token, tests the connection, switches a judge, and re-reads it all after a reload', async () => {
    writeFileSync(join(dir, 'jev.json'), JSON.stringify({ accountId: 'keep-me' }));
    helper.reset();
    helper.respond((r) => reply.text(r.model === 'jev-model' ? 'OK' : 'hi'));
    await page.click(tid('open-jev'));
    await page.waitForSelector(tid('jev-dialog'));
    await page.waitForSelector(`${tid('jev-base-url')}:not([disabled])`);
    await page.fill(tid('jev-base-url'), helper.baseUrl);
    await page.fill(tid('jev-model'), 'jev-model');
    await page.selectOption(tid('jev-wire'), 'open_ai_compat');
    await page.check(tid('jev-compression'));
    await page.fill(tid('jev-threshold'), '5000');
    await page.click(tid('jev-save'));
    await until(async () => (await page.isDisabled(tid('jev-save'))), 'saved');
    const onDisk = JSON.parse(readFileSync(join(dir, 'jev.json'), 'utf8')) as Record<string, unknown>;
    expect(onDisk).toMatchObject({ accountId: 'keep-me', baseUrl: helper.baseUrl, model: 'jev-model', pruning: { enabled: true, thresholdChars: 5000 } });

    expect(await page.inputValue(tid('jev-judge-to-alice'))).toBe('bob');
    await page.check(tid('jev-judge-alice'));
    await until(() => existsSync(join(dir, 'workspace', 'agents', 'alice', 'judge.json')), 'judge.json written');
    expect(JSON.parse(readFileSync(join(dir, 'workspace', 'agents', 'alice', 'judge.json'), 'utf8'))).toEqual({ to: 'bob', enabled: true });

    if (KEYRING) {
      await page.fill(tid('jev-token'), 'tok-for-the-test');
      await page.click(tid('jev-token-save'));
      await until(async () => (await page.textContent(tid('jev-token-state'))) === 'A token is stored', 'token stored');
      expect(await page.inputValue(tid('jev-token'))).toBe('');
      await page.click(tid('jev-test'));
      await until(async () => ((await page.textContent(tid('jev-test-result'))) ?? '').startsWith('Connected: jev-model'), 'test call');
      const call = helper.requests.find((r) => r.model === 'jev-model');
      expect(call?.headers.authorization).toBe('Bearer tok-for-the-test');
    }

    await page.reload();
    await page.waitForSelector(tid('main'));
    await page.click(tid('open-jev'));
    await page.waitForSelector(`${tid('jev-base-url')}:not([disabled])`);
    expect(await page.inputValue(tid('jev-base-url'))).toBe(helper.baseUrl);
    expect(await page.inputValue(tid('jev-model'))).toBe('jev-model');
    expect(await page.inputValue(tid('jev-threshold'))).toBe('5000');
    expect(await page.isChecked(tid('jev-compression'))).toBe(true);
    expect(await page.isChecked(tid('jev-judge-alice'))).toBe(true);
    expect(await page.inputValue(tid('jev-judge-to-alice'))).toBe('bob');
    expect(await page.isChecked(tid('jev-judge-bob'))).toBe(false);
    if (KEYRING) expect(await page.textContent(tid('jev-token-state'))).toBe('A token is stored');
    // The token never comes back to the page.
    expect(await page.content()).not.toContain('tok-for-the-test');
    await page.click(tid('jev-close'));
  });

  it('marks an enabledTools name this build does not have, and removes it on request', async () => {
    await api('PUT', '/api/agents/bob', { spec: { ...(await agentSpec('bob')), enabledTools: ['grep', 'graph', 'rag'] } });
    await page.reload();
    await page.waitForSelector(tid('main'));
    await page.click(tid('settings-bob'));
    await page.waitForSelector(tid('settings-tools-unknown'));
    expect(await page.textContent(tid('settings-tools-unknown'))).toContain('graph');
    expect(await page.textContent(tid('settings-tools-unknown'))).not.toContain('rag');
    await page.click(tid('settings-tools-unknown-remove'));
    await page.click(tid('settings-save'));
    await until(async () => JSON.stringify((await agentSpec('bob')).enabledTools) === '["grep","rag"]', 'unknown name removed');
    await page.waitForSelector(tid('settings-tools-unknown'), { state: 'detached' });
    await page.click(tid('settings-close'));
  });
});
