/**
 * A throwaway Secret Service for one test file, as `.ci/run` makes one for the whole suite: a private D-Bus session
 * (`dbus-run-session`) with an unlocked gnome-keyring under a temporary HOME, so keyring tests run on any machine
 * that has the two programs and never touch a real keyring. CLI children get `env` to reach it; `close()` ends the
 * session (the keyring daemon leaves with its bus).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** A running session: the environment that reaches it, and its end. */
export interface KeyringSession {
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Why no session can be made here (null when `dbus-run-session` and `gnome-keyring-daemon` are installed). */
export function keyringSessionMissing(): string | null {
  for (const program of ['dbus-run-session', 'gnome-keyring-daemon']) {
    if (spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0) return `${program} is not installed (apt-get install dbus gnome-keyring)`;
  }
  return null;
}

/** Starts the session with `home` as HOME (a temp dir the caller removes). */
export async function startKeyringSession(home: string): Promise<KeyringSession> {
  mkdirSync(join(home, 'run'), { recursive: true, mode: 0o700 });
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_DATA_HOME: join(home, '.local/share'), XDG_RUNTIME_DIR: join(home, 'run') };
  const script = 'printf %s test-keyring | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null; sleep 0.5; echo "BUS=$DBUS_SESSION_BUS_ADDRESS"; exec cat';
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', script], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const bus = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the keyring session did not start within 20 s')), 20_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /BUS=(\S+)\n/.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('error', reject);
  });
  return {
    env: { ...env, DBUS_SESSION_BUS_ADDRESS: bus },
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.stdin.end();
      await closed;
    },
  };
}
