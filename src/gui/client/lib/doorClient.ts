/**
 * What a person copies to reach the door from an MCP client: a client configuration entry (Streamable HTTP with
 * the bearer token) and a curl line that performs the MCP `initialize` handshake. Pure, so a test pins the text.
 */

/** The door's endpoint on this machine. */
export function doorUrl(port: number): string {
  return `http://127.0.0.1:${port}/mcp`;
}

/** An `mcpServers` entry for MCP clients that speak Streamable HTTP. */
export function clientConfig(port: number, token: string): string {
  const entry = { mcpServers: { fuseforks: { type: 'http', url: doorUrl(port), headers: { Authorization: `Bearer ${token}` } } } };
  return JSON.stringify(entry, null, 2);
}

/** A curl line that opens an MCP session (initialize); the answer names the server and its protocol version. */
export function curlLine(port: number, token: string): string {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  });
  return [
    `curl -sS ${doorUrl(port)}`,
    `-H 'Authorization: Bearer ${token}'`,
    `-H 'Content-Type: application/json'`,
    `-H 'Accept: application/json, text/event-stream'`,
    `-d '${body}'`,
  ].join(' ');
}
