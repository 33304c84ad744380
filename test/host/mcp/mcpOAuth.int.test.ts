/**
 * The runtime's MCP client with OAuth on sources, against the loopback OAuth MCP server (test/support/
 * oauthMcpServer.ts): a login (McpLoopbackLogin, a fetch as the browser) leaves tokens in the store; a village's
 * connect (McpConnection + the connect-mode McpOAuthProvider) uses them, refreshes an expired one by itself, and
 * fails as MCP_AUTH_REQUIRED (never a browser) with nothing or a revoked login stored. A server's question is declined
 * headless, or answered with the schema's defaults under "elicitation": "accept-defaults".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../src/core/secrets/secretStore.js';
import { mcpOAuthKey } from '../../../src/core/secrets/mcpOAuthKey.js';
import type { McpHttpConfig } from '../../../src/host/mcp/mcpConfig.js';
import { McpConnection } from '../../../src/host/mcp/mcpConnection.js';
import { McpLoopbackLogin } from '../../../src/host/mcp/mcpLogin.js';
import { startOAuthMcpServer, type OAuthMcpServer } from '../../support/oauthMcpServer.js';

let server: OAuthMcpServer;
beforeAll(async () => {
  server = await startOAuthMcpServer();
});
afterAll(() => server.close());

const configOf = (extra: Partial<McpHttpConfig> = {}): McpHttpConfig => ({ kind: 'http', name: 'tracker', url: server.url, headers: {}, enabled: true, oauth: {}, ...extra });

async function loggedInStore(): Promise<MemorySecretStore> {
  const store = new MemorySecretStore();
  const login = await McpLoopbackLogin.start(configOf(), store, { say: () => undefined, open: async (url) => void (await (await fetch(url)).text()), waitMs: 20_000 });
  try {
    await (await login.connect()).close();
  } finally {
    await login.close();
  }
  return store;
}

const call = async (connection: McpConnection, tool: string): Promise<string> => {
  const result = await connection.call(tool, {}, new AbortController().signal, 20_000);
  return (result.content as Array<{ text: string }>)[0]!.text;
};

describe('MCP OAuth in the runtime client', () => {
  it('a connect without a stored login fails as MCP_AUTH_REQUIRED and opens nothing', async () => {
    await expect(McpConnection.open(configOf(), { secretStore: new MemorySecretStore(), timeoutMs: 20_000 })).rejects.toMatchObject({ code: 'MCP_AUTH_REQUIRED' });
  }, 30_000);

  it('uses a stored login, refreshes an expired token by itself, and asks for a new login once it is revoked', async () => {
    const store = await loggedInStore();
    const stored = store.get(mcpOAuthKey(server.url))!;
    expect(JSON.parse(stored)).toMatchObject({ tokens: { token_type: 'bearer', scope: 'mcp:tools' } });

    const first = await McpConnection.open(configOf(), { secretStore: store, timeoutMs: 20_000 });
    expect(await call(first, 'whoami')).toMatch(/^client /);
    await first.close();

    server.expireAll();
    const refreshes = server.grants.refresh_token;
    const second = await McpConnection.open(configOf(), { secretStore: store, timeoutMs: 20_000 });
    expect(server.grants.refresh_token).toBe(refreshes + 1);
    expect(store.get(mcpOAuthKey(server.url))).not.toBe(stored);
    await second.close();

    server.revokeAll();
    await expect(McpConnection.open(configOf(), { secretStore: store, timeoutMs: 20_000 })).rejects.toMatchObject({ code: 'MCP_AUTH_REQUIRED' });
  }, 60_000);

  it('answers a server\'s question headless: decline by default (with the reason), the defaults when the entry says so', async () => {
    const store = await loggedInStore();
    const told: string[] = [];
    const declining = await McpConnection.open(configOf(), { secretStore: store, timeoutMs: 20_000, onHeadlessElicit: (s, a, reason) => told.push(`${s} ${a.action} ${reason}`) });
    expect(await call(declining, 'pick_color')).toBe('decline {}');
    expect(told).toEqual([expect.stringMatching(/^tracker decline nobody is there to answer/)]);
    await declining.close();

    const defaults = await McpConnection.open(configOf({ elicitation: 'accept-defaults' }), { secretStore: store, timeoutMs: 20_000 });
    expect(await call(defaults, 'pick_color')).toBe('accept {"color":"blue"}');
    await defaults.close();

    const person = await McpConnection.open(configOf(), { secretStore: store, timeoutMs: 20_000, elicit: async (q) => ({ action: 'accept', content: { color: q.server === 'tracker' ? 'red' : 'none' } }) });
    expect(await call(person, 'pick_color')).toBe('accept {"color":"red"}');
    await person.close();
  }, 60_000);
});
