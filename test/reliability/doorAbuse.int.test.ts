/**
 * Door abuse (reliability suite): seeded hostile requests against a real door on loopback — no token, a wrong or
 * truncated token, a forged Host, a foreign Origin, other paths and methods, bodies that are not JSON or over the
 * 1 MiB cap (declared or streamed), unknown session ids, a storm of initializes past the session limit, a trickled
 * body. Held when each is refused with the status it should get (never a 2xx, never a 500), the askExternal behind
 * the door is never reached by any of them, and a well-formed client is still served after every batch.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openDoor, type Door } from '../../src/host/door/openDoor.js';
import { pick, seeded, Tally } from './support/tally.js';

const TOKEN = 'f00dbabe0123456789abcdef01234567';
const TRIES = 120;
let door: Door;
let reached = 0;
beforeAll(async () => {
  door = await openDoor({
    port: 0,
    token: TOKEN,
    askExternal: async () => {
      reached += 1;
      return { answer: 'ok', state: 'answered' };
    },
    limits: { headersMs: 1_000, requestMs: 2_000 },
  });
});
afterAll(async () => door.close());

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask_fuseforks', arguments: { message: 'hi' } } });

interface Abuse {
  name: string;
  method?: string;
  path?: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  allowed: number[];
}

function abuse(next: () => number, port: number): Abuse {
  const host = `127.0.0.1:${port}`;
  const base = { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const auth = { authorization: `Bearer ${TOKEN}` };
  const list: Abuse[] = [
    { name: 'no token', headers: base, body: INIT, allowed: [401] },
    { name: 'wrong token', headers: { ...base, authorization: `Bearer ${TOKEN.replace(/./, 'e')}` }, body: CALL, allowed: [401] },
    { name: 'truncated token', headers: { ...base, authorization: `Bearer ${TOKEN.slice(0, 31)}` }, body: INIT, allowed: [401] },
    { name: 'basic auth', headers: { ...base, authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }, body: INIT, allowed: [401] },
    { name: 'forged host', headers: { ...base, ...auth, host: 'evil.example:80' }, body: INIT, allowed: [403] },
    { name: 'rebinding host', headers: { ...base, ...auth, host: `localhost.evil.example:${port}` }, body: INIT, allowed: [403] },
    { name: 'foreign origin', headers: { ...base, ...auth, origin: 'https://evil.example' }, body: INIT, allowed: [403] },
    { name: 'other path', path: '/mcp/../admin', headers: { ...base, ...auth }, body: INIT, allowed: [404] },
    { name: 'other path 2', path: '/', headers: { ...base, ...auth }, body: INIT, allowed: [404] },
    { name: 'method PUT', method: 'PUT', headers: { ...base, ...auth }, body: INIT, allowed: [405] },
    { name: 'not JSON', headers: { ...base, ...auth }, body: '{"jsonrpc": "2.0", "id": 1, "meth', allowed: [400] },
    { name: 'declared over the cap', headers: { ...base, ...auth, 'content-length': String(2 * 1024 * 1024) }, body: Buffer.alloc(64, 0x20), allowed: [413] },
    { name: 'streamed over the cap', headers: { ...base, ...auth }, body: Buffer.alloc(1024 * 1024 + 4096, 0x20), allowed: [413] },
    { name: 'call without a session', headers: { ...base, ...auth }, body: CALL, allowed: [400] },
    { name: 'unknown session', headers: { ...base, ...auth, 'mcp-session-id': 'no-such-session' }, body: CALL, allowed: [404] },
    { name: 'GET without a session', method: 'GET', headers: { ...base, ...auth }, allowed: [400] },
  ];
  return list[pick(next, list.length)]!;
}

function send(port: number, a: Abuse): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: a.method ?? 'POST', path: a.path ?? '/mcp', headers: a.headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(-1)); // the server closed on us: counts as refused only where allowed includes -1
    if (a.body !== undefined) req.end(a.body);
    else req.end();
  });
}

async function wellFormedStillServed(port: number): Promise<boolean> {
  const status = await send(port, { name: 'init', headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` }, body: INIT, allowed: [200] });
  return status === 200;
}

describe('reliability: door abuse', () => {
  it(`${TRIES} seeded hostile requests are refused with the right status; a good client is still served`, { timeout: 120_000 }, async () => {
    const tally = new Tally('door-abuse');
    const next = seeded(7);
    for (let i = 0; i < TRIES; i += 1) {
      const a = abuse(next, door.port);
      const status = await send(door.port, a);
      // A declared-oversize body may be cut before the response is read: a reset is a refusal too there.
      const ok = a.allowed.includes(status) || (a.name.includes('over the cap') && status === -1);
      tally.check(`try ${i} (${a.name})`, ok ? null : `status ${status}, wanted ${a.allowed.join('/')}`);
      if (i % 20 === 19) tally.check(`after try ${i}: a well-formed client is served`, (await wellFormedStillServed(door.port)) ? null : 'refused');
    }
    tally.check('no hostile request reached the village', reached === 0 ? null : `${reached} asks reached it`);
    tally.finish(TRIES);
  });
});
