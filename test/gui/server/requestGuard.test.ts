import { describe, expect, it } from 'vitest';
import { guardRequest } from '../../../src/gui/server/requestGuard.js';
import { editBaseOf } from '../../../src/gui/server/editBaseHeader.js';
import { browserCommand } from '../../../src/gui/server/openBrowser.js';
import { statusForCode } from '../../../src/gui/server/apiRoutes.js';

const base = { port: 4321, expected: 'tok-abc' };

describe('guardRequest', () => {
  it.each<[string, string | undefined, string | undefined, string | null, 'ok' | 401 | 403]>([
    ['loopback ip, token', '127.0.0.1:4321', undefined, 'tok-abc', 'ok'],
    ['localhost, same origin', 'localhost:4321', 'http://localhost:4321', 'tok-abc', 'ok'],
    ['same origin on ip', '127.0.0.1:4321', 'http://127.0.0.1:4321', 'tok-abc', 'ok'],
    ['no token', '127.0.0.1:4321', undefined, null, 401],
    ['wrong token', '127.0.0.1:4321', undefined, 'tok-abd', 401],
    ['shorter token', '127.0.0.1:4321', undefined, 'tok', 401],
    ['foreign Host (DNS rebinding)', 'evil.example:4321', undefined, 'tok-abc', 403],
    ['other port in Host', '127.0.0.1:80', undefined, 'tok-abc', 403],
    ['no Host', undefined, undefined, 'tok-abc', 403],
    ['foreign Origin', '127.0.0.1:4321', 'http://evil.example', 'tok-abc', 403],
    ['https origin on loopback', '127.0.0.1:4321', 'https://127.0.0.1:4321', 'tok-abc', 403],
    ['null origin (sandboxed page)', '127.0.0.1:4321', 'null', 'tok-abc', 403],
  ])('%s → %s', (_label, host, origin, token, want) => {
    const verdict = guardRequest({ ...base, host, origin, token });
    expect(verdict.ok ? 'ok' : verdict.status).toBe(want);
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
