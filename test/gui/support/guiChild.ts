/**
 * Runs the built `fuseforks-cli gui --no-open` as a child process for GUI tests, with a private runtime folder of
 * its own (`XDG_RUNTIME_DIR`, removed at stop). The build is `npm run build` (tsc + vite; `npm test` runs it
 * first); the tests only check that its output is there. `request` speaks raw node:http so a test can forge Host
 * and Origin.
 *
 * How a test gets in, as a person or a program would: `url` is a fresh single-use URL read from the launch's
 * browser page in the runtime folder (each read after a use gives the next one), `printedUrl` the one on stdout,
 * and `token` the launch token from the runtime folder's server file (for `x-fuseforks-token`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Throws a clear error when the built server or client is missing (the tests never build on their own). */
export function requireGuiBuild(): void {
  for (const file of ['dist/gui/server/runGui.js', 'dist/gui/client/index.html']) {
    if (!existsSync(join(ROOT, file))) {
      throw new Error(`The GUI build output ${file} is missing: run \`npm run build\` (tsc + vite) first, or use \`npm test\`.`);
    }
  }
}

/** A running `fuseforks-cli gui`. */
export interface GuiChild {
  /** A single-use URL that opens a browser session (read from the runtime page file at each access). */
  readonly url: string;
  /** The single-use URL the command printed. */
  printedUrl: string;
  /** `http://127.0.0.1:PORT/` (no credential). */
  address: string;
  port: number;
  /** The launch token (the runtime folder's server file). */
  token: string;
  /** `XDG_RUNTIME_DIR` of the child; its files are in `runtimeDir/fuseforks/`. */
  runtimeDir: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** SIGINT, then waits for the exit code (the runtime folder is removed after). */
  stop(): Promise<number | null>;
}

/** The server file and the browser page of the launch in `runtimeDir` (none yet: null). */
export function runtimeFilesOf(runtimeDir: string): { serverFile: string; openFile: string } | null {
  const dir = join(runtimeDir, 'fuseforks');
  const name = existsSync(dir) ? readdirSync(dir).find((f) => /^gui-\d+\.json$/.test(f)) : undefined;
  if (name === undefined) return null;
  return { serverFile: join(dir, name), openFile: join(dir, name.replace(/\.json$/, '-open.html')) };
}

/** The URL (with its live ticket) the launch's browser page sends the browser to. */
export function openPageUrl(openFile: string): string {
  const m = /content="0;url=([^"]+)"/.exec(readFileSync(openFile, 'utf8'));
  if (m === null) throw new Error(`${openFile} names no URL`);
  return m[1]!;
}

/** Starts `gui --no-open` on `dataDir` and resolves once the URL line is on stdout. */
export function startGui(dataDir: string, env: NodeJS.ProcessEnv = {}, args: readonly string[] = ['--no-open']): Promise<GuiChild> {
  const ownRuntime = env.XDG_RUNTIME_DIR === undefined;
  const runtimeDir = env.XDG_RUNTIME_DIR ?? mkdtempSync(join(tmpdir(), 'ff-gui-run-'));
  const child = spawn(process.execPath, [join(ROOT, 'bin/run.js'), 'gui', '--data-dir', dataDir, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, XDG_RUNTIME_DIR: runtimeDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(http:\/\/127\.0\.0\.1:(\d+)\/)#ticket=[A-Za-z0-9_-]+\n/.exec(out);
      if (m === null) return;
      // The server file is written before the URL is printed.
      const files = runtimeFilesOf(runtimeDir);
      if (files === null) return reject(new Error(`gui printed its URL but wrote no server file in ${runtimeDir}: ${err}`));
      const server = JSON.parse(readFileSync(files.serverFile, 'utf8')) as { token: string };
      resolve({
        get url() {
          return openPageUrl(files.openFile);
        },
        printedUrl: m[0].trim(),
        address: m[1]!,
        port: Number(m[2]),
        token: server.token,
        runtimeDir,
        child,
        stdout: () => out,
        stderr: () => err,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGINT');
          const code = await exited;
          if (ownRuntime) rmSync(runtimeDir, { recursive: true, force: true });
          return code;
        },
      });
    });
    void exited.then((code) => reject(new Error(`gui exited (${code}) before printing its URL: ${err}`)));
  });
}

/** One raw HTTP request (Host and Origin may be forged). */
export function request(
  port: number,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: unknown; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const data = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { ...(data ? { 'content-type': 'application/json' } : {}), ...opts.headers } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON (HTML page)
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** Polls /api/boot until it leaves `booting`. */
export async function waitBoot(port: number, token: string): Promise<{ state: string; error?: { code: string; message: string } }> {
  for (;;) {
    const res = await request(port, 'GET', '/api/boot', { headers: { 'x-fuseforks-token': token } });
    const body = res.body as { state: string; error?: { code: string; message: string } };
    if (body.state !== 'booting') return body;
    await new Promise((r) => setTimeout(r, 100));
  }
}
