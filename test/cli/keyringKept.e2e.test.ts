/**
 * Keys the OS keyring does not keep are never reported as stored (built binary, real keyring stores). On Linux the
 * keyring library falls back silently to the kernel keyring when no Secret Service answers on the session bus; the
 * kernel keyring forgets keys at reboot, after 3 days unused and in other login sessions or containers, and a process
 * that reaches a Secret Service never reads it. So:
 * - `secrets set` with no Secret Service fails with SECRET_NOT_KEPT and its fix, leaves world.json and the kernel
 *   keyring as they were, and the next process finds no key (before: "stored", and the next process said missing);
 * - `check` names a keyring whose stores answer differently for a needed key (a kernel copy the Secret Service does
 *   not have, or a different value there), with the fix; after the fix's own steps the warning is gone.
 *
 * Every step runs in its own user namespace (`unshare --user`), whose kernel keyrings are its own and vanish with it,
 * and the Secret Service is a throwaway gnome-keyring on a private D-Bus session under a temporary HOME: no real
 * keyring of this machine is read or written.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, cliBudget, makeVillage, REPO_BIN, ROOT, useCliSuite } from './support/cliProcess.js';
import { keyringSessionMissing } from './support/keyringSession.js';

const { temps, stub } = useCliSuite();
const SERVICE = 'jp.outcasts.fuseforks';

/** Why these tests cannot run here (null when they can). */
function isolationMissing(): string | null {
  const session = keyringSessionMissing();
  if (session !== null) return session;
  if (spawnSync('sh', ['-c', 'command -v keyctl']).status !== 0) return 'keyctl is not installed (apt-get install keyutils)';
  if (spawnSync('unshare', ['--user', '--map-root-user', 'true']).status !== 0) return 'user namespaces are not available (unshare --user)';
  return null;
}
const MISSING = isolationMissing();
if (MISSING !== null) console.warn(`[skip] keyringKept: ${MISSING}`);

/** One step's outcome. */
interface Step {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `steps` (shell lines, `$CLI` = the built CLI, `$D` = the data dir) one after another in a fresh user namespace
 * with its own session keyring and no session bus; `secretService: true` runs them on a private D-Bus session with an
 * unlocked gnome-keyring. Each step's exit code and output come back.
 */
async function inFreshNamespace(dir: string, steps: string[], secretService: boolean): Promise<Step[]> {
  const home = temps.make('ff-keyring-home-');
  mkdirSync(join(home, 'run'), { mode: 0o700 });
  const out = temps.make('ff-keyring-out-');
  const body = steps.map((line, i) => `( ${line} ) >"$OUT/${i}.out" 2>"$OUT/${i}.err"; echo $? >"$OUT/${i}.code"`).join('\n');
  const script = secretService
    ? `dbus-run-session -- sh -c 'printf %s test-keyring | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null; sleep 0.5; sh "$OUT/steps.sh"'`
    : 'sh "$OUT/steps.sh"';
  writeFileSync(join(out, 'steps.sh'), `${body}\n`);
  const env = cleanEnv({ HOME: home, XDG_DATA_HOME: join(home, '.local/share'), XDG_RUNTIME_DIR: join(home, 'run'), OUT: out, D: dir, CLI: `${process.execPath} ${REPO_BIN}`, NODE: process.execPath });
  delete env['DBUS_SESSION_BUS_ADDRESS'];
  const child = spawn('unshare', ['--user', '--map-root-user', 'keyctl', 'session', '-', 'sh', '-c', script], { cwd: ROOT, env, stdio: 'ignore' });
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  await new Promise((resolve) => child.once('close', resolve));
  clearTimeout(killer);
  return steps.map((_, i) => ({
    code: Number(readFileSync(join(out, `${i}.code`), 'utf8').trim()),
    stdout: readFileSync(join(out, `${i}.out`), 'utf8'),
    stderr: readFileSync(join(out, `${i}.err`), 'utf8'),
  }));
}

/** A one-agent village whose template `gpt` needs a key it does not have yet (`credential: unset`). */
function village(): string {
  const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk', template: 'gpt' }] });
  const file = join(dir, 'workspace/world.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"id": "stub"', '"id": "gpt"').replace('"credential": "keyring"', '"credential": "unset"'));
  return dir;
}

/** The kernel keyring entry the library's fallback writes for template `gpt` (its own format), as keyctl finds it. */
const KERNEL_KEY = `keyring:gpt@${SERVICE}`;
/** Writes `value` for `gpt` into the kernel keyring through the keyring library's own kernel store. */
const kernelWrite = (value: string): string =>
  `"$NODE" -e "const { Entry } = require('@napi-rs/keyring'); new Entry('${SERVICE}', 'gpt', { linux: { store: 'keyutils' } }).setPassword('${value}')"`;

describe.skipIf(MISSING !== null)('a keyring that does not keep keys (built binary, real stores in a user namespace)', () => {
  it('secrets set with no Secret Service fails with SECRET_NOT_KEPT and its fix; nothing is stored, world.json is untouched', async () => {
    const dir = village();
    const before = readFileSync(join(dir, 'workspace/world.json'), 'utf8');
    const [set, kernel, list] = await inFreshNamespace(dir, ['printf %s sk-test-one | $CLI secrets set gpt -d "$D"', `keyctl search @s user '${KERNEL_KEY}'`, '$CLI secrets list -d "$D" --json'], false);
    expect(set!.code, set!.stderr).toBe(1);
    expect(set!.stdout).toBe('');
    expect(set!.stderr).toContain('error [SECRET_NOT_KEPT] The OS keyring did not keep the secret "gpt": no Secret Service answers on this session');
    expect(set!.stderr).toContain('the kernel keyring, the only one left, forgets keys at reboot');
    expect(set!.stderr).toContain('fix: Start and unlock a Secret Service in this session');
    expect(set!.stderr).not.toContain('sk-test-one');
    // Nothing went to the kernel keyring, world.json still says the key is unset, and a list finds no key.
    expect(kernel!.code, 'no kernel keyring entry').not.toBe(0);
    expect(readFileSync(join(dir, 'workspace/world.json'), 'utf8')).toBe(before);
    expect(JSON.parse(list!.stdout)).toMatchObject({ secrets: [{ name: 'gpt', credential: 'unset', stored: false }, { name: 'jev_api_token' }] });
  }, cliBudget(2));

  it('check names a kernel keyring copy the Secret Service lacks, then one with another value; the fix clears it', async () => {
    const dir = village();
    writeFileSync(join(dir, 'workspace/world.json'), readFileSync(join(dir, 'workspace/world.json'), 'utf8').replace('"credential": "unset"', '"credential": "keyring"'));
    const check = '$CLI check --for ask --start reception -d "$D" --json';
    const steps = await inFreshNamespace(
      dir,
      [
        // What a session without a bus left behind (the keyring library's own fallback store).
        kernelWrite('sk-from-a-session-without-a-bus'),
        check,
        'printf %s sk-test-two | $CLI secrets set gpt -d "$D"',
        check,
        // The finding's fix: remove the kernel keyring's copy.
        `keyctl purge user '${KERNEL_KEY}'`,
        check,
      ],
      true,
    );
    const [write, first, set, second, purge, third] = steps as [Step, Step, Step, Step, Step, Step];
    expect(write.code, write.stderr).toBe(0);
    type Report = { findings: Array<{ level: string; code: string; message: string; fix: string }> };
    const findings = (s: Step): Report['findings'] => (JSON.parse(s.stdout) as Report).findings;

    // The Secret Service has no key, the kernel keyring has one: missing for this run, and the split is named.
    expect(first.code, first.stderr).toBe(3);
    expect(findings(first).map((f) => [f.level, f.code])).toEqual(expect.arrayContaining([['reject', 'SECRET_MISSING'], ['warn', 'KEYRING_INCONSISTENT']]));
    const split = findings(first).find((f) => f.code === 'KEYRING_INCONSISTENT')!;
    expect(split.message).toContain("The OS keyring answers differently about the key gpt (this process's keyring: missing, then missing; the Secret Service: missing; the kernel keyring: stored)");
    expect(split.fix).toContain(`keyctl purge user "${KERNEL_KEY}"`);
    expect(split.fix).toContain('fuseforks-cli secrets set gpt -d DIR');

    // Stored where the Secret Service runs (read back, so reported as stored): now two stores hold two values.
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('gpt: stored in the keyring');
    expect(second.code, second.stderr).toBe(0);
    expect(findings(second).find((f) => f.code === 'KEYRING_INCONSISTENT')?.message).toContain('the Secret Service: stored; the kernel keyring: stored, another value');

    expect(purge.code, purge.stderr).toBe(0);
    expect(third.code, third.stderr).toBe(0);
    expect(findings(third).map((f) => f.code)).not.toContain('KEYRING_INCONSISTENT');
  }, cliBudget(4));
});
