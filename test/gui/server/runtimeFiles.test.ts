/**
 * The GUI's runtime folder on the real file system: where it is, that it is made (or made again) 0700 whatever the
 * umask, refused when it is a link or another account's, that its files are 0600, and that a dead launch's files go.
 */
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GuiRuntimeFiles, privateFolder, redirectPage, runtimeFolder } from '../../../src/gui/server/runtimeFiles.js';

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-runtime-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('runtimeFolder', () => {
  it.each<[NodeJS.ProcessEnv, string]>([
    [{ XDG_RUNTIME_DIR: '/run/user/1000' }, '/run/user/1000/fuseforks'],
    [{ XDG_RUNTIME_DIR: 'relative/run', XDG_DATA_HOME: '/data' }, '/data/fuseforks/runtime'],
    [{ XDG_DATA_HOME: '/data' }, '/data/fuseforks/runtime'],
    [{}, '/home/ann/.local/share/fuseforks/runtime'],
  ])('%j → %s', (env, want) => expect(runtimeFolder(env, '/home/ann')).toBe(want));
});

describe('privateFolder and the launch files', () => {
  it('makes the folder 0700 under a loose umask, tightens one that is open, and writes 0600 files', async () => {
    const old = process.umask(0o002);
    try {
      const dir = join(base, 'run', 'fuseforks');
      const files = await GuiRuntimeFiles.open(dir);
      expect(mode(dir)).toBe(0o700);
      await files.writeServerFile({ port: 4321, url: 'http://127.0.0.1:4321/', token: 't', dataDir: '/d' });
      await files.writeOpenPage(4321, 'tick');
      expect(mode(files.serverFile)).toBe(0o600);
      expect(mode(files.openFile)).toBe(0o600);
      expect(files.openUrl).toBe(`file://${files.openFile}`);
      await files.remove();
      expect(existsSync(files.serverFile) || existsSync(files.openFile)).toBe(false);
      const loose = join(base, 'loose');
      mkdirSync(loose, { mode: 0o777 });
      await privateFolder(loose);
      expect(mode(loose)).toBe(0o700);
    } finally {
      process.umask(old);
    }
  });

  it('refuses a link in place of the folder', async () => {
    const target = join(base, 'elsewhere');
    mkdirSync(target);
    symlinkSync(target, join(base, 'link'));
    await expect(privateFolder(join(base, 'link'))).rejects.toMatchObject({ code: 'CONFIG_IO', message: expect.stringContaining('not a folder') });
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a folder another account owns', async () => {
    const theirs = join(base, 'theirs');
    mkdirSync(theirs, { mode: 0o700 });
    chownSync(theirs, 65534, 65534);
    await expect(privateFolder(theirs)).rejects.toMatchObject({ code: 'CONFIG_IO', message: expect.stringContaining('belongs to uid 65534') });
  });

  it('removes the files of a launch whose process is gone, keeps a live one\'s', async () => {
    const dir = join(base, 'fuseforks');
    mkdirSync(dir, { mode: 0o700 });
    // A pid far above any pid_max default: no process has it.
    for (const name of ['gui-999999999.json', 'gui-999999999-open.html', `gui-${process.ppid}.json`, 'notes.txt']) writeFileSync(join(dir, name), 'x');
    await GuiRuntimeFiles.open(dir);
    expect(existsSync(join(dir, 'gui-999999999.json'))).toBe(false);
    expect(existsSync(join(dir, 'gui-999999999-open.html'))).toBe(false);
    expect(existsSync(join(dir, `gui-${process.ppid}.json`))).toBe(true);
    expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
  });
});

describe('redirectPage', () => {
  it('sends the browser on to the loopback GUI with the ticket in the fragment, and no referrer', () => {
    const page = redirectPage(4321, 'abc_DEF-1');
    expect(page).toContain('<meta http-equiv="refresh" content="0;url=http://127.0.0.1:4321/#ticket=abc_DEF-1">');
    expect(page).toContain('<meta name="referrer" content="no-referrer">');
  });
});
