/**
 * Spawning one `run` command: an executable and an argument array, never a shell. The child gets its own
 * session and process group, an allowlisted environment (no inherited secrets) plus a random run mark, no stdin,
 * and a deadline. On timeout or abort the group gets SIGTERM, then after a short grace every process of the run
 * is SIGKILLed — also those that left the group or the session (`setsid`), found through `/proc`
 * (`processTree.ts`); after a normal exit of the child its stragglers are killed the same way. Output pipes still
 * held by something that escaped are closed on it, so the call returns at its deadline whatever the children hold.
 */
import { randomBytes } from 'node:crypto';
import { delimiter } from 'node:path';
import { RUN_MARK_VARIABLE, RunProcessTree } from './processTree.js';
import { findExecutable } from '../lookPath.js';
import { lazyBuiltin } from '../lazyBuiltin.js';

/** Loaded at the first spawn (lazyBuiltin.ts). */
const childProcess = lazyBuiltin<typeof import('node:child_process')>('node:child_process');

/** The only environment variables a child sees (when set in the parent). */
export const RUN_ENV_ALLOWLIST = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'TEMP', 'TMP'] as const;
/** Kept chars of stdout and stderr. */
export const MAX_STDOUT_CHARS = 8_000;
export const MAX_STDERR_CHARS = 4_000;
/** Bytes buffered per stream; beyond this the child's output is drained and only counted. */
const MAX_BUFFER_BYTES = 64 * 1024;
/** Grace between SIGTERM and SIGKILL, in ms. */
export const KILL_GRACE_MS = 500;
/** After the child exited (or was killed), how long its output pipes may stay open before they are closed on it, in ms. */
export const PIPE_GRACE_MS = 500;
/** How often the run's processes are polled while it runs: often at first (a `setsid … &` escapes in microseconds), then calmly, in ms. */
const POLL_FAST_MS = 20;
const POLL_SLOW_MS = 250;
const POLL_FAST_FOR_MS = 1_000;

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
  return findExecutable(command, (pathVar ?? '').split(delimiter));
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** A new random run mark (the value of RUN_MARK_VARIABLE for one run). */
export function newRunMark(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Runs `file args` in `cwd`; resolves when the child is done and its pipes are closed. The environment is the
 * allowlisted one plus the run mark, or `env` as given (a sandboxed run: the sandbox's own allowlist, its mark in it).
 */
export function runProcess(
  file: string,
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
  signal: AbortSignal,
  given?: { env: Record<string, string>; mark: string },
): Promise<RunResult> {
  return new Promise((resolve) => {
    const token = given?.mark ?? newRunMark();
    const child = childProcess().spawn(file, [...args], {
      cwd,
      env: given?.env ?? { ...runEnv(), [RUN_MARK_VARIABLE]: token },
      detached: true, // setsid(): its own session and group, so the tree can be found and killed
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
    let pipeTimer: NodeJS.Timeout | null = null;
    let spawnError: Error | null = null;
    const tree = child.pid === undefined ? null : new RunProcessTree(child.pid, token);
    const startedAt = Date.now();
    let pollTimer: NodeJS.Timeout | null = null;
    const poll = (): void => {
      tree?.poll();
      pollTimer = setTimeout(poll, Date.now() - startedAt < POLL_FAST_FOR_MS ? POLL_FAST_MS : POLL_SLOW_MS);
      pollTimer.unref();
    };
    poll();
    /** Kills what is left of the run and closes the pipes if they still hang open after a short grace. */
    const finish = (): void => {
      if (pollTimer !== null) clearTimeout(pollTimer);
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
      tree?.killAll();
      if (pipeTimer !== null) return;
      pipeTimer = setTimeout(() => {
        tree?.killAll();
        child.stdout.destroy();
        child.stderr.destroy();
      }, PIPE_GRACE_MS);
    };

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
      graceTimer = setTimeout(finish, KILL_GRACE_MS);
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

    // The child itself is gone: whatever it left behind dies now, and the pipes are closed if something still holds them.
    child.on('exit', finish);
    child.on('error', (error) => {
      spawnError = error;
      if (child.pid !== undefined) return; // a running child reports through 'close'
      clearTimeout(timer);
      if (pollTimer !== null) clearTimeout(pollTimer);
      signal.removeEventListener('abort', onAbort);
      resolve({ code: null, signal: null, stdout: '', stderr: error.message, stdoutBytes: 0, stderrBytes: 0, timedOut, aborted });
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      if (graceTimer !== null) clearTimeout(graceTimer);
      if (pipeTimer !== null) clearTimeout(pipeTimer);
      signal.removeEventListener('abort', onAbort);
      // Anything still alive (a background grandchild that closed its pipes) dies with the call.
      finish();
      if (pipeTimer !== null) clearTimeout(pipeTimer);
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
