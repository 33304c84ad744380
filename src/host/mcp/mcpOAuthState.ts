/**
 * What one HTTP MCP server's OAuth login leaves behind, as one JSON value in the secret store (never in mcp.json,
 * a log or an event): the tokens, the registered client (dynamic registration), the PKCE verifier of a login under
 * way, the discovery result and the loopback redirect the client was registered with. Pure: the key and the parse.
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** Everything kept for one server. Each part is optional: a fresh server has none. */
export interface McpOAuthState {
  tokens?: OAuthTokens;
  /** When the access token was saved (epoch ms), to tell an expired one in `mcp status`. */
  savedAt?: number;
  client?: OAuthClientInformationMixed;
  verifier?: string;
  discovery?: OAuthDiscoveryState;
  /** The loopback redirect URL the client was registered with (a later login reuses its port). */
  redirectUrl?: string;
}

export { mcpOAuthKey } from '../../core/secrets/mcpOAuthKey.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a stored value; anything unreadable counts as nothing stored (a fresh login rewrites it). */
export function parseMcpOAuthState(text: string | null): McpOAuthState {
  if (text === null || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isObject(value)) return {};
  const out: McpOAuthState = {};
  if (isObject(value.tokens) && typeof value.tokens.access_token === 'string' && typeof value.tokens.token_type === 'string') {
    out.tokens = value.tokens as unknown as OAuthTokens;
  }
  if (typeof value.savedAt === 'number') out.savedAt = value.savedAt;
  if (isObject(value.client) && typeof value.client.client_id === 'string') out.client = value.client as unknown as OAuthClientInformationMixed;
  if (typeof value.verifier === 'string') out.verifier = value.verifier;
  if (isObject(value.discovery) && typeof value.discovery.authorizationServerUrl === 'string') {
    out.discovery = value.discovery as unknown as OAuthDiscoveryState;
  }
  if (typeof value.redirectUrl === 'string') out.redirectUrl = value.redirectUrl;
  return out;
}

/** The stored text of a state, or null when nothing is left (the key is then deleted). */
export function serializeMcpOAuthState(state: McpOAuthState): string | null {
  const kept = Object.fromEntries(Object.entries(state).filter(([, v]) => v !== undefined));
  return Object.keys(kept).length === 0 ? null : JSON.stringify(kept);
}

/** What `mcp status` shows of a server's login: never a token, only whether one is there, its scopes and expiry. */
export interface McpOAuthSummary {
  loggedIn: boolean;
  scopes: string[];
  /** Epoch ms when the access token expires, when the server said. */
  expiresAt: number | null;
  refreshable: boolean;
  clientId: string | null;
}

/** The status view of a state (pure). */
export function summarizeMcpOAuthState(state: McpOAuthState): McpOAuthSummary {
  const tokens = state.tokens;
  const expiresIn = tokens?.expires_in;
  return {
    loggedIn: tokens !== undefined,
    scopes: tokens?.scope === undefined ? [] : tokens.scope.split(' ').filter((s) => s !== ''),
    expiresAt: expiresIn !== undefined && state.savedAt !== undefined ? state.savedAt + expiresIn * 1000 : null,
    refreshable: tokens?.refresh_token !== undefined,
    clientId: state.client?.client_id ?? null,
  };
}
