/**
 * Opens a URL in the person's browser: `$BROWSER` first (the first of its `:`-separated commands, `%s` replaced by
 * the URL or the URL appended), else the system opener (xdg-open, open, start). The URL goes as one argument,
 * never through a shell. Failing to open is not fatal: the caller has printed the URL already.
 */
import { spawn } from 'node:child_process';

/** The command line that opens `url` (pure, for the table test). */
export function browserCommand(url: string, env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): string[] {
  const browser = (env.BROWSER ?? '').split(':').map((s) => s.trim()).find((s) => s !== '');
  if (browser !== undefined) {
    const words = browser.split(/\s+/);
    return words.some((w) => w.includes('%s')) ? words.map((w) => w.split('%s').join(url)) : [...words, url];
  }
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['cmd', '/c', 'start', '""', url];
  return ['xdg-open', url];
}

/** Starts the opener, detached; resolves with null when it started, else why not. */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const [command, ...args] = browserCommand(url, env, process.platform);
  if (command === undefined) return Promise.resolve('no browser command');
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', (error) => resolve(`${command}: ${error.message}`));
    child.once('spawn', () => {
      child.unref();
      resolve(null);
    });
  });
}
