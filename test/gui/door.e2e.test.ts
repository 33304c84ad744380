/**
 * The door panel in real Chromium on an init village: switched on at a free port, the shown token lets the MCP
 * SDK's own client get `ask_fuseforks` answered by the reception; the shelf's mcp_server.json says what the panel
 * says; rotating the token makes the old one get 401 at once while the new one works. Any page error or
 * console.error fails the test. Screenshots of the panel in en and ja.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/freePort.js';
import { clearToasts, HAS_CHROMIUM, shotPath, tid, until } from './support/browserSuite.js';
import { useGuiSuite } from './support/guiSuite.js';

// The init village: its reception (front) answers with the offline demo model (alone, it answers itself).
const suite = useGuiSuite({ village: 'init', setUp: async ({ api }) => void (await api('POST', '/api/agents/front/start')) });
let page: Page;
let dir: string;
beforeAll(() => {
  ({ page, dir } = suite);
});

/** ask_fuseforks through the SDK's own client with a bearer token; answers the text. */
async function askThroughDoor(port: number, token: string, message: string): Promise<string> {
  const client = new Client({ name: 'door-e2e', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  try {
    const result = await client.callTool({ name: 'ask_fuseforks', arguments: { message } });
    expect(result.isError).toBeFalsy();
    return (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
  } finally {
    await client.close();
  }
}

/** The HTTP status of an MCP initialize with this token (raw, so a refusal is seen as it is). */
function initializeStatus(port: number, token: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.skipIf(!HAS_CHROMIUM)('the door panel in headless Chromium', () => {
  it('switch on → an MCP client with the shown token is answered; rotate → the old token gets 401', async () => {
    const port = await freePort();
    await page.click(tid('open-door'));
    await expect(page.getAttribute(tid('door-state'), 'data-listening')).resolves.toBe('false');
    // Wait on outcomes, not on a quiet machine: the typed port is in the field and "Use this port" is enabled (typed
    // again should anything have re-rendered the field), then the shelf holds the port before the door is switched on.
    await until(async () => {
      if ((await page.inputValue(tid('door-port'))) !== String(port)) await page.fill(tid('door-port'), String(port));
      return page.isEnabled(tid('door-port-apply'));
    }, '"Use this port" enabled for the typed port');
    await page.click(tid('door-port-apply'));
    await until(() => JSON.parse(readFileSync(join(dir, 'mcp_server.json'), 'utf8')).port === port, 'the port saved on the shelf');
    await page.click(tid('door-switch'));
    await page.waitForSelector(`${tid('door-state')}[data-listening="true"]`);
    await expect(page.textContent(tid('door-state'))).resolves.toContain(`127.0.0.1:${port}/mcp`);
    await page.click(tid('door-token-show'));
    await page.waitForSelector(tid('door-client-config'));
    const token = ((await page.textContent(tid('door-token'))) ?? '').trim();
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    await expect(page.inputValue(tid('door-client-config'))).resolves.toContain(`Bearer ${token}`);
    await expect(page.inputValue(tid('door-curl'))).resolves.toContain(`http://127.0.0.1:${port}/mcp`);
    // The shelf file says the same (mode 0600: the token is a secret of this machine).
    const shelf = join(dir, 'mcp_server.json');
    expect(JSON.parse(readFileSync(shelf, 'utf8'))).toMatchObject({ enabled: true, port, token });
    expect(statSync(shelf).mode & 0o777).toBe(0o600);

    await expect(askThroughDoor(port, token, 'hello through the door')).resolves.toContain('hello through the door');
    // The copied curl line works as shown (when curl is installed here).
    if (existsSync('/usr/bin/curl')) {
      const out = await promisify(execFile)('sh', ['-c', await page.inputValue(tid('door-curl'))]);
      expect(out.stdout).toContain('"name":"Fuseforks"');
    }
    await clearToasts(page).catch(() => undefined);
    for (const lang of ['en', 'ja'] as const) {
      await page.selectOption(tid('lang-toggle'), lang);
      await page.locator('[data-testid="door-panel"] .modal').screenshot({ path: shotPath(`door-${lang}.png`) });
    }
    await page.selectOption(tid('lang-toggle'), 'en');

    await page.click(tid('door-token-rotate'));
    await page.click(tid('confirm-ok'));
    await until(async () => ((await page.textContent(tid('door-token'))) ?? '').trim() !== token, 'the token changes');
    const rotated = ((await page.textContent(tid('door-token'))) ?? '').trim();
    expect(rotated).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(readFileSync(shelf, 'utf8')).token).toBe(rotated);
    await expect(initializeStatus(port, token)).resolves.toBe(401);
    await expect(askThroughDoor(port, rotated, 'after the rotation')).resolves.toContain('after the rotation');

    // Switched off: nothing listens there any more.
    await page.click(tid('door-switch'));
    await page.waitForSelector(`${tid('door-state')}[data-listening="false"]`);
    await expect(initializeStatus(port, rotated)).rejects.toThrow(/ECONNREFUSED/);
    expect(JSON.parse(readFileSync(shelf, 'utf8'))).toMatchObject({ enabled: false, token: rotated });
  }, 120_000);
});
