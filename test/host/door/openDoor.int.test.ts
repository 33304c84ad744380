/**
 * The door over real loopback HTTP, driven by the SDK's real client (StreamableHTTPClientTransport) and by raw
 * `http.request` (fetch drops a forged Host header). The injected askExternal implements the supervisor's
 * one-at-a-time gate (EXTERNAL_BUSY at once, never queued).
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FuseforksError } from '../../../src/core/errors.js';
import { DOOR_SERVER_NAME, DOOR_TOOL_NAME, openDoor, type AskExternal, type Door } from '../../../src/host/door/openDoor.js';
import { pollUntil } from '../../support/pollUntil.js';

const TOKEN = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const INIT = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

interface Raw { status: number; body: string }
function raw(port: number, opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean }): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...opts.headers,
    };
    const req = request({ host: '127.0.0.1', port, method: opts.method ?? 'POST', path: opts.path ?? '/mcp', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.end(opts.body);
    else req.end();
  });
}

async function sdkClient(port: number, name: string, token = TOKEN): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

describe('openDoor', () => {
  let door: Door;
  let release: (() => void) | null = null;
  const asked: Array<{ client: string; message: string }> = [];
  const errors: unknown[] = [];
  let busy = false;
  const askExternal: AskExternal = async (client, message) => {
    if (busy) throw new FuseforksError('EXTERNAL_BUSY', 'another external request is in progress; one at a time', { fix: 'wait and ask again' });
    if (message === 'unset') throw new FuseforksError('EXTERNAL_RECEPTION_UNSET', 'no reception agent is set in world.json');
    busy = true;
    try {
      asked.push({ client, message });
      if (message === 'slow') await new Promise<void>((r) => (release = r));
      return { answer: `answer to ${client}: ${message}`, state: 'answered' };
    } finally {
      busy = false;
    }
  };

  beforeAll(async () => {
    door = await openDoor({ port: 0, token: TOKEN, askExternal, onError: (e) => errors.push(e) });
  });
  afterAll(async () => {
    release?.();
    await door?.close();
  });

  it('no token → bare 401; wrong token → the same bare 401', async () => {
    const none = await raw(door.port, { body: INIT });
    const wrong = await raw(door.port, { body: INIT, headers: { authorization: `Bearer ${'0'.repeat(32)}` } });
    expect(none).toEqual({ status: 401, body: '' });
    expect(wrong).toEqual({ status: 401, body: '' });
  });

  it('forged Host → 403; foreign Origin → 403; other path → 404 (even with the token)', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await raw(door.port, { body: INIT, headers: { ...auth, host: 'evil.example' } })).status).toBe(403);
    expect((await raw(door.port, { body: INIT, headers: { ...auth, host: `evil.example:${door.port}` } })).status).toBe(403);
    expect((await raw(door.port, { body: INIT, headers: { ...auth, origin: 'http://evil.example' } })).status).toBe(403);
    expect((await raw(door.port, { body: INIT, path: '/', headers: auth })).status).toBe(404);
    // The allowed origin and host pass to the MCP layer.
    expect((await raw(door.port, { body: INIT, headers: { ...auth, origin: `http://localhost:${door.port}`, host: `localhost:${door.port}` } })).status).toBe(200);
  });

  it('a body over 1 MiB → 413, declared or streamed', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const big = Buffer.alloc(1024 * 1024 + 10, 0x20);
    expect((await raw(door.port, { body: big, headers: auth })).status).toBe(413);
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: door.port, method: 'POST', path: '/mcp', headers: { ...auth, host: `127.0.0.1:${door.port}`, 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 20; i += 1) req.write(Buffer.alloc(64 * 1024, 0x20));
      req.end();
    });
    expect(streamed).toBe(413);
  });

  it('ask_fuseforks through the SDK client returns the answer; the client name is clientInfo.name', async () => {
    const client = await sdkClient(door.port, 'claude-code');
    try {
      expect(client.getServerVersion()?.name).toBe(DOOR_SERVER_NAME);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([DOOR_TOOL_NAME]);
      expect(Object.keys((tools[0]?.inputSchema as { properties: object }).properties)).toEqual(['message']);
      const result = await client.callTool({ name: DOOR_TOOL_NAME, arguments: { message: 'hello village' } });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: 'answer to claude-code: hello village' }]);
      expect(asked.at(-1)).toEqual({ client: 'claude-code', message: 'hello village' });
    } finally {
      await client.close();
    }
  });

  it('a concurrent call gets EXTERNAL_BUSY as a tool error; pre-delivery errors carry their message', async () => {
    const first = await sdkClient(door.port, 'first');
    const second = await sdkClient(door.port, 'second');
    try {
      const slow = first.callTool({ name: DOOR_TOOL_NAME, arguments: { message: 'slow' } });
      expect(await pollUntil(() => release !== null, { everyMs: 10 }), 'the first call reached the reception').toBe(true);
      const refused = await second.callTool({ name: DOOR_TOOL_NAME, arguments: { message: 'me too' } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('EXTERNAL_BUSY');
      expect(JSON.stringify(refused.content)).toContain('one at a time');
      release?.();
      release = null;
      expect((await slow).content).toEqual([{ type: 'text', text: 'answer to first: slow' }]);
      const unset = await second.callTool({ name: DOOR_TOOL_NAME, arguments: { message: 'unset' } });
      expect(unset.isError).toBe(true);
      expect(JSON.stringify(unset.content)).toContain('no reception agent is set');
      expect(errors).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('the SDK client with a wrong token cannot connect', async () => {
    await expect(sdkClient(door.port, 'intruder', 'f'.repeat(32))).rejects.toThrow();
  });

  it('a busy port is a rejected open (ON but not listening), not a crash', async () => {
    await expect(openDoor({ port: door.port, token: TOKEN, askExternal })).rejects.toMatchObject({ code: 'MCP_FAILED' });
  });

  it('nothing listens on a non-loopback address', async (ctx) => {
    const external = Object.values(networkInterfaces()).flat().find((i) => i !== undefined && i.family === 'IPv4' && !i.internal);
    if (external === undefined) return ctx.skip();
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect({ host: external.address, port: door.port });
      socket.once('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(outcome).toBe('ECONNREFUSED');
  });
});
