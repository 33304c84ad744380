/**
 * The secret-store key of an HTTP MCP server's OAuth login (tokens, client registration, PKCE verifier as one JSON
 * value): by the server's URL, so the shared and a per-agent entry naming one server share one login. Core-side so
 * preflight can ask the store whether a login is there without loading the MCP SDK.
 */

/** Prefix of every OAuth key in the secret store. */
export const MCP_OAUTH_KEY_PREFIX = 'mcp_oauth:';

/** `mcp_oauth:<normalized URL>`; under `--secrets env` it maps to `FUSEFORKS_SECRET_MCP_OAUTH_…` (secretNames.ts). */
export function mcpOAuthKey(serverUrl: string): string {
  return `${MCP_OAUTH_KEY_PREFIX}${new URL(serverUrl).href}`;
}
