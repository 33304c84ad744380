import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AskExternal } from '../../../src/host/door/openDoor.js';
import { openShelfDoor } from '../../../src/host/door/shelfDoor.js';

const askExternal: AskExternal = async (client, message) => ({ answer: `${client}:${message}`, state: 'answered' });

async function holdPort(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return server;
}
const portOf = (s: Server): number => (s.address() as { port: number }).port;

describe('openShelfDoor', () => {
  let dir = '';
  let file = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ff-shelfdoor-'));
    file = join(dir, 'mcp_server.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('missing file → closed, no line', async () => {
    const out = await openShelfDoor(file, { askExternal });
    expect(out).toEqual({ door: null, status: { enabled: false, listening: false, port: 39641, lastError: null, blocked: false }, startupLine: null });
  });

  it('enabled by hand without a token → a token is saved, the door listens, the line names the port', async () => {
    const probe = await holdPort();
    const port = portOf(probe);
    await new Promise<void>((r) => probe.close(() => r()));
    await writeFile(file, JSON.stringify({ enabled: true, port }));
    const out = await openShelfDoor(file, { askExternal });
    try {
      expect(out.status).toEqual({ enabled: true, listening: true, port, lastError: null, blocked: false });
      expect(out.startupLine).toBe(`mcp server: 127.0.0.1:${port}/mcp`);
      expect(JSON.parse(await readFile(file, 'utf8')).token).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      await out.door?.close();
    }
  });

  it('a busy port → enabled but not listening, with lastError (not a crash)', async () => {
    const held = await holdPort();
    try {
      await writeFile(file, JSON.stringify({ enabled: true, port: portOf(held), token: 'ab'.repeat(16) }));
      const out = await openShelfDoor(file, { askExternal });
      expect(out.door).toBeNull();
      expect(out.status).toMatchObject({ enabled: true, listening: false, blocked: false });
      expect(out.status.lastError).toMatch(/EADDRINUSE/);
      expect(out.startupLine).toBeNull();
    } finally {
      await new Promise<void>((r) => held.close(() => r()));
    }
  });

  it('a broken file → blocked and closed; the file is left as it is', async () => {
    await writeFile(file, '{"enabled": true');
    const out = await openShelfDoor(file, { askExternal });
    expect(out.status).toMatchObject({ enabled: false, listening: false, blocked: true });
    expect(await readFile(file, 'utf8')).toBe('{"enabled": true');
  });
});
