/**
 * Starts a fixture script (test/fixtures/processes) as a real child process and reads its stdout by lines.
 * The fixtures import from dist/, so a missing build is reported plainly instead of as a confusing crash.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Throws unless `dist/<relative>` exists (fixtures run compiled code). */
export function requireDist(relative: string): void {
  if (!fs.existsSync(path.join(ROOT, 'dist', relative))) {
    throw new Error(`dist/${relative} is missing: run \`npm run build\` before these integration tests.`);
  }
}

export interface LineChild {
  child: ChildProcess;
  /** Complete stdout lines so far (a line cut by a kill is not included). */
  lines: string[];
  /** Resolves with the first line matching `test` (rejects if the child exits first). */
  waitFor(test: (line: string) => boolean): Promise<string>;
  /** Resolves when the child has exited (immediately if it already has). */
  exited(): Promise<void>;
}

export function startFixture(script: string, args: string[]): LineChild {
  const child = spawn(process.execPath, [path.join(ROOT, 'test/fixtures/processes', script), ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { test: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  let buffer = '';
  let stderr = '';
  let done = false;
  const exitWaiters: (() => void)[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      for (const w of waiters.splice(0)) {
        if (w.test(line)) w.resolve(line);
        else waiters.push(w);
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const failed: ((e: Error) => void)[] = [];
  child.on('exit', () => {
    done = true;
    for (const f of failed.splice(0)) f(new Error(`${script} exited before the expected line; stderr: ${stderr.slice(0, 500)}`));
    for (const resolve of exitWaiters.splice(0)) resolve();
  });
  return {
    child,
    lines,
    waitFor(test) {
      const seen = lines.find(test);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        if (done) return reject(new Error(`${script} already exited; stderr: ${stderr.slice(0, 500)}`));
        waiters.push({ test, resolve });
        failed.push(reject);
      });
    },
    exited() {
      if (done) return Promise.resolve();
      return new Promise((resolve) => exitWaiters.push(resolve));
    },
  };
}
