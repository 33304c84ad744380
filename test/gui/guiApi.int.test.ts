/**
 * The GUI API against a real `fuseforks-cli gui --no-open` child on loopback: the launch's credentials (a
 * single-use ticket traded for a cookie plus key, the token for programs, refusals without them, from a foreign
 * Host or Origin), a mutation answering the re-read state, and the village lock (a second launch shows LOCK_HELD
 * and writes nothing into the holder's log).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPageUrl, requireGuiBuild, request, runtimeFilesOf, startGui, waitBoot, type GuiChild } from './support/guiChild.js';

let dir: string;
let gui: GuiChild;

beforeAll(async () => {
  requireGuiBuild();
  dir = mkdtempSync(join(tmpdir(), 'ff-gui-api-'));
  gui = await startGui(dir);
  expect((await waitBoot(gui.port, gui.token)).state).toBe('ready');
}, 180_000);

afterAll(async () => {
  await gui?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const auth = () => ({ 'x-fuseforks-token': gui.token });

describe('fuseforks-cli gui API', () => {
  it('prints only a single-use URL on stdout: a ticket, never the launch token', () => {
    expect(gui.stdout()).toBe(`${gui.printedUrl}\n`);
    expect(gui.printedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#ticket=[A-Za-z0-9_-]{43}$/);
    expect(gui.printedUrl).not.toContain(gui.token);
    expect(gui.token.length).toBeGreaterThanOrEqual(32);
  });

  it('keeps its runtime files private: a 0700 folder with the 0600 server file and browser page', () => {
    const files = runtimeFilesOf(gui.runtimeDir)!;
    expect(statSync(join(gui.runtimeDir, 'fuseforks')).mode & 0o777).toBe(0o700);
    expect(statSync(files.serverFile).mode & 0o777).toBe(0o600);
    expect(statSync(files.openFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(files.serverFile, 'utf8'))).toMatchObject({ port: gui.port, url: gui.address, token: gui.token, dataDir: dir });
  });

  it('refuses the API without a session or the token (401); the page itself needs none', async () => {
    const res = await request(gui.port, 'GET', '/api/state');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'GUI_UNAUTHORIZED' });
    expect((await request(gui.port, 'GET', '/api/state', { headers: { 'x-fuseforks-token': 'nope' } })).status).toBe(401);
    expect((await request(gui.port, 'GET', '/api/events')).status).toBe(401);
    const page = await request(gui.port, 'GET', '/');
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('<div id="app">');
  });

  it('refuses a foreign Origin and a foreign Host (403), even with the token', async () => {
    const origin = await request(gui.port, 'PUT', '/api/reception', { headers: { ...auth(), origin: 'http://evil.example' }, body: { agentId: null } });
    expect(origin.status).toBe(403);
    const host = await request(gui.port, 'GET', '/api/state', { headers: { ...auth(), host: `evil.example:${gui.port}` } });
    expect(host.status).toBe(403);
  });

  it('trades a ticket once for an HttpOnly, SameSite=Strict cookie that opens the API only with its key', async () => {
    const origin = `http://127.0.0.1:${gui.port}`;
    const ticket = new URL(gui.printedUrl).hash.replace('#ticket=', '');
    expect((await request(gui.port, 'POST', '/api/session', { body: { ticket } })).status).toBe(403);
    const traded = await request(gui.port, 'POST', '/api/session', { headers: { origin }, body: { ticket } });
    expect(traded.status).toBe(200);
    const setCookie = String(traded.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^fuseforks_session_${gui.port}=[A-Za-z0-9_-]+; HttpOnly; SameSite=Strict; Path=/$`));
    const cookie = setCookie.split(';')[0]!;
    const { key } = traded.body as { key: string };
    expect((await request(gui.port, 'GET', '/api/state', { headers: { cookie, 'x-fuseforks-session': key } })).status).toBe(200);
    // The cookie alone (what another port on 127.0.0.1 could be sent) opens nothing; a change needs its Origin too.
    expect((await request(gui.port, 'GET', '/api/state', { headers: { cookie } })).status).toBe(401);
    expect((await request(gui.port, 'POST', '/api/mcp/reload', { headers: { cookie, origin } })).status).toBe(401);
    expect((await request(gui.port, 'POST', '/api/mcp/reload', { headers: { cookie, 'x-fuseforks-session': key } })).status).toBe(403);
    // Spent: the same ticket again is refused.
    const again = await request(gui.port, 'POST', '/api/session', { headers: { origin }, body: { ticket } });
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: 'GUI_UNAUTHORIZED' });
  });

  it('the browser page always holds a live ticket: once spent, it is rewritten with a fresh one', async () => {
    const origin = `http://127.0.0.1:${gui.port}`;
    const { openFile } = runtimeFilesOf(gui.runtimeDir)!;
    const first = new URL(openPageUrl(openFile)).hash.replace('#ticket=', '');
    expect((await request(gui.port, 'POST', '/api/session', { headers: { origin }, body: { ticket: first } })).status).toBe(200);
    const second = new URL(openPageUrl(openFile)).hash.replace('#ticket=', '');
    expect(second).not.toBe(first);
    expect((await request(gui.port, 'POST', '/api/session', { headers: { origin }, body: { ticket: first } })).status).toBe(401);
    expect((await request(gui.port, 'POST', '/api/session', { headers: { origin }, body: { ticket: second } })).status).toBe(200);
  });

  it('a mutation answers the re-read state, equal to world.json on disk', async () => {
    const headers = { ...auth(), origin: `http://127.0.0.1:${gui.port}` };
    const put = await request(gui.port, 'PUT', '/api/templates', {
      headers,
      body: { template: { id: 'stub', name: 'Stub', model: 'm', baseUrl: 'http://127.0.0.1:9/v1', credential: 'not_required' } },
    });
    expect(put.status).toBe(200);
    const made = await request(gui.port, 'POST', '/api/agents', { headers, body: { name: 'Alice' } });
    const state = made.body as { createdId: string; world: { agents: Array<{ id: string }>; modelTemplates: Array<{ id: string }> } };
    expect(state.createdId).toBe('alice');
    const disk = JSON.parse(readFileSync(join(dir, 'workspace/world.json'), 'utf8')) as { agents: Array<{ id: string }> };
    expect(state.world.agents.map((a) => a.id)).toEqual(disk.agents.map((a) => a.id));
    const refused = await request(gui.port, 'POST', '/api/agents', { headers, body: { name: 'Alice' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'DUPLICATE_AGENT_NAME' });
    const badTie = await request(gui.port, 'PUT', '/api/agents/alice/ties', { headers, body: { targets: ['alice'] } });
    expect(badTie.body).toMatchObject({ code: 'INVALID_TOPOLOGY' });
  });

  it('a change carries its base in If-Match: a stale one is 409 EDIT_CONFLICT and writes nothing', async () => {
    const headers = { ...auth(), origin: `http://127.0.0.1:${gui.port}` };
    type State = { revisions: Record<string, string>; world: { userName: string | null } };
    const seen = (await request(gui.port, 'GET', '/api/state', { headers: auth() })).body as State;
    const tags = (s: State) => Object.values(s.revisions).map((r) => `"${r}"`).join(', ');
    const first = await request(gui.port, 'PUT', '/api/settings', { headers: { ...headers, 'if-match': tags(seen) }, body: { userName: 'Ann' } });
    expect(first.status).toBe(200);
    const world = readFileSync(join(dir, 'workspace/world.json'), 'utf8');
    const stale = await request(gui.port, 'PUT', '/api/settings', { headers: { ...headers, 'if-match': tags(seen) }, body: { userName: 'Stale' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      code: 'EDIT_CONFLICT',
      details: { doc: 'workspace/world.json', file: join(dir, 'workspace/world.json'), current: (first.body as State).revisions['workspace/world.json'] },
    });
    expect(readFileSync(join(dir, 'workspace/world.json'), 'utf8')).toBe(world);
    const fresh = await request(gui.port, 'PUT', '/api/settings', { headers: { ...headers, 'if-match': tags(first.body as State) }, body: { userName: 'Bea' } });
    expect((fresh.body as State).world.userName).toBe('Bea');
    // A program that sends no base overwrites, as before.
    expect(((await request(gui.port, 'PUT', '/api/settings', { headers, body: { userName: 'Cy' } })).body as State).world.userName).toBe('Cy');
  });

  it('plan review and conversation routes: refusals name the field or the missing thing, answers are the state', async () => {
    const headers = { ...auth(), origin: `http://127.0.0.1:${gui.port}` };
    const state = (await request(gui.port, 'GET', '/api/state', { headers: auth() })).body as { planReviews: unknown[]; sessions: { current: string } };
    expect(state.planReviews).toEqual([]);
    const badField = await request(gui.port, 'POST', '/api/plan-reviews/7', { headers, body: { approved: 'yes' } });
    expect(badField.status).toBe(400);
    expect(badField.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'approved' } });
    const notWaiting = await request(gui.port, 'POST', '/api/plan-reviews/7', { headers, body: { approved: false, note: 'no' } });
    expect(notWaiting.status).toBe(400);
    expect((notWaiting.body as { message: string }).message).toContain('no plan 7 is waiting');
    const missing = await request(gui.port, 'POST', '/api/sessions/no-such-session/open', { headers });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    const same = await request(gui.port, 'POST', `/api/sessions/${state.sessions.current}/open`, { headers });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ sessions: { current: state.sessions.current }, planReviews: [] });
  });

  it('schedule pre-check: set → not approved; approve writes the shelf hash; new args → not approved; revoke', async () => {
    const headers = { ...auth(), origin: `http://127.0.0.1:${gui.port}` };
    await request(gui.port, 'PUT', '/api/templates', {
      headers,
      body: { template: { id: 'stub', name: 'Stub', model: 'm', baseUrl: 'http://127.0.0.1:9/v1', credential: 'not_required' } },
    });
    const made = (await request(gui.port, 'POST', '/api/agents', { headers, body: { name: 'Probe target' } })).body as { createdId: string };
    type Row = { id: string; probeApproved: boolean; probeCommandLine: string | null };
    const added = await request(gui.port, 'POST', '/api/schedules', {
      headers,
      body: { to: made.createdId, message: 'report', recurrence: { kind: 'daily', hour: 9, minute: 0 } },
    });
    const id = (added.body as { schedules: Row[] }).schedules.at(-1)!.id;
    const shelf = (): string[] => (JSON.parse(readFileSync(join(dir, 'probe_approvals.json'), 'utf8')) as { hashes: string[] }).hashes;
    const row = (body: unknown): Row => (body as { schedules: Row[] }).schedules.find((s) => s.id === id)!;

    const shell = await request(gui.port, 'PUT', `/api/schedules/${id}/probe`, { headers, body: { probe: { command: 'ls | wc', args: [], expect: '1' } } });
    expect(shell.status).toBe(400);
    expect(shell.body).toMatchObject({ code: 'INVALID_SCHEDULE', details: { field: 'probe.command' } });

    const set = await request(gui.port, 'PUT', `/api/schedules/${id}/probe`, { headers, body: { probe: { command: 'echo', args: ['ready now'], cwd: null, expect: 'ready now' } } });
    expect(set.status).toBe(200);
    expect(row(set.body)).toMatchObject({ probeApproved: false, probeCommandLine: 'echo "ready now"' });

    const approved = await request(gui.port, 'POST', `/api/schedules/${id}/probe/approve`, { headers });
    expect(approved.status).toBe(200);
    expect(row(approved.body).probeApproved).toBe(true);
    expect(shelf()).toHaveLength(1);
    // The GUI host created village_id, and the approval is bound to it.
    expect(readFileSync(join(dir, 'workspace/village_id'), 'utf8').trim()).toMatch(/^[0-9a-f-]{36}$/);

    const edited = await request(gui.port, 'PUT', `/api/schedules/${id}/probe`, { headers, body: { probe: { command: 'echo', args: ['ready', 'now'], expect: 'ready now' } } });
    expect(row(edited.body)).toMatchObject({ probeApproved: false, probeCommandLine: 'echo ready now' });
    expect(shelf()).toEqual([]);

    await request(gui.port, 'POST', `/api/schedules/${id}/probe/approve`, { headers });
    const revoked = await request(gui.port, 'POST', `/api/schedules/${id}/probe/revoke`, { headers });
    expect(row(revoked.body).probeApproved).toBe(false);
    expect(shelf()).toEqual([]);
    const state = (await request(gui.port, 'GET', '/api/state', { headers: auth() })).body;
    expect(row(state).probeApproved).toBe(false);
  });

  it('a second launch on the same village shows LOCK_HELD and the holder\'s log gains no line', async () => {
    const log = join(dir, 'workspace/fuseforks.log');
    const before = readFileSync(log, 'utf8');
    const second = await startGui(dir);
    try {
      const boot = await waitBoot(second.port, second.token);
      expect(boot.state).toBe('failed');
      expect(boot.error?.code).toBe('LOCK_HELD');
      expect(boot.error?.message).toContain('open in another process');
      // The page is still served, so the overlay can show it.
      expect((await request(second.port, 'GET', '/')).status).toBe(200);
      expect((await request(second.port, 'GET', '/api/state', { headers: { 'x-fuseforks-token': second.token } })).status).toBe(503);
    } finally {
      await second.stop();
    }
    expect(readFileSync(log, 'utf8')).toBe(before);
  });
});
