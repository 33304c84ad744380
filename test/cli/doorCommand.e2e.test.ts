/**
 * `fuseforks-cli door …` (built binary): it changes mcp_server.json exactly as the HostApi path the GUI uses does
 * (byte for byte), refuses politely while another process holds the village (file untouched), and answers
 * `status` from the shelf file while held.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { buildHost } from '../../src/host/buildHost.js';
import { HostPaths } from '../../src/host/hostPaths.js';
import { exampleVillage, holdVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps } = useCliSuite();
const SEED = `${JSON.stringify({ port: 39641, token: 'ab'.repeat(16), note: 'kept by hand' }, null, 2)}\n`;

function seeded(): string {
  const dir = exampleVillage(temps);
  writeFileSync(join(dir, 'mcp_server.json'), SEED, { mode: 0o600 });
  return dir;
}

const shelf = (dir: string): string => readFileSync(join(dir, 'mcp_server.json'), 'utf8');

describe('door command (built binary)', () => {
  it('enable --port and disable write the same bytes as HostApi.door (the GUI path)', async () => {
    const viaCli = seeded();
    const viaHost = seeded();
    const on = await runCli(['door', 'enable', '-d', viaCli, '--port', '39777', '--json']);
    expect(on.code, on.stderr).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ enabled: true, port: 39777, listening: false, live: false, hasToken: true });
    const host = await buildHost(new HostPaths(viaHost), {
      appVersion: 'test', secrets: 'env', secretStore: new MemorySecretStore(), runSchedules: false, openDoor: false, env: {},
    });
    try {
      await host.door.setPort(39777);
      await host.door.setEnabled(true);
      expect(shelf(viaCli)).toBe(shelf(viaHost));
      await host.door.setEnabled(false);
    } finally {
      await host.close();
    }
    expect((await runCli(['door', 'disable', '-d', viaCli, '-q'])).code).toBe(0);
    expect(shelf(viaCli)).toBe(shelf(viaHost));
    expect(JSON.parse(shelf(viaCli))).toMatchObject({ enabled: false, note: 'kept by hand', token: 'ab'.repeat(16) });
  });

  it('token prints the token; --rotate makes a new one, nothing else changes', async () => {
    const dir = seeded();
    const shown = await runCli(['door', 'token', '-d', dir]);
    expect(shown.stdout).toBe(`${'ab'.repeat(16)}\n`);
    const rotated = await runCli(['door', 'token', '-d', dir, '--rotate', '--json']);
    const token = (JSON.parse(rotated.stdout) as { token: string }).token;
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(token).not.toBe('ab'.repeat(16));
    expect(JSON.parse(shelf(dir))).toEqual({ port: 39641, token, note: 'kept by hand', enabled: false });
  });

  it('refuses to change a village another process holds (exit 4, file untouched); status still answers', async () => {
    const dir = seeded();
    const holder = await holdVillage(dir);
    try {
      const refused = await runCli(['door', 'enable', '-d', dir]);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain('error [LOCK_HELD] door enable changes this village');
      expect(refused.stdout).toBe('');
      expect(shelf(dir)).toBe(SEED);
      const status = await runCli(['door', 'status', '-d', dir]);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain('door: off');
      expect(status.stdout).toContain('open in another process');
    } finally {
      await holder.release();
    }
  });
});
