/**
 * `fuseforks-cli schedules run-now <id>`: fires one schedule at once through `HostApi.runScheduleNow` (after starting
 * its target, fireScheduleNow.ts). On a free village this process opens it; while a serve or the GUI holds it, the
 * holder does it through its door (same answer) — two processes running one village's agents would race. With the
 * holder's door off the command is refused (exit 4) and says how to switch the door on.
 */
import { jsonText } from '../jsonFormat.js';
import type { SecretSource } from '../../core/secrets/openSecretStore.js';
import type { ScheduleRunReport } from '../../host/hostApi.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';
import { DOOR_MANAGE_PATHS } from '../../host/door/doorManage.js';
import { fireScheduleNow } from '../../host/fireScheduleNow.js';
import { withVillage } from './openManaged.js';
import { callDoor } from './throughDoor.js';

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
    (host) => fireScheduleNow(host, options.id, options.also),
    true,
    options.secrets,
  );
  let report: ScheduleRunReport;
  if (managed.ok) report = managed.value;
  else if (!managed.held) return managed.exit;
  else {
    const via = await callDoor<ScheduleRunReport>(options.dataDir, DOOR_MANAGE_PATHS.runScheduleNow, { id: options.id, also: options.also });
    if (via.kind === 'off') {
      output.note({
        level: 'error',
        code: 'LOCK_HELD',
        message: 'schedules run-now starts agents of this village, and it is open in another process (a serve or the GUI) whose MCP door is off or not listening; nothing was sent.',
        fix: 'Switch that process\'s door on (fuseforks-cli door enable --data-dir …, then restart serve) so run-now goes through it, or stop it and run the command again; otherwise it fires the schedule at its due time.',
      });
      return managed.exit;
    }
    if (via.kind === 'refused') {
      output.note({ level: 'error', code: via.error.code, message: via.error.message, ...(via.error.fix === null ? {} : { fix: via.error.fix }) });
      return EXIT.coreError;
    }
    output.note({ level: 'info', code: 'VIA_DOOR', message: `This village is open in another process; the schedule ran there, through its MCP door at 127.0.0.1:${via.port}.` });
    report = via.value;
  }
  output.stdout(options.json ? jsonText(report) : runNowLine(report));
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
