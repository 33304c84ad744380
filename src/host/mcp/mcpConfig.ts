/**
 * Reads `mcp.json` files (shared `workspace/mcp.json`, per-agent `agents/{id}/mcp.json`) in Claude Desktop's
 * `mcpServers` format. Two transports:
 * - stdio: `{"command": "npx", "args": [...], "env": {...}, "enabled": true}` (the original's only kind);
 * - Streamable HTTP (an addition): `{"url": "http://127.0.0.1:8080/mcp", "headers": {...}, "enabled": true}`, with an
 *   optional `"oauth": {"clientId", "clientMetadataUrl", "scope", "redirectPort"}` (none of them secret; the tokens
 *   live in the secret store, docs/mcp-oauth.md). `"elicitation": "decline" | "accept-defaults"` (both kinds) is what
 *   a headless run answers a server's question with (default decline).
 * `enabled` defaults to true. An entry with both `command` and `url`, or neither, is an error.
 * Read-only by design: these files are never rewritten here, so unknown keys always survive.
 * A broken file is an error naming the file and the position; it is never treated as empty.
 */
import { readFile } from 'node:fs/promises';
import { findJsonError } from '../../core/village/jsonErrorPosition.js';
import { mcpConfigBroken, settingsFileUnreadable } from '../../core/errors/configErrors.js';

/** One stdio server: a child process speaking MCP on stdin/stdout. */
export interface McpStdioConfig {
  kind: 'stdio';
  name: string;
  command: string;
  args: string[];
  /** Variables set for the child on top of the minimal allowlist (values may be secrets: never logged). */
  env: Record<string, string>;
  enabled: boolean;
  elicitation?: McpElicitationAnswer;
  /**
   * `"sandbox": true` or `{"network"?: bool, "readOnly"?: [absolute folders]}`: the server runs in the OS sandbox of
   * `run` (src/core/sandbox) with only its declared env, no network unless `network`, and only the system folders
   * plus `readOnly` visible. Absent = null (unsandboxed, as hand-written entries always were).
   */
  sandbox: McpSandbox | null;
}

/** How a sandboxed stdio server is confined. */
export interface McpSandbox {
  network: boolean;
  readOnly: string[];
}

/** OAuth settings of an HTTP server; all optional (discovery and dynamic registration need none of them). */
export interface McpOAuthSettings {
  /** A pre-registered client's id (its secret, if any, only in the secret store: `mcp login --client-secret-stdin`). */
  clientId?: string;
  /** An https URL of this client's metadata document (client ID metadata documents), used as the client id. */
  clientMetadataUrl?: string;
  /** Scopes to ask for when the server names none (space-separated). */
  scope?: string;
  /** The loopback port `mcp login` listens on for the redirect (a pre-registered client's redirect URI); 0 = any. */
  redirectPort?: number;
}

/** What a headless run answers a server's question (elicitation) with. */
export type McpElicitationAnswer = 'decline' | 'accept-defaults';

/** One Streamable HTTP server (`url`); `headers` are sent on every request (values may be secrets). */
export interface McpHttpConfig {
  kind: 'http';
  name: string;
  url: string;
  headers: Record<string, string>;
  enabled: boolean;
  /** The entry's `oauth` object; absent = OAuth only when the server asks for it (HTTP 401). */
  oauth?: McpOAuthSettings;
  elicitation?: McpElicitationAnswer;
}

/** One configured MCP server. */
export type McpServerConfig = McpStdioConfig | McpHttpConfig;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function stringMap(file: string, server: string, key: string, value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    throw mcpConfigBroken(file, `server "${server}": "${key}" must be an object of strings`, `write "${key}": {"NAME": "value"} or remove it`);
  }
  return { ...(value as Record<string, string>) };
}

function parseOAuth(file: string, server: string, value: unknown): McpOAuthSettings | undefined {
  if (value === undefined) return undefined;
  const fix = 'write "oauth": {} or {"clientId": "…", "clientMetadataUrl": "https://…", "scope": "…", "redirectPort": 8976}';
  if (!isObject(value)) throw mcpConfigBroken(file, `server "${server}": "oauth" must be an object`, fix);
  const out: McpOAuthSettings = {};
  for (const key of ['clientId', 'clientMetadataUrl', 'scope'] as const) {
    const v = value[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.trim() === '') throw mcpConfigBroken(file, `server "${server}": "oauth.${key}" must be a non-empty string`, fix);
    out[key] = v;
  }
  if (value.clientSecret !== undefined) {
    throw mcpConfigBroken(file, `server "${server}": "oauth.clientSecret" is refused (a secret never lives in mcp.json)`, `remove it and run: fuseforks-cli mcp login ${server} -d DIR --client-secret-stdin`);
  }
  if (out.clientMetadataUrl !== undefined && !/^https:\/\/[^/]+\/./.test(out.clientMetadataUrl)) {
    throw mcpConfigBroken(file, `server "${server}": "oauth.clientMetadataUrl" must be an https URL with a path`, fix);
  }
  const port = value.redirectPort;
  if (port !== undefined) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
      throw mcpConfigBroken(file, `server "${server}": "oauth.redirectPort" must be a port number 0-65535`, fix);
    }
    out.redirectPort = port;
  }
  return out;
}

function parseElicitation(file: string, server: string, value: unknown): McpElicitationAnswer | undefined {
  if (value === undefined) return undefined;
  if (value === 'decline' || value === 'accept-defaults') return value;
  throw mcpConfigBroken(file, `server "${server}": "elicitation" must be "decline" or "accept-defaults"`, 'write "elicitation": "decline" (the default) or "accept-defaults", or remove it');
}

function parseSandbox(file: string, name: string, value: unknown): McpSandbox | null {
  if (value === undefined || value === false) return null;
  if (value === true) return { network: false, readOnly: [] };
  const fix = 'write "sandbox": true, or {"network": false, "readOnly": ["/absolute/folder"]}, or remove it';
  if (!isObject(value)) throw mcpConfigBroken(file, `server "${name}": "sandbox" must be true, false or an object`, fix);
  const network = value.network ?? false;
  const readOnly = value.readOnly ?? [];
  if (typeof network !== 'boolean') throw mcpConfigBroken(file, `server "${name}": "sandbox.network" must be true or false`, fix);
  if (!Array.isArray(readOnly) || !readOnly.every((p) => typeof p === 'string' && p.startsWith('/'))) {
    throw mcpConfigBroken(file, `server "${name}": "sandbox.readOnly" must be an array of absolute folders`, fix);
  }
  return { network, readOnly: [...(readOnly as string[])] };
}

function parseEntry(file: string, name: string, entry: unknown): McpServerConfig {
  if (!isObject(entry)) throw mcpConfigBroken(file, `server "${name}" must be an object`, `write "${name}": {"command": "…"} or {"url": "…"}`);
  if (entry.enabled !== undefined && typeof entry.enabled !== 'boolean') {
    throw mcpConfigBroken(file, `server "${name}": "enabled" must be true or false`, 'write "enabled": true or false, or remove it');
  }
  const enabled = entry.enabled !== false;
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand === hasUrl) {
    throw mcpConfigBroken(
      file,
      hasCommand ? `server "${name}" has both "command" and "url"` : `server "${name}" has neither "command" (stdio) nor "url" (Streamable HTTP)`,
      'give a stdio server a "command" and an HTTP server a "url", not both',
    );
  }
  if (hasCommand) {
    if (typeof entry.command !== 'string' || entry.command.trim() === '') {
      throw mcpConfigBroken(file, `server "${name}": "command" must be a non-empty string`, 'write "command": "npx" (or an absolute path)');
    }
    const args = entry.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
      throw mcpConfigBroken(file, `server "${name}": "args" must be an array of strings`, 'write "args": ["-y", "some-server"]');
    }
    const elicitation = parseElicitation(file, name, entry.elicitation);
    return {
      kind: 'stdio',
      name,
      command: entry.command,
      args: [...(args as string[])],
      env: stringMap(file, name, 'env', entry.env),
      enabled,
      sandbox: parseSandbox(file, name, entry.sandbox),
      ...(elicitation === undefined ? {} : { elicitation }),
    };
  }
  let url: URL | null = null;
  try {
    url = typeof entry.url === 'string' ? new URL(entry.url) : null;
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw mcpConfigBroken(file, `server "${name}": "url" must be an http:// or https:// URL`, 'write "url": "http://127.0.0.1:8080/mcp"');
  }
  const oauth = parseOAuth(file, name, entry.oauth);
  const elicitation = parseElicitation(file, name, entry.elicitation);
  return {
    kind: 'http',
    name,
    url: url.href,
    headers: stringMap(file, name, 'headers', entry.headers),
    enabled,
    ...(oauth === undefined ? {} : { oauth }),
    ...(elicitation === undefined ? {} : { elicitation }),
  };
}

/** Parses the text of one mcp.json; `file` names it in errors. Empty text = no servers. Throws CONFIG_PARSE. */
export function parseMcpConfig(text: string, file: string): McpServerConfig[] {
  if (text.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const at = findJsonError(text);
    const where = at === null ? '' : ` at line ${at.line}, column ${at.column} (${at.reason})`;
    throw mcpConfigBroken(file, `not valid JSON${where}`, 'fix the JSON by hand (the file is left as it is)');
  }
  if (!isObject(value)) throw mcpConfigBroken(file, 'expected a JSON object {"mcpServers": {…}}', 'wrap the servers as {"mcpServers": {…}}');
  if (value.mcpServers === undefined) return [];
  if (!isObject(value.mcpServers)) throw mcpConfigBroken(file, '"mcpServers" must be an object', 'write "mcpServers": {"name": {…}}');
  return Object.entries(value.mcpServers).map(([name, entry]) => parseEntry(file, name, entry));
}

/** Reads and parses one mcp.json; a missing file = no servers. Throws CONFIG_IO (unreadable) or CONFIG_PARSE. */
export async function readMcpConfig(file: string): Promise<McpServerConfig[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw settingsFileUnreadable(file, code, null, error);
  }
  return parseMcpConfig(text, file);
}
