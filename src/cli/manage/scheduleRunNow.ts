/**
 * `fuseforks-cli schedules run-now <id>`: fires one schedule at once through `HostApi.runScheduleNow`. Only on a
 * free village — the command has to start agents, and two processes running one village's agents would race. While
 * a serve or the GUI holds it the command is refused (exit 4): that process fires the schedule at its due time.
 */
import type { SecretSource } from '../../core/secrets/openSecretStore.js';
import type { ScheduleRunReport } from '../../host/hostApi.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';
import { withVillage } from './openManaged.js';
import { resolveScheduleId } from './schedules.js';

/** Parsed flags. */
export interface RunNowOptions {
  dataDir: string;
  json: boolean;
  id: string;
  secrets: SecretSource;
  /** More agents to start besides the target (the ones it delegates to). */
  also: string[];
}

/** One line for people. */
export function runNowLine(report: ScheduleRunReport): string {
  if (!report.fired) return `schedule ${report.id}: not sent — its pre-check answered ${report.probe ?? 'nothing'}`;
  return `schedule ${report.id}: sent to ${report.to}; the run ended (agents: ${report.participants.join(', ') || report.to})`;
}

/** Runs `schedules run-now`. */
export async function runScheduleNow(options: RunNowOptions, output: CliOutput): Promise<ExitCode> {
  const managed = await withVillage(
    options.dataDir,
    'schedules run-now',
    output,
    async (host) => {
      const id = resolveScheduleId(host.village.state().schedules.map((s) => s.id), options.id);
      const target = host.village.state().schedules.find((s) => s.id === id)!.to;
      await host.startSet([...new Set([target, ...options.also])]);
      return host.runScheduleNow(id);
    },
    true,
    options.secrets,
  );
  if (!managed.ok) {
    if (managed.held) {
      output.note({
        level: 'error',
        code: 'LOCK_HELD',
        message: 'schedules run-now starts agents of this village, and it is open in another process (a serve or the GUI); nothing was sent.',
        fix: 'That process fires the schedule at its due time; to fire it now, stop it and run the command again.',
      });
    }
    return managed.exit;
  }
  const report = managed.value;
  output.stdout(options.json ? JSON.stringify(report) : runNowLine(report));
  if (!report.fired && report.probe === 'unapproved') {
    output.note({
      level: 'warn',
      code: 'PROBE_UNAPPROVED',
      message: `The pre-check of schedule ${report.id} is not approved on this machine, so it did not run and nothing was sent.`,
      fix: 'Approve the pre-check in the GUI (Schedules → approve), then run the command again.',
    });
  }
  return EXIT.ok;
}
