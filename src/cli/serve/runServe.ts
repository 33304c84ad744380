/**
 * `fuseforks-cli serve` as a testable function (SPEC §6.3): preflight → boot (door and schedules on, crashed
 * workers restarted) → start the start set → wait for SIGINT/SIGTERM → close → 0. A signal during boot also
 * closes what was built and exits 0; a second signal exits at once.
 */
import { isFuseforksError } from '../../core/errors.js';
import { ServeHeartbeat } from '../../host/health/heartbeat.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import { preflightGate, type HeadlessFlags } from '../headless/preflightGate.js';
import { closeAndReport, openHost } from '../headless/openHost.js';
import type { CliOutput } from '../output.js';
import { exitNow, type SignalWatch } from '../signals.js';

/** Parsed arguments of `serve`. */
export interface ServeOptions extends HeadlessFlags {
  appVersion: string;
}

/** Runs `serve` until a signal; returns the exit code. Writes nothing to stdout. */
export async function runServe(options: ServeOptions, output: CliOutput, signals: SignalWatch): Promise<ExitCode> {
  const gate = await preflightGate('serve', options, output, false);
  if (!gate.ok) return gate.exit;
  if (signals.count > 0) return EXIT.ok;
  signals.onSignal((count) => {
    if (count >= 2) exitNow(EXIT.ok);
  });
  const opened = await openHost(
    options.dataDir,
    {
      appVersion: options.appVersion,
      secrets: options.secrets,
      runSchedules: true,
      openDoor: true,
      restartCrashed: true,
      runApproval: options.runApproval,
      bypassPlanReview: options.bypassPlanReview,
      ...(options.env === undefined ? {} : { env: options.env }),
    },
    output,
  );
  if (!opened.ok) return opened.exit;
  const host = opened.host;
  // Only now, with the village lock held: a refused second serve never touches this file.
  const heartbeat = new ServeHeartbeat({ dataDir: host.dataDir, health: () => host.health(), diag: host.log });
  await heartbeat.start();
  try {
    const started = await host.startSet(gate.start, signals.signal);
    if (signals.count === 0) {
      await heartbeat.setState('serving');
      output.note({ level: 'info', code: 'SERVING', message: `Serving with ${started.length} agent(s) started: ${started.join(', ')}. Stop with Ctrl+C or SIGTERM.` });
      await signals.next();
    }
  } catch (error) {
    if (!isFuseforksError(error)) throw error;
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
    host.noteHealthError(error.code);
    await heartbeat.setState('closing');
    await closeAndReport(host, output);
    return EXIT.coreError;
  }
  output.note({ level: 'info', code: 'CLOSING', message: 'Closing: interrupting turns and stopping agents (a second signal exits at once).' });
  await heartbeat.setState('closing');
  const late = await closeAndReport(host, output);
  if (late) exitNow(EXIT.ok);
  return EXIT.ok;
}
