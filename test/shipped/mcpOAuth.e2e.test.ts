/**
 * OAuth for HTTP MCP servers through the built CLI (bin/run.js) against a real loopback OAuth authorization server +
 * MCP resource server (test/support/oauthMcpServer.ts, the SDK's server-side auth pieces), with the tokens in a
 * throwaway Secret Service: `check` says MCP_AUTH_REQUIRED, `mcp login` opens the page with $BROWSER (a script that
 * follows the URL as a browser follows the redirect) and waits on its loopback callback, `mcp status --json` shows
 * the login, an expired token is refreshed without a browser, `mcp logout` forgets it; no token is ever written to
 * a file outside the keyring, nor printed; every `--json` object validates against docs/schemas (mcp-login, mcp-logout,
 * mcp-status).
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBudget, describeRun, filesUnder, makeVillage, requireDist, runCli, Temps, type CliRun } from '../cli/support/cliProcess.js';
import { expectJsonLine } from '../support/jsonSchemas.js';
import { keyringSessionMissing, startKeyringSession, type KeyringSession } from '../cli/support/keyringSession.js';
import { startOAuthMcpServer, type OAuthMcpServer } from '../support/oauthMcpServer.js';

const missing = keyringSessionMissing();
const temps = new Temps();
let keyring: KeyringSession | null = null;
let server: OAuthMcpServer | null = null;
let home = '';

beforeAll(async () => {
  if (missing !== null) return;
  requireDist();
  home = temps.make('ff-oauth-home-');
  keyring = await startKeyringSession(home);
  server = await startOAuthMcpServer();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await keyring?.close();
  temps.cleanup();
});

/** A $BROWSER that fetches the page (following redirects to the loopback callback) and notes each visit in `log`. */
function browserScript(dir: string, log: string): string {
  const script = join(dir, 'browser.sh');
  const follow = `fetch(process.argv[1]).then((r) => r.text()).then((t) => require('fs').appendFileSync(process.argv[2], 'visited ' + t))`;
  writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" -e "${follow}" "$1" "${log}"\n`);
  chmodSync(script, 0o700);
  return script;
}

describe.skipIf(missing !== null)(`mcp login / status / logout and check through the built CLI${missing === null ? '' : ` (skipped: ${missing})`}`, () => {
  it('check needs a login, login completes through the browser, status shows it, refresh needs no browser, logout forgets', async () => {
    const srv = server!;
    const env = keyring!.env;
    const dir = makeVillage(temps, { baseUrl: 'http://127.0.0.1:9/v1', credential: 'not_required', agents: [{ id: 'desk' }] });
    writeFileSync(join(dir, 'workspace/mcp.json'), JSON.stringify({ mcpServers: { tracker: { url: srv.url, oauth: {} } } }));
    const runs: CliRun[] = [];
    const cli = async (args: string[], extra: Record<string, string> = {}): Promise<CliRun> => {
      const run = await runCli(args, { ...env, ...extra });
      runs.push(run);
      return run;
    };
    const findings = (run: CliRun): string[] => (expectJsonLine('check', run.stdout) as { findings: Array<{ code: string }> }).findings.map((f) => f.code);

    const before = await cli(['check', '--for', 'ask', '-d', dir, '--start', 'desk', '--json']);
    expect(before.code, describeRun(before)).toBe(0);
    expect(findings(before)).toContain('MCP_AUTH_REQUIRED');

    const status0 = await cli(['mcp', 'status', '-d', dir, '--json']);
    expect(status0.code, describeRun(status0)).toBe(0);
    expect(expectJsonLine('mcp-status', status0.stdout)).toMatchObject({ format: 1, store: 'keyring', servers: [{ server: 'tracker', agentId: null, oauth: true, loggedIn: false }] });

    const visits = join(dir, 'browser-visits.txt');
    const login = await cli(['mcp', 'login', 'tracker', '-d', dir, '--json', '--wait', '60'], { BROWSER: browserScript(dir, visits) });
    expect(login.code, describeRun(login)).toBe(0);
    expect(expectJsonLine('mcp-login', login.stdout)).toEqual({ format: 1, server: 'tracker', loggedIn: true, scopes: ['mcp:tools'], tools: ['whoami', 'pick_color'] });
    expect(login.stderr).toContain('/authorize?');
    expect(readFileSync(visits, 'utf8')).toContain('logged in');
    expect(srv.grants.authorization_code).toBe(1);
    expect(srv.registrations()).toBe(1);

    const status1 = await cli(['mcp', 'status', '-d', dir, '--json']);
    expect(expectJsonLine('mcp-status', status1.stdout)).toMatchObject({ servers: [{ server: 'tracker', loggedIn: true, scopes: ['mcp:tools'], refreshable: true }] });
    const after = await cli(['check', '--for', 'ask', '-d', dir, '--start', 'desk', '--json']);
    expect(findings(after)).not.toContain('MCP_AUTH_REQUIRED');

    // An expired access token: the SDK refreshes it on the 401; the browser is not opened again.
    srv.expireAll();
    const again = await cli(['mcp', 'login', 'tracker', '-d', dir, '--json'], { BROWSER: browserScript(dir, `${visits}.2`) });
    expect(again.code, describeRun(again)).toBe(0);
    expectJsonLine('mcp-login', again.stdout);
    expect(srv.grants.refresh_token).toBe(1);
    expect(existsSync(`${visits}.2`)).toBe(false);

    // No token in any file of the village, the HOME (the keyring file is encrypted) or any output.
    const tokens = srv.issued();
    expect(tokens.length).toBe(4);
    const files = [...filesUnder(dir), ...filesUnder(home)].filter((f) => lstatSync(f).isFile()); // not the keyring's sockets
    for (const file of files) {
      const text = readFileSync(file, 'latin1');
      for (const token of tokens) expect(text.includes(token), `${token} in ${file}`).toBe(false);
    }
    for (const run of runs) for (const token of tokens) expect(run.stdout + run.stderr).not.toContain(token);

    const logout = await cli(['mcp', 'logout', 'tracker', '-d', dir, '--json']);
    expect(logout.code, describeRun(logout)).toBe(0);
    expect(expectJsonLine('mcp-logout', logout.stdout)).toEqual({ format: 1, server: 'tracker', loggedIn: false });
    const status2 = await cli(['mcp', 'status', '-d', dir, '--json']);
    expect(expectJsonLine('mcp-status', status2.stdout)).toMatchObject({ servers: [{ server: 'tracker', loggedIn: false, clientId: null }] });

    const unknown = await cli(['mcp', 'login', 'nosuch', '-d', dir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('HTTP servers: tracker');
  }, cliBudget(10));

  it('a browser on another machine: the printed page, then the code pasted with --code', async () => {
    const srv = server!;
    const env = keyring!.env;
    const dir = makeVillage(temps, { baseUrl: 'http://127.0.0.1:9/v1', credential: 'not_required', agents: [{ id: 'desk' }] });
    mkdirSync(join(dir, 'workspace/agents/desk'), { recursive: true });
    writeFileSync(join(dir, 'workspace/agents/desk/mcp.json'), JSON.stringify({ mcpServers: { own: { url: srv.url, oauth: {} } } }));
    const first = await runCli(['mcp', 'login', 'own', '-d', dir, '--agent', 'desk', '--no-browser', '--wait', '2'], env);
    expect(first.code, describeRun(first)).toBe(1);
    const page = /^\s+(http:\/\/\S+\/authorize\?\S+)$/m.exec(first.stderr)?.[1];
    expect(page, first.stderr).toBeDefined();
    // The other machine's browser ends at the loopback address, which it cannot reach: the person copies that address.
    const landed = (await fetch(page!, { redirect: 'manual' })).headers.get('location');
    expect(landed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
    const pasted = await runCli(['mcp', 'login', 'own', '-d', dir, '--agent', 'desk', '--no-browser', '--json', '--code', landed!], env);
    expect(pasted.code, describeRun(pasted)).toBe(0);
    expect(expectJsonLine('mcp-login', pasted.stdout)).toMatchObject({ server: 'own', loggedIn: true, tools: ['whoami', 'pick_color'] });
    const status = await runCli(['mcp', 'status', '-d', dir, '--agent', 'desk', '--json'], env);
    expect(expectJsonLine('mcp-status', status.stdout)).toMatchObject({ servers: [{ server: 'own', agentId: 'desk', loggedIn: true }] });
  }, cliBudget(3));
});
