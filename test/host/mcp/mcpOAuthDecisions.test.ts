/** The pure parts of MCP OAuth and elicitation: tables over the stored state, the browser command, pasted codes, headless answers, the mcp.json `oauth` entry. */
import { describe, expect, it } from 'vitest';
import { browserCommand } from '../../../src/host/mcp/browserOpener.js';
import { parseMcpConfig } from '../../../src/host/mcp/mcpConfig.js';
import { headlessElicitAnswer } from '../../../src/host/mcp/mcpElicitation.js';
import { parsePastedCode } from '../../../src/host/mcp/mcpLogin.js';
import { mcpOAuthKey, parseMcpOAuthState, serializeMcpOAuthState, summarizeMcpOAuthState } from '../../../src/host/mcp/mcpOAuthState.js';
import { envNameForKey } from '../../../src/core/secrets/secretNames.js';

const form = (properties: Record<string, unknown>, required?: string[]) =>
  ({ mode: 'form' as const, message: 'q', requestedSchema: { type: 'object' as const, properties, ...(required === undefined ? {} : { required }) } }) as never;

describe('headlessElicitAnswer', () => {
  it.each([
    { setting: undefined, params: form({ a: { type: 'string' } }), action: 'decline', reason: /nobody is there/ },
    { setting: 'decline', params: form({ a: { type: 'string', default: 'x' } }), action: 'decline', reason: /headless/ },
    { setting: 'accept-defaults', params: form({ a: { type: 'string', default: 'x' } }, ['a']), action: 'accept', reason: /defaults/ },
    { setting: 'accept-defaults', params: form({ a: { type: 'string' } }, ['a']), action: 'decline', reason: /without a default: a/ },
    { setting: 'accept-defaults', params: { mode: 'url', message: 'q', url: 'https://x.example/', elicitationId: '1' } as never, action: 'decline', reason: /URL-mode/ },
  ] as const)('$setting → $action', ({ setting, params, action, reason }) => {
    const got = headlessElicitAnswer(setting, params);
    expect(got.answer.action).toBe(action);
    expect(got.reason).toMatch(reason);
  });
});

describe('browserCommand', () => {
  it.each([
    { env: { BROWSER: '/usr/bin/firefox' }, platform: 'linux', want: ['/usr/bin/firefox', 'U'] },
    { env: { BROWSER: 'w3m -dump %s:lynx' }, platform: 'linux', want: ['w3m', '-dump', 'U'] },
    { env: { BROWSER: '' }, platform: 'linux', want: ['xdg-open', 'U'] },
    { env: {}, platform: 'darwin', want: ['open', 'U'] },
  ] as const)('$env on $platform', ({ env, platform, want }) => {
    expect(browserCommand('U', env, platform)).toEqual(want);
  });
});

describe('parsePastedCode', () => {
  it.each([
    { text: '  abc  ', want: { code: 'abc', state: null } },
    { text: 'http://127.0.0.1:5/callback?code=c1&state=s1', want: { code: 'c1', state: 's1' } },
    { text: 'http://127.0.0.1:5/callback?error=access_denied', want: null },
    { text: '', want: null },
  ])('$text', ({ text, want }) => {
    expect(parsePastedCode(text)).toEqual(want);
  });
});

describe('the stored OAuth state', () => {
  it('round-trips, drops what is unreadable, and summarizes without a token', () => {
    const state = { tokens: { access_token: 'AT', token_type: 'bearer', expires_in: 60, refresh_token: 'RT', scope: 'a b' }, savedAt: 1000, client: { client_id: 'cid' } };
    const text = serializeMcpOAuthState(state)!;
    expect(parseMcpOAuthState(text)).toEqual(state);
    expect(parseMcpOAuthState('not json')).toEqual({});
    expect(parseMcpOAuthState('{"tokens": {"access_token": 3}}')).toEqual({});
    expect(serializeMcpOAuthState({})).toBeNull();
    const summary = summarizeMcpOAuthState(state);
    expect(summary).toEqual({ loggedIn: true, scopes: ['a', 'b'], expiresAt: 61_000, refreshable: true, clientId: 'cid' });
    expect(JSON.stringify(summary)).not.toContain('AT');
  });

  it('is keyed by the server URL, one FUSEFORKS_SECRET_MCP_OAUTH_* variable under --secrets env', () => {
    expect(mcpOAuthKey('http://127.0.0.1:8080/mcp')).toBe('mcp_oauth:http://127.0.0.1:8080/mcp');
    expect(envNameForKey(mcpOAuthKey('https://x.example/mcp'))).toBe('FUSEFORKS_SECRET_MCP_OAUTH_HTTPS___X_EXAMPLE_MCP');
  });
});

describe('mcp.json "oauth" and "elicitation"', () => {
  const parse = (entry: unknown) => parseMcpConfig(JSON.stringify({ mcpServers: { t: entry } }), '/v/mcp.json');
  it('reads the settings', () => {
    expect(parse({ url: 'https://x.example/mcp', oauth: { clientId: 'c', scope: 'read', redirectPort: 8976 }, elicitation: 'accept-defaults' })[0]).toMatchObject({
      kind: 'http',
      oauth: { clientId: 'c', scope: 'read', redirectPort: 8976 },
      elicitation: 'accept-defaults',
    });
    expect(parse({ url: 'https://x.example/mcp' })[0]).not.toHaveProperty('oauth');
  });
  it.each([
    { entry: { url: 'https://x.example/mcp', oauth: { clientSecret: 's' } }, says: /oauth.clientSecret" is refused/ },
    { entry: { url: 'https://x.example/mcp', oauth: 'yes' }, says: /"oauth" must be an object/ },
    { entry: { url: 'https://x.example/mcp', oauth: { clientMetadataUrl: 'http://x.example/c.json' } }, says: /must be an https URL/ },
    { entry: { url: 'https://x.example/mcp', oauth: { redirectPort: 70000 } }, says: /redirectPort/ },
    { entry: { command: 'x', elicitation: 'ask' }, says: /"elicitation" must be/ },
  ])('refuses $entry', ({ entry, says }) => {
    expect(() => parse(entry)).toThrow(says);
  });
});
