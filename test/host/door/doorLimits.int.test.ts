/**
 * The door under abuse (issue 19), over real loopback sockets with short limits: a client that trickles its headers
 * or its body is cut with 408 instead of holding a connection for ever; a 17th MCP session is refused with a clear
 * JSON-RPC error instead of silently evicting the oldest; a session that stays idle is closed; and a tool call in
 * flight at shutdown gets an error result (DOOR_CLOSING) on its stream, never an empty 200.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { DOOR_MAX_SESSIONS, DOOR_TOOL_NAME, openDoor, type AskExternal, type Door } from '../../../src/host/door/openDoor.js';

const TOKEN = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const INIT = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const doors: Door[] = [];
afterEach(async () => {
  for (const door of doors.splice(0)) await door.close();
});

async function open(askExternal: AskExternal, limits: Parameters<typeof openDoor>[0]['limits'] = {}): Promise<Door> {
  const door = await openDoor({ port: 0, token: TOKEN, askExternal, limits });
  doors.push(door);
  return door;
}

const answer: AskExternal = async (client, message) => ({ answer: `${client}: ${message}`, state: 'answered' });

/** Writes `head`, then `trickle` one byte at a time every `everyMs`; resolves with what the server sent back and when it closed. */
function slowClient(port: number, head: string, trickle: string, everyMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let got = '';
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (got += d));
    socket.on('close', () => {
      clearInterval(timer);
      resolve(got);
    });
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(head);
      let i = 0;
      timer = setInterval(() => {
        if (i < trickle.length && !socket.destroyed) socket.write(trickle[i++]!);
      }, everyMs);
    });
  });
}

function rawInit(port: number): Promise<{ status: number; body: string; session: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1', port, method: 'POST', path: '/mcp',
        headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, session: res.headers['mcp-session-id'] as string | undefined }));
      },
    );
    req.on('error', reject);
    req.end(INIT);
  });
}

describe('door limits', () => {
  it('a request whose body trickles in is cut with 408 at the request limit (the connection does not stay open)', async () => {
    const door = await open(answer, { headersMs: 500, requestMs: 1_000 });
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${door.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${INIT.length}\r\n\r\n`;
    const got = await slowClient(door.port, head, INIT, 200);
    expect(got).toMatch(/^HTTP\/1\.1 408/);
  });

  it('headers that never finish are cut with 408 at the header limit', async () => {
    const door = await open(answer, { headersMs: 500, requestMs: 1_000 });
    const got = await slowClient(door.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${door.port}\r\n`, 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 150);
    expect(got).toMatch(/^HTTP\/1\.1 408/);
  });

  it(`a ${DOOR_MAX_SESSIONS + 1}th session is refused with a JSON-RPC error that says what to do; no open session is evicted`, async () => {
    const door = await open(answer);
    const ids: string[] = [];
    for (let i = 0; i < DOOR_MAX_SESSIONS; i += 1) {
      const init = await rawInit(door.port);
      expect(init.status).toBe(200);
      ids.push(init.session!);
    }
    const refused = await rawInit(door.port);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: -32000, message: expect.stringMatching(new RegExp(`${DOOR_MAX_SESSIONS} open MCP sessions.*DELETE`)) } });
    // The first session is still there: a request on it is not "No valid session".
    const first = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: door.port, method: 'DELETE', path: '/mcp', headers: { host: `127.0.0.1:${door.port}`, authorization: `Bearer ${TOKEN}`, 'mcp-session-id': ids[0]! } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(first).toBe(200);
    // With one closed, a new session is accepted again.
    expect((await rawInit(door.port)).status).toBe(200);
  });

  it('a session idle past its limit is closed, which makes room for a new one', async () => {
    const door = await open(answer, { sessionIdleMs: 400 });
    for (let i = 0; i < DOOR_MAX_SESSIONS; i += 1) expect((await rawInit(door.port)).status).toBe(200);
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i += 1) {
      await sleep(100);
      status = (await rawInit(door.port)).status;
    }
    expect(status).toBe(200);
  });

  it('a tool call in flight at shutdown gets a DOOR_CLOSING error result, not an empty stream', async () => {
    let asked: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (asked = resolve));
    const door = await open(async () => {
      asked();
      return new Promise(() => undefined); // the village never answers before the shutdown
    });
    const client = new Client({ name: 'late', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${door.port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    const call = client.callTool({ name: DOOR_TOOL_NAME, arguments: { message: 'are you there' } });
    await arrived;
    doors.splice(doors.indexOf(door), 1);
    const closed = door.close();
    const result = await call;
    await closed;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('DOOR_CLOSING');
    expect(JSON.stringify(result.content)).toMatch(/shutting down.*send it again/);
    await client.close().catch(() => undefined);
  });
});
