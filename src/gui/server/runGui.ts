/**
 * `fuseforks-cli gui`: start the GUI server on 127.0.0.1, print its URL, boot the host behind it exactly as
 * `serve` does (same buildHost and village lock; plus createIfMissing), open the browser unless asked not to,
 * and serve until SIGINT/SIGTERM. A boot failure keeps the server up so the page can show why.
 * Loaded lazily by the command, so `ask` and `check` never load the GUI server.
 */
import { toWire } from '../../core/errors.js';
import { buildHost } from '../../host/buildHost.js';
import { HostPaths } from '../../host/hostPaths.js';
import { openGuiVillage } from './guiVillage.js';
import { startGuiServer } from './guiServer.js';
import { openBrowser } from './openBrowser.js';

/** Inputs of one GUI launch. */
export interface RunGuiOptions {
  dataDir: string;
  /** 0 = any free port. */
  port: number;
  open: boolean;
  appVersion: string;
  /** The URL line goes here (stdout). */
  printUrl(line: string): void;
  /** Human notes (stderr). */
  note(level: 'info' | 'warn' | 'error', code: string, message: string, fix?: string): void;
}

/** Runs until a signal; resolves with the exit code (0 after a signal, 4/5 never: a boot failure is shown in the page). */
export async function runGui(options: RunGuiOptions): Promise<number> {
  const stop = waitForSignal();
  const paths = new HostPaths(options.dataDir);
  const server = await startGuiServer({
    port: options.port,
    boot: async () => {
      const host = await buildHost(paths, {
        appVersion: options.appVersion,
        secrets: 'keyring',
        runSchedules: true,
        openDoor: true,
        createIfMissing: true,
        // A person is at the screen: planReview waves wait for Approve / Reject.
        planReview: 'ask',
      });
      try {
        return await openGuiVillage(host, options.appVersion);
      } catch (error) {
        await host.close();
        throw error;
      }
    },
  });
  options.printUrl(server.url);
  if (options.open && !openBrowser(server.url)) {
    options.note('warn', 'GUI_OPEN', 'No browser opener was found.', 'Open the printed URL in a browser.');
  }
  void server.booted.then(() => {
    const status = server.gate.current;
    if (status.state === 'failed') {
      const wire = status.error;
      options.note('error', wire.code, wire.message, wire.fix);
    }
  });
  await stop;
  await server.close().catch((error: unknown) => {
    const wire = toWire(error);
    options.note('error', wire.code, wire.message, wire.fix);
  });
  return 0;
}

/** Resolves on the first SIGINT/SIGTERM; a second one exits at once (as serve). */
function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    let seen = false;
    const onSignal = (): void => {
      if (seen) process.exit(130);
      seen = true;
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
