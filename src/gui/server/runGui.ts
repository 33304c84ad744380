/**
 * `fuseforks-cli gui`: start the GUI server on 127.0.0.1, print a single-use URL for a person to paste, boot the
 * host behind it exactly as `serve` does (same buildHost and village lock; plus createIfMissing), open the browser
 * on the private runtime page unless asked not to (its command line names a 0600 file, never a credential), and
 * serve until SIGINT/SIGTERM. A boot failure keeps the server up so the page can show why.
 * Loaded lazily by the command, so `ask` and `check` never load the GUI server.
 */
import { toWire } from '../../core/errors.js';
import { buildHost } from '../../host/buildHost.js';
import { HostPaths } from '../../host/hostPaths.js';
import { openGuiVillage } from './guiVillage.js';
import { startGuiServer } from './guiServer.js';
import { openBrowser } from './openBrowser.js';
import { GuiRuntimeFiles } from './runtimeFiles.js';

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
  const runtime = await GuiRuntimeFiles.open().catch((error: unknown) => {
    const wire = toWire(error);
    options.note('warn', wire.code, wire.message, wire.fix);
    return null;
  });
  const server = await startGuiServer({
    port: options.port,
    runtime,
    dataDir: paths.dataDir,
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
  options.printUrl(server.ticketUrl());
  if (options.open) {
    // Only the runtime page may go on a command line (every account can read those): never a URL with a ticket.
    if (server.runtime === null) options.note('warn', 'GUI_OPEN', 'The browser was not opened: there is no private runtime folder for its page.', 'Open the printed URL in a browser.');
    else if (!openBrowser(server.runtime.openUrl)) options.note('warn', 'GUI_OPEN', 'No browser opener was found.', 'Open the printed URL in a browser.');
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
