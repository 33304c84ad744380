/**
 * "Run now" of one schedule (`HostApi.runScheduleNow`, the CLI's `schedules run-now`): the firing the ticker would
 * deliver — an approved pre-check first (the request goes out only on its match), a new conversation for
 * `sessionMode: fresh`, the scheduled body as a System message (a new causal root), a summary afterwards for
 * `summarizeAfter` — at once, without consuming a due, so the schedule's regular timing stays as it was.
 * Resolves when the fired chain of turns has ended.
 */
import type { DiagSink } from '../core/diag.js';
import { scheduleTargetNotRunning, scheduleTargetUnsafe } from '../core/errors/scheduleErrors.js';
import { isSafeIdentifier, quoteIdentifier } from '../core/world/identifiers.js';
import { runApprovedProbe } from '../core/schedules/probe.js';
import type { ScheduleStore } from '../core/schedules/scheduleStore.js';
import { scheduledBody } from '../core/schedules/scheduleText.js';
import type { ProbeOutcome } from '../core/schedules/probeJudge.js';
import type { AgentStatus } from '../core/events.js';
import type { Language } from '../core/world/types.js';
import { requireSchedule, type ProbeShelf } from './commands/probeShelf.js';

/** How a run-now ended. */
export interface ScheduleRunReport {
  id: string;
  to: string;
  /** True when the message went out (false only when the pre-check did not let it through). */
  fired: boolean;
  /** The pre-check's outcome, null without one. */
  probe: ProbeOutcome | null;
  /** The agents of the fired chain (the target and whom it asked), once it ended; [] when nothing was sent. */
  participants: string[];
}

/** What run-now acts on (the host's own store, shelf and supervisor). */
export interface ScheduleRunNowPorts {
  schedules: ScheduleStore;
  probes: ProbeShelf | null;
  workspaceDir: string;
  diag: DiagSink;
  language(): Language;
  status(agentId: string): AgentStatus | undefined;
  /** Sends a System message as a new causal root; `onChainEnd` runs when its chain of turns has ended. */
  sendSystemMessage(to: string, text: string, onChainEnd: (spend: { participants: string[] }) => void): void;
  newSession(): Promise<unknown>;
  summarize(agentIds: string[]): Promise<unknown>;
}

/** Fires schedule `id` now (SCHEDULE_NOT_FOUND; NOT_RUNNING when its target is not started). */
export async function runScheduleNow(p: ScheduleRunNowPorts, id: string): Promise<ScheduleRunReport> {
  const task = requireSchedule(p.schedules, id);
  if (!isSafeIdentifier(task.to)) throw scheduleTargetUnsafe(task.id, quoteIdentifier(task.to));
  if (p.status(task.to) !== 'running') {
    throw scheduleTargetNotRunning(id, task.to);
  }
  const language = p.language();
  let appendix: string | undefined;
  let probe: ProbeOutcome | null = null;
  if (task.probe !== undefined) {
    const shelf = p.probes;
    const report = await runApprovedProbe({
      taskId: task.id,
      probe: task.probe,
      approved: shelf !== null && shelf.approvals.isApproved(task.probe, shelf.villageId),
      workspaceDir: p.workspaceDir,
      language,
      diag: p.diag,
    });
    probe = report.outcome;
    if (report.outcome !== 'match') return { id: task.id, to: task.to, fired: false, probe, participants: [] };
    appendix = report.appendix;
  }
  if (task.sessionMode === 'fresh') await p.newSession();
  const participants = await new Promise<string[]>((resolve, reject) => {
    try {
      p.sendSystemMessage(task.to, scheduledBody(task, language, appendix), (spend) => resolve(spend.participants));
    } catch (error) {
      reject(error as Error);
    }
  });
  p.diag.note('schedule', { id: task.id, run_now: true, fired: true, to: task.to });
  if (task.summarizeAfter === true) await p.summarize(participants);
  return { id: task.id, to: task.to, fired: true, probe, participants };
}
