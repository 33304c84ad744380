import { describe, expect, it } from 'vitest';
import { guardRequest, type RouteAccess } from '../../../src/gui/server/requestGuard.js';
import { GuiCredentials, type Presented } from '../../../src/gui/server/guiCredentials.js';
import { editBaseOf } from '../../../src/gui/server/editBaseHeader.js';
import { browserCommand } from '../../../src/gui/server/openBrowser.js';
import { statusForCode } from '../../../src/gui/server/apiRoutes.js';

const IP = '127.0.0.1:4321';
const SAME = 'http://127.0.0.1:4321';

describe('guardRequest', () => {
  type Row = [string, string, string | undefined, string | undefined, Presented, RouteAccess, 'ok' | 401 | 403];
  it.each<Row>([
    // the client's files: Host only
    ['the page, nothing presented', 'GET', IP, undefined, 'none', 'public', 'ok'],
    ['the page on localhost', 'GET', 'localhost:4321', undefined, 'none', 'public', 'ok'],
    ['the page for a foreign Host (DNS rebinding)', 'GET', 'evil.example:4321', undefined, 'none', 'public', 403],
    // the ticket trade: a same-origin page only (the ticket itself is checked by the handler)
    ['trade from the page', 'POST', IP, SAME, 'none', 'ticket', 'ok'],
    ['trade without an Origin', 'POST', IP, undefined, 'none', 'ticket', 403],
    ['trade from a file page (Origin null)', 'POST', IP, 'null', 'none', 'ticket', 403],
    ['trade from another site', 'POST', IP, 'http://evil.example', 'none', 'ticket', 403],
    // the API: a session (cookie + key) or the launch token
    ['state with a session', 'GET', IP, undefined, 'session', 'session', 'ok'],
    ['state with the token', 'GET', IP, undefined, 'token', 'session', 'ok'],
    ['state with nothing', 'GET', IP, undefined, 'none', 'session', 401],
    ['state with a cookie but no key (sent to another port, replayed)', 'GET', IP, undefined, 'cookie', 'session', 401],
    ['event stream with a cookie alone', 'GET', IP, undefined, 'cookie', 'session', 401],
    ['a change from the page', 'PUT', IP, SAME, 'session', 'session', 'ok'],
    ['a change from the page on localhost', 'PUT', 'localhost:4321', 'http://localhost:4321', 'session', 'session', 'ok'],
    ['a change with a session but no Origin', 'PUT', IP, undefined, 'session', 'session', 403],
    ['a change by a program with the token, no Origin', 'PUT', IP, undefined, 'token', 'session', 'ok'],
    ['a change with the token from another site', 'PUT', IP, 'http://evil.example', 'token', 'session', 403],
    ['MCP reload with nothing', 'POST', IP, SAME, 'none', 'session', 401],
    ['the token for a foreign Host', 'GET', 'evil.example:4321', undefined, 'token', 'session', 403],
    ['other port in Host', 'GET', '127.0.0.1:80', undefined, 'token', 'session', 403],
    ['no Host', 'GET', undefined, undefined, 'token', 'session', 403],
    ['https origin on loopback', 'PUT', IP, 'https://127.0.0.1:4321', 'session', 'session', 403],
    // a sent file: an <img> sends only the cookie
    ['attachment with a cookie alone', 'GET', IP, undefined, 'cookie', 'cookie', 'ok'],
    ['attachment with nothing', 'GET', IP, undefined, 'none', 'cookie', 401],
  ])('%s → %s', (_label, method, host, origin, presented, access, want) => {
    const verdict = guardRequest({ method, host, origin, port: 4321, presented, access });
    expect(verdict.ok ? 'ok' : verdict.status).toBe(want);
  });
});

describe('GuiCredentials', () => {
  it('a ticket trades once; the session needs its cookie and its key; the token is separate', () => {
    const c = new GuiCredentials(4321);
    const ticket = c.issueTicket();
    const session = c.redeem(ticket);
    expect(session).not.toBeNull();
    expect(c.redeem(ticket)).toBeNull();
    expect(c.redeem('never-issued')).toBeNull();
    expect(c.redeem(42)).toBeNull();
    const cookie = c.cookieOf(`other=1; ${c.setCookie(session!).split(';')[0]}`);
    expect(cookie).toBe(session!.id);
    expect(c.judge({ token: undefined, cookie, key: session!.key })).toBe('session');
    expect(c.judge({ token: undefined, cookie, key: undefined })).toBe('cookie');
    expect(c.judge({ token: undefined, cookie, key: 'x'.repeat(session!.key.length) })).toBe('cookie');
    expect(c.judge({ token: undefined, cookie: 'forged', key: session!.key })).toBe('none');
    expect(c.judge({ token: c.token, cookie: undefined, key: undefined })).toBe('token');
    expect(c.judge({ token: `${c.token}x`, cookie: undefined, key: undefined })).toBe('none');
    // per port: cookies do not tell ports apart, so another launch's cookie is not ours
    expect(new GuiCredentials(4322).cookieOf(`${c.cookieName}=${session!.id}`)).toBeUndefined();
  });

  it('the cookie is HttpOnly and SameSite=Strict, for the whole origin', () => {
    const c = new GuiCredentials(4321);
    const header = c.setCookie(c.redeem(c.issueTicket())!);
    expect(header).toMatch(/^fuseforks_session_4321=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
  });
});

describe('editBaseOf (If-Match)', () => {
  it.each<[string | undefined, string[] | undefined]>([
    [undefined, undefined],
    ['*', undefined],
    ['', []],
    ['"a"', ['a']],
    ['"a", "b",W/"c"', ['a', 'b', 'c']],
  ])('%j → %j', (header, want) => expect(editBaseOf(header)).toEqual(want));
});

describe('browserCommand', () => {
  it.each<[NodeJS.Platform, string[], string | null]>([
    ['linux', ['chromium', 'xdg-open'], 'chromium --app=U'],
    ['linux', ['chromium-browser'], 'chromium-browser --app=U'],
    ['linux', ['xdg-open'], 'xdg-open U'],
    ['linux', [], null],
    ['darwin', [], 'open U'],
  ])('%s with %j → %s', (platform, present, want) => {
    const got = browserCommand('U', platform, (c) => present.includes(c));
    expect(got === null ? null : [got.cmd, ...got.args].join(' ')).toBe(want);
  });
});

describe('statusForCode', () => {
  it.each([
    ['AGENT_NOT_FOUND', 404],
    ['NOT_RUNNING', 409],
    ['DUPLICATE_AGENT_NAME', 400],
    ['INVALID_TOPOLOGY', 400],
    ['EDIT_CONFLICT', 409],
    ['BUG', 500],
  ])('%s → %i', (code, status) => expect(statusForCode(code)).toBe(status));
});
