/**
 * Secrets taken from the environment leave no trace a reader of /proc can find (issue 19). A real child process
 * holds a sentinel in FUSEFORKS_SECRET_*, takes it the way `--secrets env` does, and then:
 * - as root (these tests run as root): /proc/<pid>/environ shows neither the name nor the value (the original
 *   environment block was overwritten), while PATH is still there (the read works);
 * - as another, unprivileged user reading a process of the SAME user: /proc/<pid>/environ and /proc/<pid>/mem are
 *   refused (the process is non-dumpable); a control process that did not take its secrets is readable.
 * `delete process.env[…]` alone passes neither: unsetenv leaves the original strings in place.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, requireDist } from '../../cli/support/cliProcess.js';

const SENTINEL = 'sk-proj-SCRUBsentinel-7f3e9a0c55d1';
const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.stdin.end();
});

interface Started {
  pid: number;
  line: { took: number; left: string[]; report: { removed: number; overwritten: number; nonDumpable: boolean } | null };
}

/** Starts the fixture (as `nobody` when asked) with the sentinel in its environment; resolves with its first line. */
function start(mode: 'take' | 'keep', asNobody: boolean): Promise<Started> {
  requireDist();
  const script = join(ROOT, 'test/fixtures/processes/scrubSecrets.mjs');
  const [file, args] = asNobody ? ['setpriv', [...NOBODY, process.execPath, script, mode]] : [process.execPath, [script, mode]];
  const child = spawn(file, args, { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', FUSEFORKS_SECRET_SCRUB_TEST: SENTINEL } });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve({ pid: child.pid!, line: JSON.parse(out.split('\n')[0]!) as Started['line'] });
    });
    child.once('exit', (code) => reject(new Error(`the fixture exited (${code}) before reporting`)));
  });
}

/** `cat` run as nobody against another nobody process: its stdout, or the refusal on stderr. */
function readAsNobody(file: string): { ok: boolean; text: string } {
  const run = spawnSync('setpriv', [...NOBODY, 'cat', file], { encoding: 'latin1' });
  return { ok: run.status === 0, text: run.status === 0 ? run.stdout : run.stderr };
}

describe('taking FUSEFORKS_SECRET_* out of the process', () => {
  it('root reading /proc/<pid>/environ finds neither name nor value once they are taken; process.env has none left', async () => {
    const { pid, line } = await start('take', false);
    expect(line.took).toBe(1);
    expect(line.left).toEqual([]);
    expect(line.report).toMatchObject({ removed: 1, overwritten: 1, nonDumpable: true });
    const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    expect(environ).toContain('PATH=');
    expect(environ).not.toContain(SENTINEL);
    expect(environ).not.toContain('FUSEFORKS_SECRET_');
  });

  it('a process of the same unprivileged user cannot read environ or mem of one that took its secrets; the control can', async () => {
    const control = await start('keep', true);
    const readable = readAsNobody(`/proc/${control.pid}/environ`);
    expect(readable.ok, readable.text).toBe(true);
    expect(readable.text).toContain(SENTINEL); // the hole this closes

    const { pid } = await start('take', true);
    for (const file of [`/proc/${pid}/environ`, `/proc/${pid}/mem`]) {
      const read = readAsNobody(file);
      expect(read.ok).toBe(false);
      expect(read.text).toMatch(/Permission denied/);
    }
  });
});
