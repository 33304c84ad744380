/**
 * The GUI's way in, with the real pieces: the built `fuseforks-cli gui` opens the browser itself (Debian Chromium,
 * headless, through a `chromium` on PATH that adds only headless and debugging switches), and that browser reaches
 * the main screen. Then:
 *
 * - another local account (a user made with useradd for this file; root runs CI) reads the browser's command lines
 *   with `ps` and /proc, as any account can: they name only the 0600 runtime page, which it cannot read, and nothing
 *   in them — tried as the launch token, a ticket or a session — opens the API; no credential is in any process's
 *   arguments or environment;
 * - in playwright's Chromium, the printed URL opens one session once: replayed in a fresh browser it is refused
 *   (GUI_UNAUTHORIZED on the boot overlay), while a fresh URL from the runtime page works there.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, HAS_CHROMIUM, HAS_SESSION, launchBrowser, openGui, ready, tid, until } from './support/browserSuite.js';
import { openPageUrl, request, requireGuiBuild, runtimeFilesOf, startGui, waitBoot, type GuiChild } from './support/guiChild.js';

const IS_ROOT = process.getuid?.() === 0;
const HAS_USERADD = existsSync('/usr/sbin/useradd') && existsSync('/usr/sbin/userdel');

let gui: GuiChild;
let village: string;
let wrapperDir: string;
let profile: string;
let launched: Browser | null = null;
let launchedPage: Page;

/** Pids of the processes of the browser the GUI launched (its profile folder is on their command lines), and their children. */
function browserPids(): number[] {
  const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
  const parent = new Map<number, number>();
  const mine = new Set<number>();
  for (const pid of all) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile)) mine.add(pid);
    } catch {
      // gone meanwhile
    }
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (!mine.has(pid) && mine.has(ppid)) {
        mine.add(pid);
        grew = true;
      }
    }
  }
  return [...mine].sort((a, b) => a - b);
}

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  requireGuiBuild();
  village = mkdtempSync(join(tmpdir(), 'ff-gui-session-'));
  profile = mkdtempSync(join(tmpdir(), 'ff-gui-session-profile-'));
  wrapperDir = mkdtempSync(join(tmpdir(), 'ff-gui-session-bin-'));
  // What `gui` finds on PATH: Debian's Chromium, headless (no display here), with a debugging port the test attaches to.
  const wrapper = join(wrapperDir, 'chromium');
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec ${CHROMIUM} --headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir=${profile} --remote-debugging-port=0 "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  gui = await startGui(village, { PATH: `${wrapperDir}:${process.env.PATH ?? ''}` }, []);
  expect((await waitBoot(gui.port, gui.token)).state).toBe('ready');
  const portFile = join(profile, 'DevToolsActivePort');
  await until(() => existsSync(portFile) && readFileSync(portFile, 'utf8').includes('\n'), 'the launched browser is up');
  launched = await chromium.connectOverCDP(`http://127.0.0.1:${readFileSync(portFile, 'utf8').split('\n')[0]}`);
  await until(() => launched!.contexts().some((c) => c.pages().some((p) => p.url().startsWith(gui.address))), 'the launched browser went on to the GUI');
  launchedPage = launched.contexts().flatMap((c) => c.pages()).find((p) => p.url().startsWith(gui.address))!;
}, 180_000);

afterAll(async () => {
  await launched?.close().catch(() => undefined);
  if (profile !== undefined) {
    for (const pid of browserPids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  await gui?.stop();
  for (const d of [village, profile, wrapperDir]) if (d !== undefined) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!HAS_CHROMIUM)(`the browser the GUI opens${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  it('is opened on the private runtime page, not on a URL with a credential, and gets in from there', async () => {
    // On a busy machine the browser's processes come and go while it starts: wait (bounded) for its main one.
    const commandLines = (): string[][] =>
      browserPids().flatMap((pid) => {
        try {
          return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')];
        } catch {
          return [];
        }
      });
    // Chromium may rewrite its own process title into one space-separated string (it does under a D-Bus session),
    // so the switch is looked for in the words of each command line, not only in its NUL-separated arguments.
    const appArg = (): string | undefined =>
      commandLines()
        .flatMap((args) => args.flatMap((a) => a.split(' ')))
        .find((a) => a.startsWith('--app='));
    await until(() => appArg() !== undefined, "a process of the launched browser holds --app=");
    const { openFile } = runtimeFilesOf(gui.runtimeDir)!;
    expect(appArg()).toBe(`--app=file://${openFile}`);
    // It traded the page's ticket: the main screen, the fragment gone from the address, a session kept by the page.
    await ready(launchedPage);
    expect(launchedPage.url()).toBe(gui.address);
    await expect(launchedPage.evaluate<boolean>(HAS_SESSION)).resolves.toBe(true);
  });
});

describe.skipIf(!HAS_CHROMIUM || !IS_ROOT || !HAS_USERADD)(
  `another local account${IS_ROOT && HAS_USERADD ? '' : ' (skipped: needs root and useradd to make a second account)'}`,
  () => {
    const user = `ff28a${randomBytes(4).toString('hex')}`;
    let uid = 0;
    let gid = 0;
    beforeAll(() => {
      const made = spawnSync('/usr/sbin/useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', user], { encoding: 'utf8' });
      expect(made.status, made.stderr).toBe(0);
      uid = Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
      gid = Number(spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim());
    });
    afterAll(() => {
      spawnSync('/usr/sbin/userdel', [user]);
    });

    /** Runs a command as the other account. */
    const asOther = (cmd: string, args: string[]) => spawnSync(cmd, args, { uid, gid, encoding: 'utf8', cwd: '/' });

    it('sees the browser\'s command lines, and nothing in them opens the API', async () => {
      const pids = browserPids();
      expect(pids.length).toBeGreaterThan(0);
      // What the other account reads: ps over every process, and each browser process's /proc/<pid>/cmdline.
      const ps = asOther('ps', ['-eo', 'pid=,args=', '-ww']);
      expect(ps.status, ps.stderr).toBe(0);
      const seenByPs = ps.stdout.split('\n').filter((line) => pids.includes(Number(line.trim().split(/\s+/)[0])));
      // ps shows the browser to every account (that is the leak being closed: arguments are public).
      expect(seenByPs.join('\n')).toContain('--app=file://');
      const seen = [...seenByPs];
      for (const pid of pids) {
        const read = asOther('cat', [`/proc/${pid}/cmdline`]);
        if (read.status === 0) seen.push(read.stdout.split('\0').join(' '));
      }
      const text = seen.join('\n');

      // No credential of this launch is in them: the token, the printed ticket, the page's live one, the launched
      // browser's session cookie and key.
      // The page trades its ticket for the cookie once loaded; on a busy machine that may still be under way.
      await ready(launchedPage);
      const cookies = await launchedPage.context().cookies(gui.address);
      const cookie = cookies.find((c) => c.name === `fuseforks_session_${gui.port}`);
      expect(cookie, 'the launched browser holds its session cookie').toBeDefined();
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      const key = await launchedPage.evaluate<string>("localStorage.getItem('fuseforks.session')");
      const secrets = [gui.token, new URL(gui.printedUrl).hash.slice(8), new URL(openPageUrl(runtimeFilesOf(gui.runtimeDir)!.openFile)).hash.slice(8), cookie!.value, key];
      for (const secret of secrets) expect(secret.length).toBeGreaterThanOrEqual(32);
      for (const secret of secrets) expect(text).not.toContain(secret);

      // Every word of them, tried as the token, as a ticket and as a session, is refused.
      const words = [...new Set(text.split(/[\s=,&#?;:"'/]+/).filter((w) => w.length >= 8))];
      expect(words.length).toBeGreaterThan(10);
      const origin = `http://127.0.0.1:${gui.port}`;
      for (const word of words) {
        const asToken = await request(gui.port, 'GET', '/api/state', { headers: { 'x-fuseforks-token': word } });
        const asTicket = await request(gui.port, 'POST', '/api/session', { headers: { origin }, body: { ticket: word } });
        const asSession = await request(gui.port, 'PUT', '/api/mcp', {
          headers: { origin, cookie: `fuseforks_session_${gui.port}=${word}`, 'x-fuseforks-session': word },
          body: { text: '{"mcpServers": {"x": {"command": "sh"}}}' },
        });
        expect([asToken.status, asTicket.status, asSession.status], word).toEqual([401, 401, 401]);
      }
      expect(existsSync(join(village, 'workspace/mcp.json'))).toBe(false);

      // The page the command line names is not readable by the other account, nor is its folder listable.
      const pageFile = fileURLToPath(/--app=(file:\/\/\S+)/.exec(text)![1]!);
      const cat = asOther('cat', [pageFile]);
      expect(cat.status).not.toBe(0);
      expect(cat.stderr).toMatch(/Permission denied/);
      expect(asOther('ls', [join(gui.runtimeDir, 'fuseforks')]).status).not.toBe(0);
    }, 120_000);

    it('finds no credential in the environment of the browser or of the GUI process', () => {
      const secrets = [gui.token, new URL(openPageUrl(runtimeFilesOf(gui.runtimeDir)!.openFile)).hash.slice(8)];
      for (const pid of [gui.child.pid!, ...browserPids()]) {
        let environ = '';
        let cmdline = '';
        try {
          environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
          cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        } catch {
          continue;
        }
        for (const secret of secrets) {
          expect(environ, `environment of ${pid}`).not.toContain(secret);
          expect(cmdline, `arguments of ${pid}`).not.toContain(secret);
        }
        // And the other account cannot read an environment at all.
        expect(asOther('cat', [`/proc/${pid}/environ`]).status).not.toBe(0);
      }
    });
  },
);

describe.skipIf(!HAS_CHROMIUM)(`a used ticket${HAS_CHROMIUM ? '' : ' (skipped: /usr/bin/chromium is not installed)'}`, () => {
  it('the printed URL opens one session; replayed in a fresh browser it is refused, a fresh URL works there', async () => {
    const first = await launchBrowser();
    const second = await launchBrowser();
    try {
      const page = await first.page();
      await openGui(page, gui.printedUrl);
      await page.waitForSelector(tid('main'));
      // The address keeps no ticket once traded.
      expect(page.url()).toBe(gui.address);

      second.allowHttpError(401);
      const replay = await second.page();
      await replay.goto(gui.printedUrl);
      await replay.waitForSelector(tid('boot-failed'));
      await expect(replay.textContent(tid('boot-error'))).resolves.toContain('GUI_UNAUTHORIZED');
      await expect(replay.evaluate<number>("fetch('/api/state').then((r) => r.status)")).resolves.toBe(401);
      second.assertClean();

      // The session the first browser holds still works after a reload; the fresh browser gets in with a new URL.
      await page.reload();
      await ready(page);
      await openGui(replay, gui.url);
      await replay.waitForSelector(tid('main'));
      first.assertClean();
      second.assertClean();
    } finally {
      await first.close();
      await second.close();
    }
  }, 120_000);
});
