/**
 * The client manager against a real stdio MCP server listing 300 tools and two bad schemas
 * (test/fixtures/mcp/manyToolsServer.mjs): the bad ones are dropped with a WARN naming server and tool, 128 tools
 * are kept in name order, and the server's status lists exactly what the agents are offered.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryDiagSink } from '../../../src/core/diag.js';
import { MAX_TOOLS_PER_AGENT } from '../../../src/core/turn/promptCaps.js';
import { villagePaths } from '../../../src/core/village/paths.js';
import { McpClientManager } from '../../../src/host/mcp/mcpClientManager.js';

const MANY = resolve(import.meta.dirname, '../../fixtures/mcp/manyToolsServer.mjs');

describe('McpClientManager: tool schemas and the tool cap (real stdio server)', () => {
  let dir = '';
  let manager: McpClientManager | null = null;
  afterAll(async () => {
    await manager?.closeAll();
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('drops bad schemas by name, keeps 128 in name order, status shows what is offered', { timeout: 60_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'ff-mcpcap-'));
    const paths = villagePaths(dir);
    await mkdir(paths.workspace, { recursive: true });
    await writeFile(paths.mcp, JSON.stringify({ mcpServers: { many: { command: process.execPath, args: [MANY, '--count', '300', '--bad'] } } }));
    const diag = new MemoryDiagSink();
    manager = new McpClientManager({ paths, diag, parentEnv: process.env });
    const report = await manager.connectShared();
    const specs = manager.toolSpecsFor('anyone');
    expect(specs).toHaveLength(MAX_TOOLS_PER_AGENT);
    expect(specs[0]?.name).toBe('many__t00000');
    expect(specs.at(-1)?.name).toBe('many__t00127');
    expect(report.statuses[0]?.tools).toEqual(specs.map((s) => s.name));
    const bad = diag.notes.filter((n) => n.kind === 'mcp tool schema invalid');
    expect(bad.map((n) => [n.fields['server'], n.fields['tool'], n.level])).toEqual([
      ['many', 'bogus_type', 'warn'],
      ['many', 'dangling_ref', 'warn'],
    ]);
    const over = diag.notes.find((n) => n.kind === 'mcp tools over cap');
    expect(over?.fields).toMatchObject({ kept: 128, dropped: 302 - 2 - 128, first_dropped: 'many__t00128' });
  });
});
