/**
 * A stdio MCP server whose mcp.json entry says `"sandbox"` runs in the OS sandbox of `run` (issue 27): the real SDK
 * fixture server, started through McpConnection from a parsed entry, sees its declared env only, its own PID
 * namespace, an empty home and no host folder beyond the system ones and `readOnly`. The same entry without
 * `"sandbox"` sees the host (the checks can fail).
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../../src/host/mcp/mcpConfig.js';
import { McpConnection } from '../../../src/host/mcp/mcpConnection.js';

const REPO = resolve(import.meta.dirname, '../../..');
const STDIO = resolve(REPO, 'test/fixtures/mcp/stdioServer.mjs');

async function ask(sandbox: unknown, tool: string): Promise<string> {
  const entry = { command: process.execPath, args: [STDIO], env: { DECLARED_ONE: 'yes' }, ...(sandbox === undefined ? {} : { sandbox }) };
  const [config] = parseMcpConfig(JSON.stringify({ mcpServers: { fx: entry } }), 'mcp.json');
  const parentEnv = { ...process.env, FUSEFORKS_SECRET_MCPX: 'sk-mcp-sentinel', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/tmp/ff-mcp-bus' };
  const connection = await McpConnection.open(config!, { parentEnv });
  try {
    const result = await connection.call(tool, {}, new AbortController().signal);
    return JSON.stringify(result.content);
  } finally {
    await connection.close();
  }
}

describe('stdio MCP servers in the sandbox', () => {
  it('"sandbox" with the repository read-only: declared env only, a PID namespace of its own', { timeout: 60_000 }, async () => {
    const sandbox = { readOnly: [REPO] };
    const names = await ask(sandbox, 'env_names');
    expect(names).toContain('DECLARED_ONE');
    expect(names).not.toContain('FUSEFORKS_SECRET_MCPX');
    expect(names).not.toContain('DBUS_SESSION_BUS_ADDRESS');
    const pid = Number(JSON.parse(await ask(sandbox, 'pid'))[0].text);
    expect(pid).toBeLessThan(10);
  });

  it('"sandbox": true without readOnly sees no script outside the system folders: the server cannot start', { timeout: 60_000 }, async () => {
    await expect(ask(true, 'pid')).rejects.toThrow();
  });

  it('without "sandbox" the same server sees the host (pid and environment of the host)', { timeout: 60_000 }, async () => {
    const pid = Number(JSON.parse(await ask(undefined, 'pid'))[0].text);
    expect(pid).toBeGreaterThan(10);
  });
});
