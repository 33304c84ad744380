/**
 * The one public host surface on a real village (buildHost, real workers from dist/, the echo model): what a face
 * gets is `HostApi` and nothing that reaches actors; the door a serving host opens answers through the host's own
 * askExternal, switched on and off live through `host.door`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort } from '../cli/support/cliProcess.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { buildHost } from '../../src/host/buildHost.js';
import type { HostApi } from '../../src/host/hostApi.js';
import { HostPaths } from '../../src/host/hostPaths.js';
import { agent, template, world } from '../actors/support/villageFixture.js';

let dir = '';
let host: HostApi | null = null;

afterEach(async () => {
  await host?.close();
  host = null;
  rmSync(dir, { recursive: true, force: true });
});

async function boot(openDoor: boolean, port = 0): Promise<HostApi> {
  dir = mkdtempSync(join(tmpdir(), 'ff-hostapi-'));
  const w = world([agent('front'), agent('helper')], { reception: 'front' });
  w.modelTemplates = [template({ provider: 'echo', baseUrl: '', model: 'echo' })];
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  writeFileSync(join(dir, 'workspace/world.json'), JSON.stringify(w));
  if (port !== 0) writeFileSync(join(dir, 'mcp_server.json'), JSON.stringify({ port }));
  host = await buildHost(new HostPaths(dir), {
    appVersion: 'test', secrets: 'env', secretStore: new MemorySecretStore(), runSchedules: false, openDoor, env: {}, closeGraceMs: 5_000,
  });
  return host;
}

describe('HostApi', () => {
  it('hands out no supervisor, worker or store: only the documented surface', async () => {
    const h = await boot(false);
    expect('supervisor' in h).toBe(false);
    expect(Object.keys(h).sort()).toEqual(['approvals', 'blackboard', 'dataDir', 'door', 'evals', 'events', 'files', 'jev', 'log', 'pricing', 'village']);
    expect(h.dataDir).toBe(dir);
    expect(h.agents().map((a) => [a.agentId, a.status])).toEqual([['front', 'idle'], ['helper', 'idle']]);
    expect(h.village.state().world.reception).toBe('front');
    expect(h.approvals.list()).toEqual({ requests: [], broken: [] });
    expect(await h.files.readAgentFile('front', 'skill')).toMatchObject({ agentId: 'front', kind: 'skill' });
    expect(h.listSessions().map((s) => s.id)).toContain(h.sessionId());
  }, 30_000);

  it('a serving host opens the door live; MCP clients are answered through host.askExternal', async () => {
    const port = await freePort();
    const h = await boot(true, port);
    await h.startSet(['front']);
    expect(await h.door.status()).toMatchObject({ enabled: false, listening: false, live: true });
    expect(await h.door.setEnabled(true)).toMatchObject({ enabled: true, listening: true, port });
    const token = await h.door.token();

    const client = new Client({ name: 'door-client', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }));
    try {
      const result = await client.callTool({ name: 'ask_fuseforks', arguments: { message: 'through the door' } });
      const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
      expect(result.isError).toBeFalsy();
      expect(text).toContain('through the door');
      expect(h.messages().some((m) => m.from.kind === 'external' && m.from.client === 'door-client')).toBe(true);
    } finally {
      await client.close();
    }
    expect(await h.door.setEnabled(false)).toMatchObject({ enabled: false, listening: false });
  }, 30_000);
});
