/**
 * Runs the built `fuseforks-cli gui --no-open` as a child process for GUI tests. The build is `npm run build`
 * (tsc + vite; `npm test` runs it first); the tests only check that its output is there. `request` speaks raw
 * node:http so a test can forge Host and Origin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
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
  url: string;
  port: number;
  token: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** SIGINT, then waits for the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `gui --no-open` on `dataDir` and resolves once the URL line is on stdout. */
export function startGui(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<GuiChild> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/run.js'), 'gui', '--data-dir', dataDir, '--no-open'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(http:\/\/127\.0\.0\.1:(\d+)\/\?t=([A-Za-z0-9_-]+))\n/.exec(out);
      if (m === null) return;
      resolve({
        url: m[1]!,
        port: Number(m[2]),
        token: m[3]!,
        child,
        stdout: () => out,
        stderr: () => err,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGINT');
          return exited;
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
): Promise<{ status: number; body: unknown }> {
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
          resolve({ status: res.statusCode ?? 0, body });
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
