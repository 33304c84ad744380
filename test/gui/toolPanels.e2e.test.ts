/**
 * Issue 14 in real Chromium: the blackboard panel (notes of the shared work folder rendered, delete one, clear all,
 * reload and re-read) and the Jev page (edit the helper model and switches, save, store the token, test the
 * connection against a loopback stub, switch a servant's judge, reload and re-read what the server kept), plus the
 * mark on an enabledTools name this build does not have, and a chat message that makes a servant run the scanning
 * tools (grep, fd, diff on the shipped scanning pool): their real output reaches the model and the card says
 * "diff · ok". Any page error or console.error fails the test.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postNote } from '../../src/core/blackboard/board.js';
import { reply, toolResultsOf } from '../support/stubLlm.js';
import { HAS_CHROMIUM, tid, until } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

/** The Jev token goes to the OS keyring: that part needs a Secret Service session (.ci/run provides one). */
const KEYRING = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
if (!KEYRING) console.warn('[skip] Jev page token steps: no D-Bus session (run under .ci/run to include them)');

interface Spec { id: string; workDir: string | null; enabledTools: string[] | null; [k: string]: unknown }
let work = '';

const suite = useGuiSuite({
  village: 'empty',
  stub: true,
  setUp: async (s) => {
    work = join(s.tempDir('ff-gui-tools-'), 'shared-work');
    mkdirSync(join(work, 'blackboard'), { recursive: true });
    const template = { id: 'stub', name: 'stub', baseUrl: s.stub.baseUrl, model: 'agent-model', contextLength: 32000, temperature: null, maxOutputTokens: 512, credential: 'not_required', provider: 'open_ai_compat', useTools: true, requestTimeoutSecs: 30, maxRetries: 1 };
    await s.api('PUT', '/api/templates', { template });
    for (const name of ['Alice', 'Bob']) await s.api('POST', '/api/agents', { name, modelTemplateId: 'stub' });
    for (const id of ['alice', 'bob']) await s.api('PUT', `/api/agents/${id}`, { spec: { ...(await agentSpec(id)), workDir: work } });
    await postNote(join(work, 'blackboard'), 'alice', 'Alice', 'Findings', 'The cache is **cold** on Mondays.', Date.UTC(2026, 11, 1, 9));
    await postNote(join(work, 'blackboard'), 'bob', 'Bob', 'Plan', '- warm it at 08:00', Date.UTC(2026, 11, 1, 10));
    writeFileSync(join(work, 'blackboard', 'summary.md'), '# Summary\nall good\n');
  },
});

async function agentSpec(id: string): Promise<Spec> {
  const state = await suite.api<{ world: { agents: Spec[] } }>('GET', '/api/state');
  return state.world.agents.find((a) => a.id === id)!;
}

const titles = (): Promise<string[]> => suite.page.locator(tid('blackboard-note-title')).allTextContents();

describe.skipIf(!HAS_CHROMIUM)('the blackboard panel and the Jev page in headless Chromium', () => {
  it('shows the notes read-only, deletes one, clears the rest, and re-reads after a reload', async () => {
    await suite.page.click(tid('bottom-tab-blackboard'));
    await suite.page.waitForSelector(tid('blackboard-panel'));
    await until(async () => (await titles()).length === 3, 'three notes');
    expect(await titles()).toEqual(['Findings', 'Plan', 'Summary']);
    // Markdown rendered safely, the header block not shown as text.
    expect(await suite.page.locator(`${tid('blackboard-note')} strong`, { hasText: 'cold' }).count()).toBe(1);
    expect(await suite.page.locator(tid('blackboard-panel')).textContent()).not.toContain('author:');
    // No write path from the GUI: there is no editor in the panel.
    expect(await suite.page.locator(`${tid('blackboard-panel')} textarea, ${tid('blackboard-panel')} input`).count()).toBe(0);

    await suite.page.click(`${tid('blackboard-note')}:has-text("Plan") ${tid('blackboard-delete')}`);
    await until(async () => (await titles()).join() === 'Findings,Summary', 'Plan deleted');
    expect(readdirSync(join(work, '.fuseforks-trash')).some((f) => f.endsWith('-bob.md'))).toBe(true);

    await suite.page.reload();
    await suite.page.waitForSelector(tid('main'));
    await suite.page.click(tid('bottom-tab-blackboard'));
    await until(async () => (await titles()).join() === 'Findings,Summary', 'the deletion survives a reload');

    await suite.page.click(tid('blackboard-clear'));
    await suite.page.waitForSelector(tid('confirm'));
    expect(await suite.page.textContent(tid('confirm-text'))).toContain('2');
    await suite.page.click(tid('confirm-ok'));
    await until(async () => (await titles()).length === 0, 'board cleared');
    expect(readdirSync(join(work, 'blackboard'))).toEqual([]);
    expect(readdirSync(join(work, '.fuseforks-trash'))).toHaveLength(3);
    await suite.page.click(tid('bottom-tab-work'));
  });

  it('edits Jev, saves, stores the token, tests the connection, switches a judge, and re-reads it all after a reload', async () => {
    writeFileSync(join(suite.dir, 'jev.json'), JSON.stringify({ accountId: 'keep-me' }));
    suite.stub.reset();
    suite.stub.respond((r) => reply.text(r.model === 'jev-model' ? 'OK' : 'hi'));
    await suite.page.click(tid('open-jev'));
    await suite.page.waitForSelector(tid('jev-dialog'));
    await suite.page.waitForSelector(`${tid('jev-base-url')}:not([disabled])`);
    await suite.page.fill(tid('jev-base-url'), suite.stub.baseUrl);
    await suite.page.fill(tid('jev-model'), 'jev-model');
    await suite.page.selectOption(tid('jev-wire'), 'open_ai_compat');
    await suite.page.check(tid('jev-compression'));
    await suite.page.fill(tid('jev-threshold'), '5000');
    await suite.page.click(tid('jev-save'));
    await until(async () => (await suite.page.isDisabled(tid('jev-save'))), 'saved');
    const onDisk = JSON.parse(readFileSync(join(suite.dir, 'jev.json'), 'utf8')) as Record<string, unknown>;
    expect(onDisk).toMatchObject({ accountId: 'keep-me', baseUrl: suite.stub.baseUrl, model: 'jev-model', pruning: { enabled: true, thresholdChars: 5000 } });

    expect(await suite.page.inputValue(tid('jev-judge-to-alice'))).toBe('bob');
    await suite.page.check(tid('jev-judge-alice'));
    await until(() => existsSync(join(suite.dir, 'workspace', 'agents', 'alice', 'judge.json')), 'judge.json written');
    expect(JSON.parse(readFileSync(join(suite.dir, 'workspace', 'agents', 'alice', 'judge.json'), 'utf8'))).toEqual({ to: 'bob', enabled: true });

    if (KEYRING) {
      await suite.page.fill(tid('jev-token'), 'tok-for-the-test');
      await suite.page.click(tid('jev-token-save'));
      await until(async () => (await suite.page.textContent(tid('jev-token-state'))) === 'A token is stored', 'token stored');
      expect(await suite.page.inputValue(tid('jev-token'))).toBe('');
      await suite.page.click(tid('jev-test'));
      await until(async () => ((await suite.page.textContent(tid('jev-test-result'))) ?? '').startsWith('Connected: jev-model'), 'test call');
      const call = suite.stub.requests.find((r) => r.model === 'jev-model');
      expect(call?.headers.authorization).toBe('Bearer tok-for-the-test');
    }

    await suite.page.reload();
    await suite.page.waitForSelector(tid('main'));
    await suite.page.click(tid('open-jev'));
    await suite.page.waitForSelector(`${tid('jev-base-url')}:not([disabled])`);
    expect(await suite.page.inputValue(tid('jev-base-url'))).toBe(suite.stub.baseUrl);
    expect(await suite.page.inputValue(tid('jev-model'))).toBe('jev-model');
    expect(await suite.page.inputValue(tid('jev-threshold'))).toBe('5000');
    expect(await suite.page.isChecked(tid('jev-compression'))).toBe(true);
    expect(await suite.page.isChecked(tid('jev-judge-alice'))).toBe(true);
    expect(await suite.page.inputValue(tid('jev-judge-to-alice'))).toBe('bob');
    expect(await suite.page.isChecked(tid('jev-judge-bob'))).toBe(false);
    if (KEYRING) expect(await suite.page.textContent(tid('jev-token-state'))).toBe('A token is stored');
    // The token never comes back to the suite.page.
    expect(await suite.page.content()).not.toContain('tok-for-the-test');
    await suite.page.click(tid('jev-close'));
  });

  it('marks an enabledTools name this build does not have, and removes it on request', async () => {
    await suite.api('PUT', '/api/agents/bob', { spec: { ...(await agentSpec('bob')), enabledTools: ['grep', 'graph', 'rag'] } });
    await suite.page.reload();
    await suite.page.waitForSelector(tid('main'));
    await suite.page.click(tid('settings-bob'));
    await suite.page.waitForSelector(tid('settings-tools-unknown'));
    expect(await suite.page.textContent(tid('settings-tools-unknown'))).toContain('graph');
    expect(await suite.page.textContent(tid('settings-tools-unknown'))).not.toContain('rag');
    await suite.page.click(tid('settings-tools-unknown-remove'));
    await suite.page.click(tid('settings-save'));
    await until(async () => JSON.stringify((await agentSpec('bob')).enabledTools) === '["grep","rag"]', 'unknown name removed');
    await suite.page.waitForSelector(tid('settings-tools-unknown'), { state: 'detached' });
    await suite.page.click(tid('settings-close'));
  });

  it('a chat message makes Alice grep, fd and diff her work folder: the matches reach the model, the card says ok', async () => {
    writeFileSync(join(work, 'harbour-a.md'), 'The harbour opens at dawn.\n');
    writeFileSync(join(work, 'harbour-b.md'), 'The harbour opens at noon.\n');
    const calls = [
      reply.tool('grep', { pattern: 'opens at \\w+' }),
      reply.tool('fd', { pattern: '^harbour-' }),
      reply.tool('diff', { old_path: 'harbour-a.md', new_path: 'harbour-b.md' }),
    ];
    suite.stub.reset();
    suite.stub.respond((r) => calls[toolResultsOf(r).length] ?? reply.text('The harbour log disagrees.'));
    await suite.api('POST', '/api/agents/alice/start');
    await suite.page.waitForSelector(`${tid('status-alice')}[data-status="running"]`);
    await suite.page.click(`${tid('agent-card-alice')} .card-name`);
    await suite.page.fill(tid('chat-input'), 'alice, check the harbour log');
    await suite.page.press(tid('chat-input'), 'Enter');
    await suite.page.waitForSelector('.bubble:has-text("The harbour log disagrees.")');
    const results = toolResultsOf(suite.stub.requests.at(-1)!).map((t) => t.text);
    expect(results[0]).toMatch(/^harbour-a\.md:1: The harbour opens at dawn\.$/m);
    expect(results[0]).toMatch(/^harbour-b\.md:1: The harbour opens at noon\.$/m);
    expect(results[1]).toMatch(/^harbour-a\.md$/m);
    expect(results[2]).toMatch(/^-The harbour opens at dawn\.$/m);
    expect(results[2]).toMatch(/^\+The harbour opens at noon\.$/m);
    await until(async () => ((await suite.page.textContent(tid('last-tool-alice'))) ?? '').trim() === 'diff · ok', 'the card: diff · ok');
    await suite.api('POST', '/api/agents/alice/stop');
  });
});
