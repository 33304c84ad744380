/**
 * Command approval end to end in real Chromium: a loopback stub model makes a servant `run` a command run.json
 * does not allow → the request shows in the GUI (badge, list with folder and reason) → Approve once → the next
 * request's `run` executes it (and only once); Reject → the servant's next `run` of it gets the rejection text.
 * Any page error or console.error fails the test. Screenshots of the approvals dialog in en and ja.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, type StubLlm, type StubRequest } from '../support/stubLlm.js';
import { clearToasts, HAS_CHROMIUM, shotPath, tid, until } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

let work = '';
/** What the stub model asks `run` to do on the next request that is not a tool result. */
let nextRun: { command: string; args: string[]; reason: string } = { command: 'touch', args: ['approved.txt'], reason: 'make the marker file' };

const runJson = () => JSON.parse(readFileSync(join(dir, 'workspace/agents/ops/run.json'), 'utf8')) as Record<string, unknown>;

/** The tool result the model was just given, if the request carries one last. */
function toolResult(r: StubRequest): string | null {
  const messages = (r.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.at(-1);
  return last?.role === 'tool' ? String(last.content) : null;
}

const suite = useGuiSuite({
  village: 'empty',
  stub: true,
  async setUp({ api, stub, tempDir }) {
    // The model: ask for the command, then report what the tool said (so the chat shows the tool's answer).
    stub.respond((r) => {
      const result = toolResult(r);
      return result === null ? reply.tool('run', { command: nextRun.command, args: nextRun.args, reason: nextRun.reason }) : reply.text(`tool said: ${result}`);
    });
    work = tempDir('ff-gui-approvals-work-');
    await api('PUT', '/api/templates', {
      template: { id: 'stub', name: 'Stub', baseUrl: stub.baseUrl, model: 'stub-model', credential: 'not_required', provider: 'open_ai_compat', maxRetries: 1 },
    });
    const made = await api<{ world: { agents: Array<Record<string, unknown>> } }>('POST', '/api/agents', { name: 'Ops' });
    const ops = made.world.agents.find((a) => a.id === 'ops');
    await api('PUT', '/api/agents/ops', { spec: { ...ops, enabledTools: ['run'], workDir: work } });
    await api('POST', '/api/agents/ops/start');
  },
});
let page: Page;
let dir: string;
beforeAll(() => {
  ({ page, dir } = suite);
});

/** Sends a chat message to Ops and waits for the bubble with the tool's answer. */
async function ask(text: string, answer: string): Promise<void> {
  const before = await page.locator(tid('bubble-agent')).count();
  await page.fill(tid('chat-input'), text);
  await page.press(tid('chat-input'), 'Enter');
  await until(async () => (await page.locator(tid('bubble-agent')).count()) > before, 'the answer arrives');
  await expect(page.locator(tid('bubble-agent')).last().textContent()).resolves.toContain(answer);
}

describe.skipIf(!HAS_CHROMIUM)('command approval in headless Chromium', () => {
  it('a refused run is pending in the GUI; Approve once lets the next run execute it, once', async () => {
    await page.waitForSelector(`${tid('status-ops')}[data-status="running"]`);
    await ask('please make the marker', 'is not allowed yet');
    expect(existsSync(join(work, 'approved.txt'))).toBe(false);
    await page.waitForSelector(`${tid('approvals-badge')}:has-text("1")`);
    await page.click(tid('open-approvals'));
    const row = page.locator(`${tid('approval-row')}[data-line="touch approved.txt"]`);
    await expect(row.textContent()).resolves.toContain('Ops');
    await expect(row.textContent()).resolves.toContain(work);
    await expect(row.locator(tid('approval-reason')).textContent()).resolves.toContain('make the marker file');
    await clearToasts(page).catch(() => undefined);
    for (const lang of ['en', 'ja'] as const) {
      await page.selectOption(tid('lang-toggle'), lang);
      await page.locator('[data-testid="approvals-dialog"] .modal').screenshot({ path: shotPath(`approvals-${lang}.png`) });
    }
    await page.selectOption(tid('lang-toggle'), 'en');
    await row.locator(tid('approval-once')).click();
    await page.waitForSelector(tid('approvals-empty'));
    expect(runJson()).toMatchObject({ once: ['touch approved.txt'], pending: [] });
    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('approvals-badge'), { state: 'detached' });

    await ask('try again', 'exit: 0');
    expect(existsSync(join(work, 'approved.txt'))).toBe(true);
    expect(runJson().once).toBeUndefined();
    // Once means once: the same line is a new request afterwards.
    await ask('once more', 'is not allowed yet');
    await page.waitForSelector(`${tid('approvals-badge')}:has-text("1")`);
  }, 120_000);

  it('Reject: the servant\'s next run of that command gets the rejection text and nothing runs', async () => {
    nextRun = { command: 'touch', args: ['rejected.txt'], reason: 'make another file' };
    await ask('make the other file', 'is not allowed yet');
    await page.waitForSelector(`${tid('approvals-badge')}:has-text("2")`);
    await page.click(tid('open-approvals'));
    await page.locator(`${tid('approval-row')}[data-line="touch rejected.txt"] ${tid('approval-reject')}`).click();
    await page.click(tid('confirm-ok'));
    await page.waitForSelector(`${tid('approval-row')}[data-line="touch rejected.txt"]`, { state: 'detached' });
    expect(runJson().deny).toEqual(['touch rejected.txt']);
    await page.keyboard.press('Escape');
    await page.waitForSelector(tid('approvals-dialog'), { state: 'detached' });

    await ask('make it anyway', 'is rejected (the user rejected it');
    expect(existsSync(join(work, 'rejected.txt'))).toBe(false);
  }, 120_000);
});
