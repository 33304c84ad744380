/**
 * Opens the GUI URL in the person's browser: an app-style Chromium window (`--app=`) when one is on PATH,
 * else the system opener (`xdg-open` / `open` / `start`). Detached and silent: the browser's output never
 * reaches our stdout, and a missing opener only costs the person a copy-paste of the printed URL.
 */
import { spawn } from 'node:child_process';
import { commandExists } from '../../core/preflight/commandExists.js';

/** The command that opens `url` on this platform, or null when none is known. Pure except for PATH lookups. */
export function browserCommand(url: string, platform: NodeJS.Platform, has: (cmd: string) => boolean): { cmd: string; args: string[] } | null {
  if (platform === 'darwin') return { cmd: 'open', args: [url] };
  if (platform === 'win32') return { cmd: 'cmd', args: ['/c', 'start', '', url] };
  for (const chromium of ['chromium', 'chromium-browser', 'google-chrome']) {
    if (has(chromium)) return { cmd: chromium, args: [`--app=${url}`] };
  }
  return has('xdg-open') ? { cmd: 'xdg-open', args: [url] } : null;
}

/** Launches the browser detached; returns false when no opener was found or it failed to spawn. */
export function openBrowser(url: string): boolean {
  const command = browserCommand(url, process.platform, (cmd) => commandExists(cmd, process.env));
  if (command === null) return false;
  try {
    const child = spawn(command.cmd, command.args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
