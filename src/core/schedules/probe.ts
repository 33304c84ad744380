/**
 * Runs a schedule's pre-check command (argv form, no shell) inside the OS sandbox (src/core/sandbox), PATH re-resolved every run,
 * a cleared environment with a short pass-through list, its own process group, stdout capped, and the whole
 * group killed on timeout. The command runs only when its approval hash is on this shelf; otherwise it is never
 * started and the outcome is `unapproved`. One `schedule probe:` note per run, counts only (never stdout text).
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { sandboxedSpawn } from '../sandbox/sandboxedCommand.js';
import { isInside } from '../tools/confinement.js';
import { defaultRunLimits } from '../tools/runPolicy.js';
import { nullDiagSink, type DiagSink } from '../diag.js';
import { judgeProbe, PROBE_STDOUT_CAP_CHARS, type ProbeErrorReason, type ProbeOutcome } from './probeJudge.js';
import type { ScheduleLanguage } from './scheduleText.js';
import type { ScheduleProbe } from './types.js';
import { lazyBuiltin } from '../lazyBuiltin.js';

/** Loaded at the first spawn (lazyBuiltin.ts). */
const childProcess = lazyBuiltin<typeof import('node:child_process')>('node:child_process');

/** The limits of a pre-check inside the sandbox: the defaults of a run (run.json's keys do not apply to probes). */
const PROBE_LIMITS = defaultRunLimits();

/** The only environment variables a probe inherits. */
export const PROBE_ENV_PASSTHROUGH = ['PATH', 'SYSTEMROOT', 'TEMP', 'TMP', 'HOME', 'USERPROFILE', 'LANG', 'PROGRAMDATA'] as const;

/** Result of one run. `exitCode` is only reported, never judged; `stdoutChars` = chars captured. */
export interface ProbeReport {
  outcome: ProbeOutcome;
  reason: ProbeErrorReason | null;
  exitCode: number | null;
  /** Full path that was executed, or null when nothing ran. */
  resolved: string | null;
  stdoutChars: number;
  /** Lines 2+ of stdout for the request (only on `match`, only when non-empty). */
  appendix?: string;
}

/** One run: the probe, where `cwd: null` points (the workspace), the language of the cut note. */
export interface ProbeRunRequest {
  probe: ScheduleProbe;
  workspaceDir: string;
  language: ScheduleLanguage;
  /** Capture limit in chars (default 65,536); tests shrink it. */
  stdoutCapChars?: number;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds the program like a shell would: a path with a separator as is (relative to cwd), else each PATH entry. */
export async function resolveProgram(command: string, pathVar: string | undefined, cwd: string): Promise<string | null> {
  if (command.includes('/') || command.includes('\\')) {
    const full = isAbsolute(command) ? command : resolve(cwd, command);
    return (await isExecutableFile(full)) ? full : null;
  }
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (dir === '') continue;
    const full = join(dir, command);
    if (await isExecutableFile(full)) return full;
  }
  return null;
}

function probeEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of PROBE_ENV_PASSTHROUGH) if (process.env[key] !== undefined) env[key] = process.env[key];
  return env;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    // Negative pid = the whole process group (the child was spawned detached, so it leads its own group).
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * What a probe spawns: inside the sandbox (sandboxPlan.ts) with the host's network (a pre-check exists to look at
 * the outside world) and its folder read-only; a folder inside the data dir (the default, the workspace) is not
 * bound at all and the probe starts in the sandbox's empty home. Null = the sandbox cannot be had, so nothing runs.
 */
function probeSpawn(
  request: ProbeRunRequest,
  cwd: string,
  resolved: string,
): { file: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv } | null {
  const dataDir = dirname(resolve(request.workspaceDir));
  const inData = isInside(dataDir, resolve(cwd));
  const spawn = sandboxedSpawn({
    policy: { network: true, writable: false, memoryBytes: PROBE_LIMITS.memoryMb * MB, cpuSecs: PROBE_LIMITS.cpuSecs, fileBytes: PROBE_LIMITS.fileMb * MB },
    workDir: inData ? null : cwd,
    dataDir,
    command: resolved,
    args: request.probe.args,
  });
  if (!spawn.ok) return null;
  return { file: spawn.file, args: spawn.args, cwd: inData ? dataDir : cwd, env: spawn.env };
}

const MB = 1024 * 1024;

/** Runs the probe now (no approval check: callers use `runApprovedProbe`). Never throws. */
export async function runProbe(request: ProbeRunRequest): Promise<ProbeReport> {
  const { probe } = request;
  const none = { exitCode: null, resolved: null, stdoutChars: 0 };
  const cwd = probe.cwd ?? request.workspaceDir;
  try {
    if (!(await stat(cwd)).isDirectory()) return { outcome: 'error', reason: 'cwd_missing', ...none };
  } catch {
    return { outcome: 'error', reason: 'cwd_missing', ...none };
  }
  const env = probeEnv();
  const resolved = await resolveProgram(probe.command, env.PATH, cwd);
  if (resolved === null) return { outcome: 'error', reason: 'not_found', ...none };
  const cap = request.stdoutCapChars ?? PROBE_STDOUT_CAP_CHARS;
  const start = probeSpawn(request, cwd, resolved);
  if (start === null) return { outcome: 'error', reason: 'sandbox_unavailable', ...none };

  return new Promise<ProbeReport>((done) => {
    let stdout = '';
    let capped = false;
    let timedOut = false;
    let exitCode: number | null = null;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const child = childProcess().spawn(start.file, start.args, {
      cwd: start.cwd,
      env: start.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const finish = (report: ProbeReport): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      done(report);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
      // A descendant that left the group could keep the pipe open; do not wait on it forever.
      graceTimer = setTimeout(() => finish({ outcome: 'timeout', reason: null, exitCode, resolved, stdoutChars: stdout.length }), 2_000);
    }, probe.timeoutSecs * 1000);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (capped) return;
      const room = cap - stdout.length;
      if (chunk.length > room) {
        stdout += chunk.slice(0, room);
        capped = true;
      } else {
        stdout += chunk;
      }
    });
    // stderr is drained (so the child never blocks on a full pipe) and ignored.
    child.stderr?.resume();
    child.on('error', () => finish({ outcome: 'error', reason: 'spawn_failed', exitCode: null, resolved, stdoutChars: 0 }));
    child.on('exit', (code) => {
      exitCode = code;
    });
    child.on('close', (code) => {
      if (code !== null) exitCode = code;
      if (timedOut) {
        finish({ outcome: 'timeout', reason: null, exitCode, resolved, stdoutChars: stdout.length });
        return;
      }
      const verdict = judgeProbe(stdout, capped, probe.expect, request.language);
      const report: ProbeReport = { outcome: verdict.outcome, reason: null, exitCode, resolved, stdoutChars: stdout.length };
      if (verdict.outcome === 'error') report.reason = verdict.reason;
      if (verdict.outcome === 'match' && verdict.appendix !== undefined) report.appendix = verdict.appendix;
      finish(report);
    });
  });
}

/** A probe run for one schedule, gated by the shelf's approval. */
export interface ApprovedProbeRequest extends ProbeRunRequest {
  taskId: string;
  /** Result of `ProbeApprovals.isApproved(probe, villageId)`; false = the command is never started. */
  approved: boolean;
  diag?: DiagSink;
  /** The runner (default `runProbe`); the ticker tests keep the real one. */
  run?: (request: ProbeRunRequest) => Promise<ProbeReport>;
}

/** Runs the probe only if approved, and writes the one `schedule probe:` note (counts only). */
export async function runApprovedProbe(request: ApprovedProbeRequest): Promise<ProbeReport> {
  const report: ProbeReport = request.approved
    ? await (request.run ?? runProbe)(request)
    : { outcome: 'unapproved', reason: null, exitCode: null, resolved: null, stdoutChars: 0 };
  (request.diag ?? nullDiagSink).note(
    'schedule probe',
    {
      id: request.taskId,
      outcome: report.outcome,
      exit: report.exitCode,
      reason: report.reason,
      stdout_chars: report.stdoutChars,
    },
    report.outcome === 'error' || report.outcome === 'timeout' ? 'warn' : 'info',
  );
  return report;
}
