/** The sandbox plan as a table: policy + work folder + hidden paths + host view in, prlimit/bwrap arguments out. */
import { describe, expect, it } from 'vitest';
import { homeSecrets, sandboxCommand, sandboxEnv, SANDBOX_HOME, type HostView, type SandboxPolicy, type SandboxRequest } from '../../../src/core/sandbox/sandboxPlan.js';

const policy: SandboxPolicy = { network: false, memoryBytes: 1 << 30, cpuSecs: 60, fileBytes: 1 << 20, writable: true };
const merged: HostView = {
  '/usr': { kind: 'dir' },
  '/bin': { kind: 'symlink', target: 'usr/bin' },
  '/lib': { kind: 'symlink', target: 'usr/lib' },
  '/etc': { kind: 'dir' },
  '/etc/shadow': { kind: 'file' },
  '/etc/ssh': { kind: 'dir' },
};
const base: SandboxRequest = {
  policy,
  programs: { prlimit: '/usr/bin/prlimit', bwrap: '/usr/bin/bwrap' },
  workDir: '/srv/fields',
  hidden: [],
  host: merged,
  command: 'sh',
  args: ['-c', 'echo hi'],
};
const plan = (over: Partial<SandboxRequest>) => sandboxCommand({ ...base, ...over });
/** The bwrap arguments only (after prlimit's `--` and the bwrap path). */
const bwrapArgs = (over: Partial<SandboxRequest>) => {
  const args = plan(over).args;
  return args.slice(args.indexOf('--') + 2);
};
/** Index of the argument pair `flag a b` (or -1). */
const pairAt = (args: string[], ...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));

describe('sandboxCommand', () => {
  it('starts prlimit with the three limits, then bwrap, and ends in -- command args', () => {
    const out = plan({});
    expect(out.file).toBe('/usr/bin/prlimit');
    expect(out.args.slice(0, 5)).toEqual([`--as=${1 << 30}`, '--cpu=60', `--fsize=${1 << 20}`, '--', '/usr/bin/bwrap']);
    expect(out.args.slice(-4)).toEqual(['--', 'sh', '-c', 'echo hi']);
  });

  const table: Array<{ name: string; over: Partial<SandboxRequest>; has: string[][]; lacks: string[][] }> = [
    {
      name: 'default: every namespace unshared, no network, dies with the parent, own session',
      over: {},
      has: [['--unshare-all'], ['--die-with-parent'], ['--new-session'], ['--proc', '/proc'], ['--tmpfs', '/tmp'], ['--dir', SANDBOX_HOME]],
      lacks: [['--share-net']],
    },
    { name: 'network allowed: the host network is shared', over: { policy: { ...policy, network: true } }, has: [['--share-net']], lacks: [] },
    {
      name: 'system folders read-only, merged-usr symlinks kept as symlinks, absent ones skipped',
      over: {},
      has: [['--ro-bind', '/usr', '/usr'], ['--symlink', 'usr/bin', '/bin'], ['--ro-bind', '/etc', '/etc']],
      lacks: [['--ro-bind', '/bin', '/bin'], ['--ro-bind', '/sbin', '/sbin'], ['--ro-bind', '/lib64', '/lib64']],
    },
    {
      name: '/etc secrets present are covered (file by /dev/null, folder by an empty read-only tmpfs); absent ones not',
      over: {},
      has: [['--ro-bind', '/dev/null', '/etc/shadow'], ['--tmpfs', '/etc/ssh', '--remount-ro', '/etc/ssh']],
      lacks: [['--ro-bind', '/dev/null', '/etc/gshadow']],
    },
    { name: 'writable work folder: bound read-write at its own path, and the command starts there', over: {}, has: [['--bind', '/srv/fields', '/srv/fields'], ['--chdir', '/srv/fields']], lacks: [] },
    { name: 'read-only work folder (pre-checks)', over: { policy: { ...policy, writable: false } }, has: [['--ro-bind', '/srv/fields', '/srv/fields']], lacks: [['--bind', '/srv/fields', '/srv/fields']] },
    {
      name: 'a data dir inside the work folder is covered; one outside is not even mentioned',
      over: { hidden: ['/srv/fields/village', '/var/lib/other'], host: { ...merged, '/srv/fields/village': { kind: 'dir' }, '/var/lib/other': { kind: 'dir' } } },
      has: [['--tmpfs', '/srv/fields/village', '--remount-ro', '/srv/fields/village']],
      lacks: [['--tmpfs', '/var/lib/other']],
    },
    {
      name: 'a hidden path that does not exist is not covered (bwrap would create it in the folder)',
      over: { hidden: ['/srv/fields/.ssh'] },
      has: [],
      lacks: [['--tmpfs', '/srv/fields/.ssh']],
    },
    {
      name: 'a work folder that is the home: its secret folders are covered',
      over: { workDir: '/home/ann', hidden: homeSecrets('/home/ann'), host: { ...merged, '/home/ann/.ssh': { kind: 'dir' }, '/home/ann/.netrc': { kind: 'file' } } },
      has: [['--tmpfs', '/home/ann/.ssh', '--remount-ro', '/home/ann/.ssh'], ['--ro-bind', '/dev/null', '/home/ann/.netrc']],
      lacks: [],
    },
  ];
  for (const row of table) {
    it(row.name, () => {
      const args = bwrapArgs(row.over);
      for (const seq of row.has) expect(pairAt(args, ...seq), seq.join(' ')).toBeGreaterThanOrEqual(0);
      for (const seq of row.lacks) expect(pairAt(args, ...seq), seq.join(' ')).toBe(-1);
    });
  }

  it('mount order: the private /tmp comes before the work folder (a work folder in /tmp lands on it), covers after it', () => {
    const args = bwrapArgs({ workDir: '/tmp/w', hidden: ['/tmp/w/data'], host: { ...merged, '/tmp/w/data': { kind: 'dir' } } });
    const tmp = pairAt(args, '--tmpfs', '/tmp');
    const work = pairAt(args, '--bind', '/tmp/w', '/tmp/w');
    const cover = pairAt(args, '--tmpfs', '/tmp/w/data');
    expect(tmp).toBeGreaterThanOrEqual(0);
    expect(work).toBeGreaterThan(tmp);
    expect(cover).toBeGreaterThan(work);
  });
});

describe('sandboxEnv', () => {
  it('keeps only the allowlist, fixes HOME and TMPDIR, adds the extras', () => {
    const env = sandboxEnv(
      { PATH: '/usr/bin', LANG: 'C.UTF-8', HOME: '/root', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/0/bus', FUSEFORKS_SECRET_KEY: 'x', XDG_RUNTIME_DIR: '/run/user/0' },
      { FUSEFORKS_RUN_ID: 'abc' },
    );
    expect(env).toEqual({ PATH: '/usr/bin', LANG: 'C.UTF-8', HOME: SANDBOX_HOME, TMPDIR: '/tmp', FUSEFORKS_RUN_ID: 'abc' });
  });
  it('gives a PATH when the parent has none', () => {
    expect(sandboxEnv({}).PATH).toMatch(/\/usr\/bin/);
  });
});
