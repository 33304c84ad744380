/**
 * A loopback OAuth-protected MCP server for tests, built from the MCP SDK's own server-side auth pieces: one express
 * app on 127.0.0.1 that is both the authorization server (`mcpAuthRouter`: metadata, dynamic client registration,
 * authorize with PKCE, token, refresh, revoke) and the resource server (`requireBearerAuth` → 401 with
 * `WWW-Authenticate: Bearer resource_metadata=…`, then a Streamable HTTP MCP server with the tools `whoami` and
 * `pick_color`, which asks the person a question through elicitation).
 * Authorization is granted at once (no login page): a "browser" that follows the redirect completes it.
 * `expireAll()` makes every access token stale (a refresh follows); `revokeAll()` forgets every token.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response } from 'express';
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { OAuthServerProvider, AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

interface Grant {
  clientId: string;
  scopes: string[];
  expiresAt: number;
}

/** What a test reads off the server. */
export interface OAuthMcpServer {
  /** The MCP endpoint (`…/mcp`). */
  url: string;
  /** Every access and refresh token issued so far (to scan files and logs for). */
  issued(): string[];
  /** How many token requests of each grant type came in. */
  grants: { authorization_code: number; refresh_token: number };
  registrations(): number;
  expireAll(): void;
  revokeAll(): void;
  close(): Promise<void>;
}

class Clients implements OAuthRegisteredClientsStore {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  getClient(id: string): OAuthClientInformationFull | undefined {
    return this.clients.get(id);
  }
  registerClient(client: OAuthClientInformationFull): OAuthClientInformationFull {
    this.clients.set(client.client_id, client);
    return client;
  }
}

class Provider implements OAuthServerProvider {
  readonly clientsStore = new Clients();
  readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  readonly access = new Map<string, Grant>();
  readonly refresh = new Map<string, Grant>();
  readonly issued: string[] = [];
  readonly grants = { authorization_code: 0, refresh_token: 0 };

  constructor(private readonly scopes: string[]) {}

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (entry === undefined) throw new InvalidGrantError('unknown code');
    return entry.params.codeChallenge;
  }

  #issue(clientId: string, scopes: string[]): OAuthTokens {
    const token = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    this.access.set(token, { clientId, scopes, expiresAt: Date.now() + 3_600_000 });
    this.refresh.set(refreshToken, { clientId, scopes, expiresAt: Date.now() + 86_400_000 });
    this.issued.push(token, refreshToken);
    return { access_token: token, token_type: 'bearer', expires_in: 3600, refresh_token: refreshToken, scope: scopes.join(' ') };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    if (entry === undefined || entry.clientId !== client.client_id) throw new InvalidGrantError('unknown code');
    this.codes.delete(code);
    this.grants.authorization_code += 1;
    return this.#issue(client.client_id, entry.params.scopes ?? this.scopes);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const grant = this.refresh.get(refreshToken);
    if (grant === undefined || grant.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
    this.refresh.delete(refreshToken);
    this.grants.refresh_token += 1;
    return this.#issue(client.client_id, grant.scopes);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = this.access.get(token);
    if (grant === undefined || grant.expiresAt < Date.now()) throw new InvalidTokenError('invalid or expired token');
    return { token, clientId: grant.clientId, scopes: grant.scopes, expiresAt: Math.floor(grant.expiresAt / 1000) };
  }
}

/** Starts the server on a free loopback port. */
export async function startOAuthMcpServer(options: { scopes?: string[] } = {}): Promise<OAuthMcpServer> {
  const scopes = options.scopes ?? ['mcp:tools'];
  const provider = new Provider(scopes);
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const mcpUrl = new URL('/mcp', base);
  app.use(mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: mcpUrl, scopesSupported: scopes }));
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  // Stateful sessions: the server must remember the client's capabilities (elicitation) between requests.
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  app.post('/mcp', express.json(), bearer, async (req, res) => {
    const id = req.header('mcp-session-id');
    let transport = id === undefined ? undefined : sessions.get(id);
    if (transport === undefined) {
      const mcp = new McpServer({ name: 'oauth-test', version: '1.0.0' });
      mcp.registerTool('whoami', { description: 'Who the token belongs to' }, (extra) => ({
        content: [{ type: 'text', text: `client ${extra.authInfo?.clientId ?? 'none'}` }],
      }));
      // Asks the person a question (elicitation/create) and says what came back.
      mcp.registerTool('pick_color', { description: 'Asks which color' }, async (extra) => {
        // On the tool call's own response stream (there is no standalone GET stream here).
        const answer = await mcp.server.elicitInput(
          { mode: 'form', message: 'Which color?', requestedSchema: { type: 'object', properties: { color: { type: 'string', default: 'blue' } } } },
          { relatedRequestId: extra.requestId },
        );
        return { content: [{ type: 'text', text: `${answer.action} ${JSON.stringify(answer.content ?? {})}` }] };
      });
      const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, fresh),
      });
      fresh.onclose = () => {
        if (fresh.sessionId !== undefined) sessions.delete(fresh.sessionId);
      };
      await mcp.connect(fresh);
      transport = fresh;
    }
    await transport.handleRequest(req, res, req.body);
  });
  app.get('/mcp', (_req, res) => void res.status(405).end());
  app.delete('/mcp', bearer, async (req, res) => {
    const id = req.header('mcp-session-id');
    const transport = id === undefined ? undefined : sessions.get(id);
    if (transport === undefined) return void res.status(404).end();
    await transport.handleRequest(req, res);
  });
  return {
    url: mcpUrl.href,
    issued: () => [...provider.issued],
    grants: provider.grants,
    registrations: () => provider.clientsStore.clients.size,
    expireAll: () => {
      for (const grant of provider.access.values()) grant.expiresAt = 0;
    },
    revokeAll: () => {
      provider.access.clear();
      provider.refresh.clear();
    },
    close: () =>
      new Promise((resolve) => {
        for (const transport of sessions.values()) void transport.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
