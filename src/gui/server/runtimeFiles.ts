/**
 * The GUI's runtime files, readable by the user who runs it and nobody else (the way Jupyter opens its browser):
 * a folder `fuseforks` in `$XDG_RUNTIME_DIR` (else `$XDG_DATA_HOME/fuseforks/runtime`, i.e.
 * `~/.local/share/fuseforks/runtime`), kept 0700 and refused when it is a link or another account's, holding
 *
 * - `gui-{pid}.json` (0600): port, URL and the launch token for programs that are not browsers;
 * - `gui-{pid}-open.html` (0600): the page the browser is opened on. Its command line names only this file; the
 *   page carries a single-use ticket to the GUI, and is rewritten with a fresh one each time its ticket is spent.
 *
 * Both are removed when the GUI stops, and those of a launch whose process is gone when the next one starts.
 */
import { lstat, mkdir, chmod, readdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFileAtomic } from '../../core/village/atomicWrite.js';
import { guiRuntimeFolderUnsafe } from '../../core/errors/configErrors.js';

/** The folder the runtime files go in. */
export function runtimeFolder(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime !== undefined && isAbsolute(runtime)) return join(runtime, 'fuseforks');
  const data = env.XDG_DATA_HOME !== undefined && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : join(home, '.local', 'share');
  return join(data, 'fuseforks', 'runtime');
}

/** Creates `dir` (0700) or checks the one that is there: a real folder of this user, made 0700 whatever it was. */
export async function privateFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stat = await lstat(dir);
  if (!stat.isDirectory()) throw guiRuntimeFolderUnsafe(dir, 'it is not a folder (a link?)');
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw guiRuntimeFolderUnsafe(dir, `it belongs to uid ${stat.uid}, not to this user (${uid})`);
  if ((stat.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** What the server file tells a program. */
export interface GuiServerFile {
  pid: number;
  port: number;
  /** The GUI's address (no credential in it). */
  url: string;
  /** Sent as `x-fuseforks-token`. */
  token: string;
  dataDir: string;
  /** The browser's page (a path, not a credential). */
  openFile: string;
}

/** The page that sends the browser on with `ticket` (a meta refresh: a file page runs no script of ours). */
export function redirectPage(port: number, ticket: string): string {
  const target = `http://127.0.0.1:${port}/#ticket=${ticket}`;
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">',
    `<meta http-equiv="refresh" content="0;url=${target}">`,
    '<title>Fuseforks</title></head>',
    `<body><p>Opening <a href="${target}">Fuseforks</a>…</p></body></html>`,
    '',
  ].join('\n');
}

/** The runtime files of one launch. */
export class GuiRuntimeFiles {
  readonly serverFile: string;
  readonly openFile: string;

  private constructor(readonly dir: string) {
    this.serverFile = join(dir, `gui-${process.pid}.json`);
    this.openFile = join(dir, `gui-${process.pid}-open.html`);
  }

  /** The folder made private (CONFIG_IO naming it when it cannot be trusted). */
  static async open(dir: string = runtimeFolder()): Promise<GuiRuntimeFiles> {
    await privateFolder(dir);
    await removeLeftovers(dir);
    return new GuiRuntimeFiles(dir);
  }

  /** The browser's page as a file: URL (what goes on its command line). */
  get openUrl(): string {
    return pathToFileURL(this.openFile).href;
  }

  async writeServerFile(info: Omit<GuiServerFile, 'openFile' | 'pid'>): Promise<void> {
    const file: GuiServerFile = { pid: process.pid, ...info, openFile: this.openFile };
    await writeFileAtomic(this.serverFile, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  }

  async writeOpenPage(port: number, ticket: string): Promise<void> {
    await writeFileAtomic(this.openFile, redirectPage(port, ticket), { mode: 0o600 });
  }

  async remove(): Promise<void> {
    await Promise.all([rm(this.serverFile, { force: true }), rm(this.openFile, { force: true })]);
  }
}

/** Removes the files of launches whose process is gone (killed before it could remove them). */
async function removeLeftovers(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const pid = /^gui-(\d+)(?:-open\.html|\.json)$/.exec(name)?.[1];
    if (pid !== undefined && !alive(Number(pid))) await rm(join(dir, name), { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another account.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
