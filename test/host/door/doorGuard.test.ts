import { describe, expect, it } from 'vitest';
import { bearerMatches, checkDoorRequest, DOOR_MAX_BODY_BYTES, type DoorRequestFacts } from '../../../src/host/door/doorGuard.js';

const TOKEN = '0123456789abcdef0123456789abcdef';
const PORT = 39641;
const good: DoorRequestFacts = { url: '/mcp', host: `127.0.0.1:${PORT}`, origin: undefined, authorization: `Bearer ${TOKEN}`, contentLength: '10' };

describe('checkDoorRequest', () => {
  it.each<{ name: string; change: Partial<DoorRequestFacts>; want: number | 'ok' }>([
    { name: 'a good request', change: {}, want: 'ok' },
    { name: 'localhost host', change: { host: `localhost:${PORT}` }, want: 'ok' },
    { name: 'IPv6 loopback host', change: { host: `[::1]:${PORT}` }, want: 'ok' },
    { name: 'host case does not matter', change: { host: `LOCALHOST:${PORT}` }, want: 'ok' },
    { name: 'query string on /mcp', change: { url: '/mcp?x=1' }, want: 'ok' },
    { name: 'allowed origin', change: { origin: `http://localhost:${PORT}` }, want: 'ok' },
    { name: 'other path', change: { url: '/' }, want: 404 },
    { name: 'sub path', change: { url: '/mcp/x' }, want: 404 },
    { name: 'management route: agents', change: { url: '/manage/agents' }, want: 'ok' },
    { name: 'management route: run-now', change: { url: '/manage/schedules/run-now' }, want: 'ok' },
    { name: 'management route without the token', change: { url: '/manage/agents', authorization: undefined }, want: 401 },
    { name: 'management route from a foreign origin', change: { url: '/manage/schedules/run-now', origin: 'http://evil.example' }, want: 403 },
    { name: 'unknown management path', change: { url: '/manage/other' }, want: 404 },
    { name: 'forged host', change: { host: 'evil.example' }, want: 403 },
    { name: 'loopback host, wrong port', change: { host: '127.0.0.1:1' }, want: 403 },
    { name: 'host without port', change: { host: '127.0.0.1' }, want: 403 },
    { name: 'missing host', change: { host: undefined }, want: 403 },
    { name: 'foreign origin', change: { origin: 'http://evil.example' }, want: 403 },
    { name: 'https origin on the port', change: { origin: `https://127.0.0.1:${PORT}` }, want: 403 },
    { name: 'null origin', change: { origin: 'null' }, want: 403 },
    { name: 'no token', change: { authorization: undefined }, want: 401 },
    { name: 'wrong token', change: { authorization: `Bearer ${'f'.repeat(32)}` }, want: 401 },
    { name: 'token without scheme', change: { authorization: TOKEN }, want: 401 },
    { name: 'basic scheme', change: { authorization: `Basic ${TOKEN}` }, want: 401 },
    { name: 'declared body over the cap', change: { contentLength: String(DOOR_MAX_BODY_BYTES + 1) }, want: 413 },
    { name: 'declared body at the cap', change: { contentLength: String(DOOR_MAX_BODY_BYTES) }, want: 'ok' },
  ])('$name → $want', ({ change, want }) => {
    const verdict = checkDoorRequest({ ...good, ...change }, PORT, TOKEN);
    expect(verdict.ok ? 'ok' : verdict.status).toBe(want);
  });
});

describe('bearerMatches', () => {
  it.each([
    { header: `Bearer ${TOKEN}`, want: true },
    { header: `bearer ${TOKEN}`, want: true },
    { header: `Bearer  ${TOKEN}`, want: true },
    { header: `Bearer ${TOKEN}x`, want: false },
    { header: 'Bearer ', want: false },
    { header: '', want: false },
  ])('$header → $want', ({ header, want }) => {
    expect(bearerMatches(header, TOKEN)).toBe(want);
  });
  it('an empty configured token matches nothing', () => {
    expect(bearerMatches('Bearer ', '')).toBe(false);
  });
});
