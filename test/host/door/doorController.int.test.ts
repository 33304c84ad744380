/**
 * The door's host methods over a real shelf file and real loopback HTTP: switching it on writes the file (0600,
 * a fresh token, unknown keys kept) and opens the door at once; a new token locks the old one out; a new port
 * moves the door; switching off closes it; an unreadable file is never overwritten. A host that does not serve
 * only writes the file.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../cli/support/cliProcess.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isFuseforksError } from '../../../src/core/errors.js';
import { DoorController } from '../../../src/host/door/doorController.js';
import type { AskExternal } from '../../../src/host/door/openDoor.js';

const askExternal: AskExternal = async (client, message) => ({ answer: `${client}:${message}`, state: 'answered' });
const INIT = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** An MCP initialize with `token`: the HTTP status, or 'refused' when nothing listens. */
function initialize(port: number, token: string): Promise<number | 'refused'> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1', port, method: 'POST', path: '/mcp',
        headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', () => resolve('refused'));
    req.end(INIT);
  });
}

describe('DoorController', () => {
  let dir = '';
  let file = '';
  let door: DoorController | null = null;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ff-doorctl-'));
    file = join(dir, 'mcp_server.json');
  });
  afterEach(async () => {
    await door?.close();
    door = null;
    await rm(dir, { recursive: true, force: true });
  });

  it('on → file written (0600, token, unknown keys kept) and listening; rotate locks the old token out; off → closed', async () => {
    const port = await freePort();
    await writeFile(file, JSON.stringify({ port, note: 'kept by hand' }));
    door = new DoorController(file, true, { askExternal });
    expect(await door.open()).toMatchObject({ enabled: false, listening: false, hasToken: false, live: true });

    const on = await door.setEnabled(true);
    expect(on).toMatchObject({ enabled: true, listening: true, port, lastError: null, blocked: false, hasToken: true });
    const saved = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ enabled: true, port, note: 'kept by hand' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const first = await door.token();
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(on)).not.toContain(first);
    expect(await initialize(port, first!)).toBe(200);

    const second = await door.rotateToken();
    expect(second).not.toBe(first);
    expect(await initialize(port, first!)).toBe(401);
    expect(await initialize(port, second)).toBe(200);

    expect(await door.setEnabled(false)).toMatchObject({ enabled: false, listening: false, hasToken: true });
    expect(await initialize(port, second)).toBe('refused');
    // Switching on again keeps the token it has.
    await door.setEnabled(true);
    expect(await door.token()).toBe(second);
  });

  it('a new port moves a listening door there', async () => {
    const [a, b] = [await freePort(), await freePort()];
    await writeFile(file, JSON.stringify({ enabled: true, port: a }));
    door = new DoorController(file, true, { askExternal });
    expect(await door.open()).toMatchObject({ listening: true, port: a });
    const token = (await door.token())!;
    expect(await door.setPort(b)).toMatchObject({ listening: true, port: b });
    expect(await initialize(b, token)).toBe(200);
    expect(await initialize(a, token)).toBe('refused');
    expect(JSON.parse(await readFile(file, 'utf8')).port).toBe(b);
    await expect(door.setPort(70_000)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('an unreadable file is never overwritten: every change is refused with its reason, status says blocked', async () => {
    await writeFile(file, '{"enabled": tru');
    door = new DoorController(file, true, { askExternal });
    expect(await door.open()).toMatchObject({ listening: false, blocked: true });
    for (const attempt of [() => door!.setEnabled(true), () => door!.rotateToken(), () => door!.setPort(4000), () => door!.token()]) {
      const error = await attempt().then(() => null, (e: unknown) => e);
      expect(isFuseforksError(error) && error.code).toBe('CONFIG_PARSE');
      expect((error as Error).message).toContain(file);
    }
    expect(await readFile(file, 'utf8')).toBe('{"enabled": tru');
    expect((await door.status()).lastError).toMatch(/not valid JSON/);
  });

  it('a host that does not serve only writes the file', async () => {
    const port = await freePort();
    await writeFile(file, JSON.stringify({ port }));
    door = new DoorController(file, false, { askExternal });
    expect(await door.setEnabled(true)).toMatchObject({ enabled: true, listening: false, live: false, hasToken: true });
    expect(await initialize(port, (await door.token())!)).toBe('refused');
  });
});
