/**
 * Error reasons are visible in the GUI (issue 19): files of the village that exist but cannot be used — a schedule
 * row with a bad field, an mcp.json entry of the wrong type, a broken run.json, a broken door file — show in a
 * Problems dialog with file, reason (the row, server or key named) and fix, the same facts `check` reports as
 * CONFIG_BROKEN; a file mended by hand leaves the list on Re-check; every broken file stays byte-identical. A failed
 * turn (a model reply past the template's maxResponseBytes) shows its code, reason and fix on the agent's card, not
 * a bare code. Any page error or console.error fails the test. Screenshots of the dialog in en and ja.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { clearToasts, HAS_CHROMIUM, shotPath, tid, until } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

/** The broken files written by hand (path → exact text), checked byte for byte at the end. */
const broken: Record<string, string> = {};
const CAP = 2_000;

const suite = useGuiSuite({
  village: 'empty',
  stub: true,
  async setUp({ api, stub, dir }) {
    // The model floods: one reply well past the template's cap.
    stub.respond(() => reply.text('x'.repeat(CAP * 4)));
    await api('PUT', '/api/templates', {
      template: { id: 'stub', name: 'Stub', baseUrl: stub.baseUrl, model: 'stub-model', credential: 'not_required', provider: 'open_ai_compat', maxRetries: 1, maxResponseBytes: CAP },
    });
    const made = await api<{ world: { agents: Array<Record<string, unknown>> } }>('POST', '/api/agents', { name: 'Desk' });
    const desk = made.world.agents.find((a) => a.id === 'desk');
    await api('PUT', '/api/agents/desk', { spec: { ...desk, modelTemplateId: 'stub', enabledTools: ['run'] } });
    await api('POST', '/api/agents/desk/start');
    mkdirSync(join(dir, 'workspace/agents/desk'), { recursive: true });
    Object.assign(broken, {
      [join(dir, 'workspace/schedules.json')]: JSON.stringify([
        { id: '22222222-2222-4222-8222-222222222222', to: 'desk', message: 'hi', recurrence: { kind: 'hourly' }, enabled: true, createdAtMs: 0, lastConsumedDueMs: null },
      ]),
      [join(dir, 'workspace/mcp.json')]: JSON.stringify({ mcpServers: { files: { command: 'npx', args: '-y some-server' } } }),
      [join(dir, 'workspace/agents/desk/run.json')]: '{"allow": ["ls *"], ',
      [join(dir, 'mcp_server.json')]: JSON.stringify({ enabled: false, port: 'seventy', token: null }),
    });
    for (const [file, text] of Object.entries(broken)) writeFileSync(file, text);
  },
});
let page: Page;
beforeAll(() => {
  ({ page } = suite);
});

const row = (file: string) => page.locator(`${tid('problem-row')}[data-file="${file}"]`);

describe.skipIf(!HAS_CHROMIUM)('error reasons in the GUI', () => {
  it('Problems lists each unusable file with file, reason and fix; a file mended by hand leaves the list on Re-check', async () => {
    const [schedules, mcp, runJson, door] = Object.keys(broken) as [string, string, string, string];
    await page.waitForSelector(`${tid('problems-badge')}:has-text("4")`);
    await page.click(tid('open-problems'));
    await page.waitForSelector(tid('problems-dialog'));
    await expect(row(schedules).locator(tid('problem-file')).textContent()).resolves.toBe(schedules);
    await expect(row(schedules).locator(tid('problem-reason')).textContent()).resolves.toMatch(/row 1 \(22222222-2222-4222-8222-222222222222\): recurrence/);
    await expect(row(schedules).locator(tid('problem-fix')).textContent()).resolves.toMatch(/schedule dialog/);
    await expect(row(mcp).locator(tid('problem-reason')).textContent()).resolves.toMatch(/server "files": "args" must be an array of strings/);
    await expect(row(mcp).locator(tid('problem-fix')).textContent()).resolves.toMatch(/"args": \[/);
    await expect(row(runJson).locator(tid('problem-reason')).textContent()).resolves.toMatch(/every run of desk is refused/);
    await expect(row(runJson).locator(tid('problem-fix')).textContent()).resolves.toMatch(/run\.json/);
    await expect(row(door).locator(tid('problem-reason')).textContent()).resolves.toMatch(/"port" must be an integer/);
    await expect(row(door).locator(tid('problem-fix')).textContent()).resolves.toMatch(/\S/);
    await clearToasts(page).catch(() => undefined);
    for (const lang of ['en', 'ja'] as const) {
      await page.selectOption(tid('lang-toggle'), lang);
      await page.locator('[data-testid="problems-dialog"] .modal').screenshot({ path: shotPath(`problems-${lang}.png`) });
    }
    await page.selectOption(tid('lang-toggle'), 'en');

    // Mended by hand: gone after Re-check; the others stay, and no broken file was rewritten.
    const mended = JSON.stringify([]);
    writeFileSync(schedules, mended);
    broken[schedules] = mended;
    await page.click(tid('problems-recheck'));
    await until(async () => (await row(schedules).count()) === 0, 'the mended schedules.json leaves the list');
    await expect(page.locator(tid('problem-row')).count()).resolves.toBe(3);
    await page.waitForSelector(`${tid('problems-badge')}:has-text("3")`);
    await page.click(tid('problems-close-foot'));
    for (const [file, text] of Object.entries(broken)) expect(readFileSync(file, 'utf8'), file).toBe(text);
  });

  it('a failed turn shows code, reason and fix on the agent card (a reply past maxResponseBytes)', async () => {
    await page.waitForSelector(`${tid('status-desk')}[data-status="running"]`);
    await page.fill(tid('chat-input'), 'tell me everything');
    await page.press(tid('chat-input'), 'Enter');
    const card = page.locator(tid('error-desk'));
    await card.waitFor();
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('LLM_RESPONSE_TOO_LARGE');
    expect(text).toMatch(new RegExp(`${CAP}`));
    expect(text).toMatch(/raise maxResponseBytes on the model template/);
    await clearToasts(page).catch(() => undefined);
  });
});
