/**
 * The MCP SDK's `OAuthClientProvider` for one HTTP MCP server, backed by the runtime's secret store (OS keyring, or
 * the read-only env store headless). The SDK does all of OAuth (discovery, registration, PKCE, scopes, step-up,
 * refresh, retry limit); this class only keeps what it hands over, under one key per server (mcpOAuthState.ts).
 * Two modes: `connect` (a village connecting: a redirect means "log in first", recorded, never a browser) and `login`
 * (`mcp login`: the authorization URL goes to the caller, who opens it and brings back the code).
 * A store that refuses writes (env) keeps what changes in memory for this process only.
 */
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { SecretStore } from '../../core/secrets/secretStore.js';
import type { McpHttpConfig } from './mcpConfig.js';
import { mcpOAuthKey, parseMcpOAuthState, serializeMcpOAuthState, type McpOAuthState } from './mcpOAuthState.js';

/** How the provider is used. */
export type McpOAuthMode =
  | { kind: 'connect' }
  | { kind: 'login'; redirectUrl: string; onAuthorizationUrl: (url: URL) => void };

/** The redirect a connect-mode client names when it has none stored (never listened on: connect never redirects). */
const PLACEHOLDER_REDIRECT = 'http://127.0.0.1/callback';

/** Keeps one server's OAuth state in the secret store for the SDK's `auth` flow. */
export class McpOAuthProvider implements OAuthClientProvider {
  readonly #key: string;
  /** What this process holds that the store did not take (env store; connect-mode registrations). */
  #overlay: McpOAuthState | null = null;
  #state: string | null = null;
  /** The authorization URL a connect-mode flow ended at: the server needs a login. */
  authorizationUrl: URL | null = null;
  /** True once a write was refused by the store (kept in memory only). */
  writeRefused = false;

  constructor(
    private readonly config: McpHttpConfig,
    private readonly store: SecretStore,
    private readonly mode: McpOAuthMode = { kind: 'connect' },
  ) {
    this.#key = mcpOAuthKey(config.url);
  }

  /** The stored state (fresh from the store each time, so another process's refresh is seen), or the overlay. */
  read(): McpOAuthState {
    if (this.#overlay !== null) return this.#overlay;
    return parseMcpOAuthState(this.store.get(this.#key));
  }

  #write(change: (s: McpOAuthState) => McpOAuthState, persist = true): void {
    const next = change({ ...this.read() });
    if (!persist || this.writeRefused) {
      this.#overlay = next;
      return;
    }
    const text = serializeMcpOAuthState(next);
    try {
      if (text === null) this.store.delete(this.#key);
      else this.store.set(this.#key, text);
      this.#overlay = null;
    } catch (error) {
      if (this.store.kind !== 'env') throw error;
      // The env store is read-only: a refreshed token lives for this process; the stored one stays as it was.
      this.writeRefused = true;
      this.#overlay = next;
    }
  }

  get redirectUrl(): string {
    if (this.mode.kind === 'login') return this.mode.redirectUrl;
    return this.read().redirectUrl ?? PLACEHOLDER_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.config.oauth?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.config.oauth?.scope;
    return {
      client_name: 'Fuseforks',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(scope === undefined ? {} : { scope }),
    };
  }

  /** A fresh random `state` per authorization request; the login's callback must bring the same one back. */
  state(): string {
    this.#state = randomBytes(16).toString('hex');
    return this.#state;
  }

  /** The `state` of the last authorization request (null before one). */
  get expectedState(): string | null {
    return this.#state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const stored = this.read().client;
    const clientId = this.config.oauth?.clientId;
    if (clientId === undefined) return stored;
    // A pre-registered client: its id from mcp.json, its secret (if any) only from the store.
    const secret = stored?.client_id === clientId ? stored.client_secret : undefined;
    return { client_id: clientId, ...(secret === undefined ? {} : { client_secret: secret }) };
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.#write((s) => ({ ...s, client: info, redirectUrl: this.redirectUrl }), this.mode.kind === 'login');
  }

  tokens(): OAuthTokens | undefined {
    return this.read().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#write((s) => ({ ...s, tokens, savedAt: Date.now() }));
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
    if (this.mode.kind === 'login') this.mode.onAuthorizationUrl(url);
  }

  saveCodeVerifier(verifier: string): void {
    // The redirect goes with it: a code pasted later (`mcp login --code`) is exchanged with the same redirect URI.
    this.#write((s) => ({ ...s, verifier, redirectUrl: this.redirectUrl }), this.mode.kind === 'login');
  }

  codeVerifier(): string {
    const verifier = this.read().verifier;
    if (verifier === undefined) throw new Error(`no login is under way for MCP server "${this.config.name}" (no PKCE verifier stored)`);
    return verifier;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.#write((s) => ({ ...s, discovery }), this.mode.kind === 'login');
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.read().discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    this.#write((s) => {
      if (scope === 'all') return {};
      const next = { ...s };
      if (scope === 'client') delete next.client;
      if (scope === 'tokens') {
        delete next.tokens;
        delete next.savedAt;
      }
      if (scope === 'verifier') delete next.verifier;
      if (scope === 'discovery') delete next.discovery;
      return next;
    });
  }

  /** Forgets everything kept for this server (`mcp logout`). */
  forget(): void {
    this.#overlay = null;
    this.store.delete(this.#key);
  }
}
