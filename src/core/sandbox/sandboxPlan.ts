/**
 * The sandbox of every process the runtime starts on a model's behalf (the `run` tool, schedule pre-checks, stdio
 * MCP servers marked `"sandbox": true`), as one pure decision: a policy, the work folder, the folders to hide and a
 * view of the host's system folders in, the argument list of `prlimit … bwrap … -- command args` out. Nothing here
 * touches the disk; `hostView.ts` gathers the facts and `sandboxAvailability.ts` finds the programs.
 *
 * What the plan gives the command (bubblewrap, Debian package `bubblewrap`):
 * - the system folders (/usr, /bin, /sbin, /lib*, /etc) read-only, with the secret files of /etc covered;
 * - the work folder read-write (or read-only, for pre-checks), with the data dir and the secret folders of the real
 *   home covered by empty read-only folders when they lie inside it;
 * - an empty private /tmp and an empty home (`/home/sandbox`), a fresh /proc (new PID namespace) and a minimal /dev;
 * - new user, IPC, UTS, cgroup, PID and network namespaces (`--unshare-all`); the network namespace is kept only
 *   when the policy allows network (`--share-net`); without it not even the host's loopback ports are reachable;
 * - `--die-with-parent` and `--new-session`; with the PID namespace every descendant dies when the command ends;
 * - rlimits set by `prlimit` before bwrap starts: address space, CPU seconds, file size (inherited by every child).
 * The environment is not part of the plan's arguments: the caller spawns with `sandboxEnv()` only, so bwrap itself
 * (and the sandbox's PID 1, all a command can see in /proc) holds nothing else.
 */
import { dirname, isAbsolute, relative, sep } from 'node:path';

/** What the sandbox allows one command. */
export interface SandboxPolicy {
  /** True = the host's network namespace is shared (the network and the host's loopback ports reachable). */
  network: boolean;
  /** RLIMIT_AS in bytes (address space of each process). */
  memoryBytes: number;
  /** RLIMIT_CPU in seconds (CPU time of each process). */
  cpuSecs: number;
  /** RLIMIT_FSIZE in bytes (largest file a process may write). */
  fileBytes: number;
  /** False = the work folder is bound read-only (schedule pre-checks only look). */
  writable: boolean;
}

/** One system path as the host has it: a folder, a file, a symlink (with its target), or absent (not listed). */
export type HostEntry = { kind: 'dir' } | { kind: 'file' } | { kind: 'symlink'; target: string };

/** The facts about the host the plan needs: each listed path that exists, by absolute path. */
export type HostView = Readonly<Record<string, HostEntry>>;

/** Everything one plan is made from. All paths absolute and real (symlinks resolved). */
export interface SandboxRequest {
  policy: SandboxPolicy;
  /** Absolute paths of `prlimit` and `bwrap` on this host. */
  programs: { prlimit: string; bwrap: string };
  /** The folder the command runs in, bound at the same path; null = nothing bound, the command starts in the home. */
  workDir: string | null;
  /**
   * Paths never visible (the data dir, the real home's secret folders); covered where the work folder holds them and
   * `host` lists them (the edge lists each hidden path that exists).
   */
  hidden: readonly string[];
  host: HostView;
  /** More folders bound read-only at their own paths (a sandboxed MCP server's `readOnly`); absent = none. */
  readOnly?: readonly string[];
  command: string;
  args: readonly string[];
}

/** The argument list to spawn: `file` (prlimit) and its `args`, ending in `-- command args`. */
export interface SandboxCommand {
  file: string;
  args: string[];
}

/** The system folders bound read-only when the host has them (symlinks are recreated as symlinks). */
export const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'] as const;

/** Files and folders under /etc that hold secrets: covered by /dev/null or an empty folder when present. */
export const ETC_SECRETS = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/ssh',
  '/etc/ssl/private',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/security/opasswd',
  '/etc/krb5.keytab',
  '/etc/containers/auth.json',
] as const;

/** Folders of a home that hold keys, tokens or the keyring: hidden when a bound folder holds them. */
export const HOME_SECRETS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.netrc',
  '.npmrc',
  '.pgpass',
  '.git-credentials',
  '.password-store',
  '.config/gcloud',
  '.config/gh',
  '.config/containers',
  '.local/share/keyrings',
  '.local/share/fuseforks',
] as const;

/** The home a sandboxed command sees: an empty tmpfs. */
export const SANDBOX_HOME = '/home/sandbox';

/** Variables a sandboxed command gets (the values from the parent, HOME and TMPDIR fixed). */
export const SANDBOX_ENV_ALLOWLIST = ['PATH', 'LANG', 'LC_ALL', 'TERM', 'TZ'] as const;

/** The PATH when the parent has none. */
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin';

/** True when `target` is `root` or below it (both absolute and normalized). */
function within(root: string, target: string): boolean {
  if (target === root) return true;
  const rel = relative(root, target);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** The environment of a sandboxed command: the allowlist from `parent`, HOME and TMPDIR fixed, plus `extra`. */
export function sandboxEnv(parent: NodeJS.ProcessEnv, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of SANDBOX_ENV_ALLOWLIST) {
    const value = parent[key];
    if (value !== undefined) env[key] = value;
  }
  env['PATH'] ??= DEFAULT_PATH;
  env['HOME'] = SANDBOX_HOME;
  env['TMPDIR'] = '/tmp';
  return { ...env, ...extra };
}

/** The paths below `home` that are hidden (HOME_SECRETS), for the caller to add to `hidden`. */
export function homeSecrets(home: string): string[] {
  return HOME_SECRETS.map((name) => `${home}/${name}`);
}

/** Covers one path: a folder by an empty read-only tmpfs, a file by /dev/null. */
function cover(path: string, kind: 'dir' | 'file'): string[] {
  return kind === 'dir' ? ['--tmpfs', path, '--remount-ro', path] : ['--ro-bind', '/dev/null', path];
}

/**
 * The plan. Order matters to bwrap (mounts are made in argument order): the private /tmp and home first, then the
 * system folders, the work folder (so a work folder below /tmp lands on the private /tmp), then the covers.
 */
export function sandboxCommand(request: SandboxRequest): SandboxCommand {
  const { policy, host, workDir } = request;
  const limits = [`--as=${policy.memoryBytes}`, `--cpu=${policy.cpuSecs}`, `--fsize=${policy.fileBytes}`];
  const b: string[] = ['--unshare-all'];
  if (policy.network) b.push('--share-net');
  b.push('--die-with-parent', '--new-session', '--hostname', 'sandbox');
  b.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/home', '--dir', SANDBOX_HOME);
  for (const path of SYSTEM_PATHS) {
    const entry = host[path];
    if (entry === undefined) continue;
    if (entry.kind === 'symlink') b.push('--symlink', entry.target, path);
    else b.push('--ro-bind', path, path);
  }
  if (policy.network) {
    // /etc/resolv.conf often points into /run (systemd-resolved, resolvconf): bind what it points at.
    const resolv = host['/etc/resolv.conf'];
    if (resolv?.kind === 'symlink' && isAbsolute(resolv.target) && !within('/etc', resolv.target)) {
      b.push('--ro-bind-try', dirname(resolv.target), dirname(resolv.target));
    }
  }
  for (const path of ETC_SECRETS) {
    const entry = host[path];
    if (entry === undefined || entry.kind === 'symlink') continue;
    b.push(...cover(path, entry.kind));
  }
  for (const path of request.readOnly ?? []) b.push('--ro-bind-try', path, path);
  if (workDir === null) {
    b.push('--chdir', SANDBOX_HOME, '--', request.command, ...request.args);
    return { file: request.programs.prlimit, args: [...limits, '--', request.programs.bwrap, ...b] };
  }
  b.push(policy.writable ? '--bind' : '--ro-bind', workDir, workDir);
  // A hidden folder inside the work folder is covered; one that holds the work folder hides nothing the plan shows
  // (the work folder is all of it that is bound), and one elsewhere is not bound at all.
  // Only what exists is covered: a cover of a missing path would make bwrap create it in the person's folder.
  for (const path of request.hidden) {
    const entry = host[path];
    if (entry === undefined || entry.kind === 'symlink' || path === workDir || !within(workDir, path)) continue;
    b.push(...cover(path, entry.kind));
  }
  b.push('--chdir', workDir, '--', request.command, ...request.args);
  return { file: request.programs.prlimit, args: [...limits, '--', request.programs.bwrap, ...b] };
}
