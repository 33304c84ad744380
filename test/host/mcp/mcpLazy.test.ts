/**
 * The SDK is loaded only when a server is actually connected: `ask` on a village without MCP must not pay
 * its ≈0.3 s import. Runs in its own module graph (vitest isolates test files).
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { villagePaths } from '../../../src/core/village/paths.js';
import { McpClientManager } from '../../../src/host/mcp/mcpClientManager.js';
import { mcpSdkLoaded } from '../../../src/host/mcp/mcpConnection.js';

describe('lazy SDK', () => {
  it('a village without mcp.json never loads the SDK', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ff-mcplazy-'));
    try {
      const paths = villagePaths(dir);
      await mkdir(paths.workspace, { recursive: true });
      const manager = new McpClientManager({ paths });
      expect(await manager.connectShared()).toEqual({ statuses: [], loadError: null });
      expect(await manager.openAgent('a1')).toEqual({ statuses: [], loadError: null });
      expect(manager.toolSpecsFor('a1')).toEqual([]);
      await manager.closeAll();
      expect(mcpSdkLoaded()).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('no file of src/host/mcp imports the SDK statically (type imports are erased)', async () => {
    const folder = resolve(import.meta.dirname, '../../../src/host/mcp');
    for (const name of await readdir(folder)) {
      const text = await readFile(join(folder, name), 'utf8');
      const staticValueImports = text.match(/^import\s+(?!type\b)[^;]*from\s+'@modelcontextprotocol\/sdk[^']*'/gm) ?? [];
      expect(staticValueImports, name).toEqual([]);
    }
  });
});
