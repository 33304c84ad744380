import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DOOR_DEFAULT_PORT,
  doorStartupLine,
  doorStatusOf,
  newDoorToken,
  parseDoorSettings,
  readDoorSettings,
  saveDoorSettings,
  withDoorEnabled,
} from '../../../src/host/door/doorSettings.js';

describe('door settings (pure)', () => {
  it.each([
    { text: '', want: { enabled: false, port: DOOR_DEFAULT_PORT, token: null } },
    { text: '{}', want: { enabled: false, port: DOOR_DEFAULT_PORT, token: null } },
    { text: '{"enabled":true,"port":4000,"token":"0123456789abcdef0123456789abcdef"}', want: { enabled: true, port: 4000, token: '0123456789abcdef0123456789abcdef' } },
  ])('$text', ({ text, want }) => {
    const read = parseDoorSettings(text, 'mcp_server.json');
    expect(read.ok && read.settings).toEqual(want);
  });

  it.each([
    { text: '{"enabled": tru}', match: /mcp_server\.json: not valid JSON at line 1, column 13/ },
    { text: '[]', match: /expected a JSON object/ },
    { text: '{"enabled":"yes"}', match: /"enabled" must be true or false/ },
    { text: '{"port":0}', match: /"port" must be an integer from 1 to 65535/ },
    { text: '{"port":1.5}', match: /"port"/ },
    { text: '{"token":"short"}', match: /"token" must be 32 hex characters/ },
  ])('broken: $text', ({ text, match }) => {
    const read = parseDoorSettings(text, 'mcp_server.json');
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error.message).toMatch(match);
  });

  it('a token is made on the first switch-on only, and kept when switched off and on again', () => {
    const off = { enabled: false, port: DOOR_DEFAULT_PORT, token: null };
    const on = withDoorEnabled(off, true);
    expect(on.token).toMatch(/^[0-9a-f]{32}$/);
    const offAgain = withDoorEnabled(on, false);
    expect(offAgain.token).toBe(on.token);
    expect(withDoorEnabled(offAgain, true).token).toBe(on.token);
    expect(withDoorEnabled(off, false).token).toBeNull();
    expect(newDoorToken()).not.toBe(newDoorToken());
  });

  it('status: enabled and listening are separate; a blocked file is closed', () => {
    const read = parseDoorSettings('{"enabled":true}', 'f');
    expect(doorStatusOf(read, false, 'port busy')).toEqual({ enabled: true, listening: false, port: DOOR_DEFAULT_PORT, lastError: 'port busy', blocked: false });
    const bad = parseDoorSettings('{', 'f');
    expect(doorStatusOf(bad, false, null)).toMatchObject({ enabled: false, listening: false, blocked: true });
  });

  it('renders the startup line', () => {
    expect(doorStartupLine(39641)).toBe('mcp server: 127.0.0.1:39641/mcp');
  });
});

describe('door settings on real files', () => {
  let dir = '';
  let file = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ff-door-'));
    file = join(dir, 'mcp_server.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('missing → off; switching on writes a token with mode 0600, kept across a re-read; unknown keys survive', async () => {
    const first = await readDoorSettings(file);
    expect(first.ok && first.settings).toEqual({ enabled: false, port: DOOR_DEFAULT_PORT, token: null });
    if (!first.ok) throw first.error;
    const on = withDoorEnabled(first.settings, true);
    await saveDoorSettings(file, on, first);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const again = await readDoorSettings(file);
    expect(again.ok && again.settings.token).toBe(on.token);

    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), note: 'mine' }));
    const withNote = await readDoorSettings(file);
    if (!withNote.ok) throw withNote.error;
    await saveDoorSettings(file, { ...withNote.settings, port: 4000 }, withNote);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ enabled: true, port: 4000, token: on.token, note: 'mine' });
  });

  it('a broken file blocks saves and is never overwritten', async () => {
    await writeFile(file, '{"enabled": true, ');
    const read = await readDoorSettings(file);
    expect(read.ok).toBe(false);
    await expect(saveDoorSettings(file, { enabled: true, port: 1, token: null }, read)).rejects.toMatchObject({ code: 'CONFIG_PARSE' });
    expect(await readFile(file, 'utf8')).toBe('{"enabled": true, ');
  });

  it('an unreadable file keeps the door closed (CONFIG_IO)', async () => {
    if (process.getuid?.() === 0) {
      // root reads a 0000 file anyway: use a directory in the file's place instead.
      await rm(file, { force: true });
      const { mkdir } = await import('node:fs/promises');
      await mkdir(file);
    } else {
      await writeFile(file, '{}');
      await chmod(file, 0o000);
    }
    const read = await readDoorSettings(file);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error.code).toBe('CONFIG_IO');
    expect(doorStatusOf(read, false, null).blocked).toBe(true);
  });
});
