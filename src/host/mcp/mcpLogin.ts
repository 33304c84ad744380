/**
 * Logging in to an OAuth-protected HTTP MCP server from a terminal (`mcp login`) or any other face: a loopback
 * callback on 127.0.0.1 takes the authorization code (its `state` checked), the SDK's `auth` exchanges it (PKCE,
 * resource indicator, client authentication), and a real connect proves the login by listing the tools. The
 * authorization page is opened by the caller's `open` (the browser); a code pasted by hand (`--code`) is exchanged
 * with the verifier and redirect URI the earlier attempt stored. Nothing here prints or logs a token.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SecretStore } from '../../core/secrets/secretStore.js';
import type { McpHttpConfig } from './mcpConfig.js';
import { McpConnection, type McpConnectOptions } from './mcpConnection.js';
import { McpOAuthProvider } from './mcpOAuthProvider.js';
import { parseMcpOAuthState, mcpOAuthKey } from './mcpOAuthState.js';

/** How long a login waits for the browser to come back (ms). */
export const MCP_LOGIN_TIMEOUT_MS = 300_000;
/** Authorizations one connect may need (a first login, then a step-up to more scopes). */
const MAX_AUTHORIZATIONS = 3;

/** What a login needs from its caller. */
export interface McpLoginOptions extends Omit<McpConnectOptions, 'authProvider' | 'secretStore'> {
  /** Opens the authorization URL for the person (browser); the URL has been handed to `say` already. */
  open: (url: URL) => Promise<void>;
  /** A line for the person (the URL to open, what is awaited). */
  say: (line: string) => void;
  waitMs?: number;
}

/** A code (or the whole redirected URL) a person pasted: the code, and the state when the URL carried one. */
export function parsePastedCode(text: string): { code: string; state: string | null } | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (/^https?:\/\//.test(trimmed)) {
    const url = new URL(trimmed);
    const code = url.searchParams.get('code');
    return code === null || code === '' ? null : { code, state: url.searchParams.get('state') };
  }
  return { code: trimmed, state: null };
}

/** The callback listener: one code per authorization, checked against the state the provider sent. */
class LoopbackCallback {
  #pending: { resolve: (code: string) => void; reject: (error: Error) => void } | null = null;

  private constructor(
    private readonly server: Server,
    private readonly provider: () => McpOAuthProvider | null,
  ) {
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') {
        res.writeHead(404).end();
        return;
      }
      const error = url.searchParams.get('error');
      const code = url.searchParams.get('code');
      const state = url.searchParams.get('state');
      const expected = this.provider()?.expectedState ?? null;
      const fail = (why: string): void => {
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end(`Fuseforks: the login did not complete (${why}). Go back to the terminal.\n`);
        this.#pending?.reject(new Error(why));
        this.#pending = null;
      };
      if (expected !== null && state !== expected) return fail('the state of the answer is not the one sent; nothing was stored');
      if (error !== null) return fail(`the authorization server said ${error}${url.searchParams.get('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}`);
      if (code === null || code === '') return fail('the answer carries no code');
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Fuseforks: logged in. You can close this tab.\n');
      this.#pending?.resolve(code);
      this.#pending = null;
    });
  }

  static async listen(port: number, provider: () => McpOAuthProvider | null): Promise<LoopbackCallback> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new LoopbackCallback(server, provider);
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callback`;
  }

  next(waitMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending = null;
        reject(new Error(`no answer came back to ${this.redirectUrl} within ${Math.round(waitMs / 1000)} s`));
      }, waitMs);
      this.#pending = {
        resolve: (code) => {
          clearTimeout(timer);
          resolve(code);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The port the login listens on: mcp.json's `redirectPort`, else the one the stored client was registered with. */
function wantedPort(config: McpHttpConfig, store: SecretStore): number {
  if (config.oauth?.redirectPort !== undefined) return config.oauth.redirectPort;
  const stored = parseMcpOAuthState(store.get(mcpOAuthKey(config.url))).redirectUrl;
  const port = stored === undefined ? NaN : Number(new URL(stored).port);
  return Number.isInteger(port) && port > 0 ? port : 0;
}

/** A login under way: the callback listener and the provider in login mode. */
export class McpLoopbackLogin {
  private constructor(
    readonly config: McpHttpConfig,
    readonly provider: McpOAuthProvider,
    private readonly callback: LoopbackCallback,
    private readonly options: McpLoginOptions,
  ) {}

  /** Listens on the loopback redirect; a dynamically registered client whose port is taken registers anew. */
  static async start(config: McpHttpConfig, store: SecretStore, options: McpLoginOptions): Promise<McpLoopbackLogin> {
    let provider: McpOAuthProvider | null = null;
    const want = wantedPort(config, store);
    let callback: LoopbackCallback;
    try {
      callback = await LoopbackCallback.listen(want, () => provider);
    } catch (error) {
      if (want === 0 || config.oauth?.redirectPort !== undefined) throw error;
      callback = await LoopbackCallback.listen(0, () => provider);
    }
    provider = new McpOAuthProvider(config, store, { kind: 'login', redirectUrl: callback.redirectUrl, onAuthorizationUrl: () => undefined });
    const registered = provider.read().redirectUrl;
    if (config.oauth?.clientId === undefined && registered !== undefined && registered !== callback.redirectUrl) provider.invalidateCredentials('client');
    return new McpLoopbackLogin(config, provider, callback, options);
  }

  /** Connects, authorizing in the browser as often as the server asks (login, step-up), at most 3 times. */
  async connect(): Promise<McpConnection> {
    for (let round = 0; ; round += 1) {
      this.provider.authorizationUrl = null;
      try {
        return await McpConnection.open(this.config, { ...this.options, authProvider: this.provider });
      } catch (error) {
        if (this.provider.authorizationUrl === null || round >= MAX_AUTHORIZATIONS) throw error;
        await this.authorizeCaptured();
      }
    }
  }

  /** After the SDK asked for an authorization (`provider.authorizationUrl`): browser → code → tokens. */
  async authorizeCaptured(): Promise<void> {
    const url = this.provider.authorizationUrl;
    if (url === null) return;
    this.provider.authorizationUrl = null;
    this.options.say(`Open this page to log in to MCP server "${this.config.name}":\n  ${url.href}`);
    this.options.say(`Waiting for the answer on ${this.callback.redirectUrl} (or run mcp login again with --code CODE).`);
    const code = this.callback.next(this.options.waitMs ?? MCP_LOGIN_TIMEOUT_MS);
    code.catch(() => undefined); // awaited below; a refusal while the browser opens is not unhandled
    await this.options.open(url);
    await this.exchange(await code, url);
  }

  /** Exchanges a code with the SDK's `auth` (the scope asked for in the authorization request, the stored discovery). */
  async exchange(code: string, authorizationUrl: URL | null): Promise<void> {
    const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js');
    const scope = authorizationUrl?.searchParams.get('scope') ?? undefined;
    const result = await auth(this.provider, { serverUrl: this.config.url, authorizationCode: code, ...(scope === undefined ? {} : { scope }) });
    if (result !== 'AUTHORIZED') throw new Error('the authorization server did not accept the code');
  }

  close(): Promise<void> {
    return this.callback.close();
  }
}

/** Exchanges a pasted code from an earlier `mcp login` (its verifier and redirect URI are in the store). */
export async function exchangePastedCode(config: McpHttpConfig, store: SecretStore, code: string): Promise<void> {
  const stored = parseMcpOAuthState(store.get(mcpOAuthKey(config.url)));
  if (stored.verifier === undefined || stored.redirectUrl === undefined) {
    throw new Error(`no login of MCP server "${config.name}" is under way: run mcp login ${config.name} without --code first, then paste the code it leads to`);
  }
  const provider = new McpOAuthProvider(config, store, { kind: 'login', redirectUrl: stored.redirectUrl, onAuthorizationUrl: () => undefined });
  const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js');
  const result = await auth(provider, { serverUrl: config.url, authorizationCode: code });
  if (result !== 'AUTHORIZED') throw new Error('the authorization server did not accept the code');
}
