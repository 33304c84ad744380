/**
 * Whether this host can give a command the sandbox (sandboxPlan.ts), found once per process and kept: `bwrap` and
 * `prlimit` on the fixed system folders, then one real trial of the same plan with `true`, so a kernel without
 * unprivileged user namespaces (or a container that forbids them) is found before any command is run unsandboxed.
 * A missing sandbox is an answer with its fix (SANDBOX_UNAVAILABLE), never a throw.
 */
import { findExecutable } from '../lookPath.js';
import { sandboxUnavailable } from '../errors/hostErrors.js';
import { lazyBuiltin } from '../lazyBuiltin.js';
import { gatherHostView } from './hostView.js';
import { sandboxCommand, sandboxEnv } from './sandboxPlan.js';

const childProcess = lazyBuiltin<typeof import('node:child_process')>('node:child_process');

/** Where the two programs are looked for (never the caller's PATH: a folder on it could shadow them). */
export const SANDBOX_PROGRAM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin'] as const;

/** The sandbox is here (with the programs' paths), or not (why, and the fix a person can apply). */
export type SandboxAvailability =
  | { ok: true; bwrap: string; prlimit: string }
  | { ok: false; reason: 'bwrap_missing' | 'prlimit_missing' | 'userns_off' | 'not_linux'; detail: string; fix: string };

/** The fix for each reason, in one place (the run refusal, the check finding, the docs say the same). */
export const SANDBOX_FIXES = {
  bwrap_missing: 'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)',
  prlimit_missing: 'install util-linux (it ships prlimit)',
  userns_off:
    'enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04+ kernel.apparmor_restrict_unprivileged_userns=0; in a container run it with --security-opt seccomp=unconfined or a profile that allows clone(CLONE_NEWUSER))',
  not_linux: 'run the village on Linux (the sandbox is bubblewrap), or set "sandbox": false in the agent\'s run.json to run without one',
} as const;

function findProgram(name: string): string | null {
  return findExecutable(name, SANDBOX_PROGRAM_DIRS);
}

/** Looks now (no cache): programs first, then one trial run of the plan. */
export function probeSandbox(): SandboxAvailability {
  if (process.platform !== 'linux') return { ok: false, reason: 'not_linux', detail: `platform ${process.platform}`, fix: SANDBOX_FIXES.not_linux };
  const bwrap = findProgram('bwrap');
  if (bwrap === null) return { ok: false, reason: 'bwrap_missing', detail: 'bwrap is not installed', fix: SANDBOX_FIXES.bwrap_missing };
  const prlimit = findProgram('prlimit');
  if (prlimit === null) return { ok: false, reason: 'prlimit_missing', detail: 'prlimit is not installed', fix: SANDBOX_FIXES.prlimit_missing };
  const trial = sandboxCommand({
    policy: { network: false, memoryBytes: 256 * 1024 * 1024, cpuSecs: 10, fileBytes: 1024 * 1024, writable: false },
    programs: { bwrap, prlimit },
    workDir: '/tmp',
    hidden: [],
    host: gatherHostView([]),
    command: 'true',
    args: [],
  });
  const result = childProcess().spawnSync(trial.file, trial.args, {
    env: sandboxEnv(process.env),
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 10_000,
    encoding: 'utf8',
  });
  if (result.status === 0) return { ok: true, bwrap, prlimit };
  const said = (result.stderr ?? '').trim().split('\n')[0] ?? '';
  return {
    ok: false,
    reason: 'userns_off',
    detail: `bwrap could not build the sandbox: ${said === '' ? (result.error?.message ?? `exit ${String(result.status)}`) : said}`,
    fix: SANDBOX_FIXES.userns_off,
  };
}

let known: SandboxAvailability | null = null;

/** The answer for this process (looked for once; a host does not gain or lose bubblewrap while a village runs). */
export function sandboxAvailability(): SandboxAvailability {
  known ??= probeSandbox();
  return known;
}

/** The one-line text of a missing sandbox, with its code and fix (the run refusal and logs use it). */
export function sandboxUnavailableText(missing: Extract<SandboxAvailability, { ok: false }>): string {
  const error = sandboxUnavailable(missing.detail, missing.fix);
  return `[${error.code}] ${error.message} Fix: ${error.fix ?? missing.fix}`;
}
