/**
 * Spawning one `run` command: an executable and an argument array, never a shell. The child gets its own
 * process group, an allowlisted environment (no inherited secrets), no stdin, and a deadline; on timeout
 * or abort the WHOLE group is killed (SIGTERM, then SIGKILL after a short grace), and after a normal exit
 * any stragglers left in the group are killed too, so a run never outlives its call.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The only environment variables a child sees (when set in the parent). */
export const RUN_ENV_ALLOWLIST = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'TEMP', 'TMP'] as const;
/** Kept chars of stdout and stderr. */
export const MAX_STDOUT_CHARS = 8_000;
export const MAX_STDERR_CHARS = 4_000;
/** Bytes buffered per stream; beyond this the child's output is drained and only counted. */
const MAX_BUFFER_BYTES = 64 * 1024;
/** Grace between SIGTERM and SIGKILL, in ms. */
export const KILL_GRACE_MS = 500;

/** How a run ended. `code` is null when a signal ended it. */
export interface RunResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Total bytes the child wrote to each stream (also beyond the buffer). */
  stdoutBytes: number;
  stderrBytes: number;
  timedOut: boolean;
  aborted: boolean;
}

/** The environment a run child gets: only the allowlisted variables. */
export function runEnv(parent: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of RUN_ENV_ALLOWLIST) {
    const value = parent[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** Finds `command` on PATH (an executable regular file), or null. */
export function lookPath(command: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, command);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next PATH entry
    }
  }
  return null;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Runs `file args` in `cwd` with the allowlisted env; resolves when the child and its pipes are done. */
export function runProcess(file: string, args: readonly string[], cwd: string, timeoutMs: number, signal: AbortSignal): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(file, [...args], {
      cwd,
      env: runEnv(),
      detached: true, // own process group, so the whole tree can be killed with one signal
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    let aborted = false;
    let graceTimer: NodeJS.Timeout | null = null;
    let spawnError: Error | null = null;

    child.stdout.on('data', (chunk: Buffer) => {
      if (outBytes < MAX_BUFFER_BYTES) out.push(chunk);
      outBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errBytes < MAX_BUFFER_BYTES) err.push(chunk);
      errBytes += chunk.length;
    });

    const stop = (): void => {
      const pid = child.pid;
      if (pid === undefined || graceTimer !== null) return;
      killGroup(pid, 'SIGTERM');
      graceTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error) => {
      spawnError = error;
      if (child.pid !== undefined) return; // a running child reports through 'close'
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({ code: null, signal: null, stdout: '', stderr: error.message, stdoutBytes: 0, stderrBytes: 0, timedOut, aborted });
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      if (graceTimer !== null) clearTimeout(graceTimer);
      signal.removeEventListener('abort', onAbort);
      // Anything still in the group (a background grandchild that closed its pipes) dies with the call.
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
      const stderr = Buffer.concat(err).toString('utf8') + (spawnError === null ? '' : `\n${spawnError.message}`);
      resolve({
        code,
        signal: sig,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr,
        stdoutBytes: outBytes,
        stderrBytes: errBytes,
        timedOut,
        aborted,
      });
    });
  });
}
