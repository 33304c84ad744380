/**
 * GUI intruders (reliability suite): seeded requests from another local program against a real `fuseforks-cli gui`
 * whose browser session exists — everything such a program can get without the user's files: no credential, random,
 * truncated or padded tokens, the token where the old GUI took it (`?t=`), a spent ticket, made-up tickets, the
 * session cookie alone (what another port on 127.0.0.1 is sent), the cookie with a wrong key, the key alone, a forged
 * Host, a foreign or `null` Origin — aimed at the routes that start processes or reveal secrets (PUT /api/mcp, MCP
 * reload, the run policy, the door token, the event stream, the state). Held when each is refused (401/403, never a
 * 2xx), nothing was written, and the real session still works after every batch.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { request, requireGuiBuild, startGui, waitBoot, type GuiChild } from '../gui/support/guiChild.js';
import { pick, seeded, Tally } from './support/tally.js';

const TRIES = 120;
let dir: string;
let gui: GuiChild;
/** The browser's session, traded from the printed URL (whose ticket is spent from then on). */
let cookie: string;
let key: string;
let spentTicket: string;

beforeAll(async () => {
  requireGuiBuild();
  dir = mkdtempSync(join(tmpdir(), 'ff-rel-gui-'));
  gui = await startGui(dir);
  await waitBoot(gui.port, gui.token);
  spentTicket = new URL(gui.printedUrl).hash.slice('#ticket='.length);
  const traded = await request(gui.port, 'POST', '/api/session', { headers: { origin: `http://127.0.0.1:${gui.port}` }, body: { ticket: spentTicket } });
  cookie = String(traded.headers['set-cookie']).split(';')[0]!;
  key = (traded.body as { key: string }).key;
  // A servant whose run policy the intruders go after.
  const admin = { 'x-fuseforks-token': gui.token, origin: `http://127.0.0.1:${gui.port}` };
  const template = { id: 'echo', name: 'Echo', provider: 'echo', model: 'echo', baseUrl: '', credential: 'not_required' };
  for (const [path, body] of [['/api/templates', { template }], ['/api/agents', { name: 'Ann' }]] as const) {
    const made = await request(gui.port, path === '/api/templates' ? 'PUT' : 'POST', path, { headers: admin, body });
    if (made.status !== 200) throw new Error(`${path}: ${JSON.stringify(made.body)}`);
  }
}, 120_000);

afterAll(async () => {
  await gui?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Target {
  method: string;
  path: string;
  body?: unknown;
}

const TARGETS: Target[] = [
  { method: 'PUT', path: '/api/mcp', body: { text: '{"mcpServers": {"x": {"command": "sh", "args": ["-c", "touch /tmp/ff-owned"]}}}' } },
  { method: 'POST', path: '/api/mcp/reload' },
  { method: 'PUT', path: '/api/agents/ann/run-policy', body: { allow: ['sh *'], deny: [], timeoutSecs: 60 } },
  { method: 'GET', path: '/api/door/token' },
  { method: 'GET', path: '/api/events' },
  { method: 'GET', path: '/api/state' },
];

function intruder(next: () => number): { name: string; headers: Record<string, string>; query?: string; target: Target } {
  const own = `http://127.0.0.1:${gui.port}`;
  const random = randomBytes(32).toString('base64url');
  const cookieName = `fuseforks_session_${gui.port}`;
  const forms: Array<{ name: string; headers: Record<string, string>; query?: string }> = [
    { name: 'nothing', headers: {} },
    { name: 'a random token', headers: { 'x-fuseforks-token': random } },
    { name: 'the token cut short', headers: { 'x-fuseforks-token': gui.token.slice(0, -1) } },
    { name: 'the token padded', headers: { 'x-fuseforks-token': `${gui.token}=` } },
    { name: 'the token in ?t= (the old way)', headers: {}, query: `?t=${gui.token}` },
    { name: 'the token as a cookie', headers: { cookie: `${cookieName}=${gui.token}` } },
    { name: 'the token as a session key', headers: { 'x-fuseforks-session': gui.token } },
    { name: 'the spent ticket as a token', headers: { 'x-fuseforks-token': spentTicket } },
    { name: 'the cookie alone', headers: { cookie } },
    { name: 'the cookie and the page Origin, no key', headers: { cookie, origin: own } },
    { name: 'the cookie and a wrong key', headers: { cookie, 'x-fuseforks-session': random, origin: own } },
    { name: 'the key alone', headers: { 'x-fuseforks-session': key, origin: own } },
    { name: 'the key with a made-up cookie', headers: { cookie: `${cookieName}=${random}`, 'x-fuseforks-session': key, origin: own } },
    { name: 'the session from another site', headers: { cookie, 'x-fuseforks-session': key, origin: 'http://evil.example' } },
    { name: 'the session from a file page', headers: { cookie, 'x-fuseforks-session': key, origin: 'null' } },
    { name: 'the token with a forged Host', headers: { 'x-fuseforks-token': gui.token, host: `evil.example:${gui.port}` } },
    { name: 'the token from another site', headers: { 'x-fuseforks-token': gui.token, origin: 'https://evil.example' } },
  ];
  const form = forms[pick(next, forms.length)]!;
  return { ...form, target: TARGETS[pick(next, TARGETS.length)]! };
}

/** The trade refused: a spent ticket, a made-up one, or a real-looking one without the page's Origin. */
function badTrade(next: () => number): { name: string; headers: Record<string, string>; ticket: string } {
  const own = `http://127.0.0.1:${gui.port}`;
  const trades: Array<{ name: string; headers: Record<string, string>; ticket: string }> = [
    { name: 'the spent printed ticket', headers: { origin: own }, ticket: spentTicket },
    { name: 'a made-up ticket', headers: { origin: own }, ticket: randomBytes(32).toString('base64url') },
    { name: 'the launch token as a ticket', headers: { origin: own }, ticket: gui.token },
    { name: 'the session key as a ticket', headers: { origin: own }, ticket: key },
    { name: 'a ticket without an Origin', headers: {}, ticket: randomBytes(32).toString('base64url') },
  ];
  return trades[pick(next, trades.length)]!;
}

/** The status of one request, read from its head (an event stream let through would never end). */
function statusOf(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<number> {
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest({ host: '127.0.0.1', port: gui.port, method, path, headers: { ...(data ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      resolve(res.statusCode ?? 0);
      res.destroy();
    });
    req.on('error', () => resolve(-1));
    req.end(data);
  });
}

describe('reliability: GUI intruders', () => {
  it(`${TRIES} seeded requests without this launch's session are refused; nothing is written; the session still works`, { timeout: 120_000 }, async () => {
    const tally = new Tally('gui-intruders');
    const next = seeded(28);
    for (let i = 0; i < TRIES; i += 1) {
      if (pick(next, 4) === 0) {
        const t = badTrade(next);
        const res = await request(gui.port, 'POST', '/api/session', { headers: t.headers, body: { ticket: t.ticket } });
        tally.check(`try ${i} (trade: ${t.name})`, [401, 403].includes(res.status) && res.headers['set-cookie'] === undefined ? null : `status ${res.status}`);
        continue;
      }
      const a = intruder(next);
      const status = await statusOf(a.target.method, `${a.target.path}${a.query ?? ''}`, a.headers, a.target.body);
      tally.check(`try ${i} (${a.name} → ${a.target.method} ${a.target.path})`, [401, 403].includes(status) ? null : `status ${status}`);
      if (i % 20 === 19) {
        const still = await request(gui.port, 'GET', '/api/state', { headers: { cookie, 'x-fuseforks-session': key } });
        tally.check(`after try ${i}: the browser's session still works`, still.status === 200 ? null : `status ${still.status}`);
      }
    }
    tally.check('no intruder wrote mcp.json', existsSync(join(dir, 'workspace/mcp.json')) ? 'it exists' : null);
    tally.check('no intruder wrote a run policy', existsSync(join(dir, 'workspace/agents/ann/run.json')) ? 'it exists' : null);
    tally.finish(TRIES);
  });
});
