import { describe, expect, it } from 'vitest';
import { clientConfig, curlLine, doorUrl } from '../../../src/gui/client/lib/doorClient.js';

describe('what a person copies to reach the door', () => {
  const token = '0123456789abcdef0123456789abcdef';

  it('a Streamable HTTP client entry with the bearer token', () => {
    expect(doorUrl(40123)).toBe('http://127.0.0.1:40123/mcp');
    expect(JSON.parse(clientConfig(40123, token))).toEqual({
      mcpServers: { fuseforks: { type: 'http', url: 'http://127.0.0.1:40123/mcp', headers: { Authorization: `Bearer ${token}` } } },
    });
  });

  it('a curl line that sends MCP initialize with the token and both accepted types', () => {
    const line = curlLine(40123, token);
    expect(line.startsWith('curl -sS http://127.0.0.1:40123/mcp ')).toBe(true);
    expect(line).toContain(`-H 'Authorization: Bearer ${token}'`);
    expect(line).toContain(`-H 'Accept: application/json, text/event-stream'`);
    const body = JSON.parse(/-d '(.*)'$/.exec(line)![1]!) as { method: string };
    expect(body.method).toBe('initialize');
  });
});
