/**
 * Wires the schedule ticker to the supervisor (reference ops.md §2.3–2.4). Constructed only when the host runs
 * schedules (GUI, serve); under `ask` nothing is constructed, so `lastConsumedDueMs` is never touched and the next
 * GUI or serve run still gets its "once on resume" firing.
 */
import type { DiagSink } from '../core/diag.js';
import type { ProbeApprovals } from '../core/schedules/probeApprovals.js';
import type { ScheduleStore } from '../core/schedules/scheduleStore.js';
import { createScheduleTicker, type ScheduleTicker } from '../core/schedules/ticker.js';
import type { Supervisor } from '../actors/supervisor.js';

/** What the ticker is wired to. */
export interface ScheduleWiring {
  schedules: ScheduleStore;
  supervisor: Supervisor;
  probes: { approvals: ProbeApprovals; villageId: string };
  workspaceDir: string;
  diag: DiagSink;
}

/** Builds and starts the ticker when `runSchedules`; null otherwise. */
export function startScheduleTicker(runSchedules: boolean, w: ScheduleWiring): ScheduleTicker | null {
  const running = (id: string): boolean => w.supervisor.statuses().some((s) => s.agentId === id && s.status === 'running');
  const ticker = createScheduleTicker(runSchedules, {
    store: w.schedules,
    language: () => w.supervisor.currentWorld().language,
    isRunning: running,
    agentName: (id) => w.supervisor.currentWorld().agents.find((a) => a.id === id)?.name,
    // A firing is a new causal root from System (own budget pool, hop 0); a failed delivery is logged by the ticker.
    fire: (_task, firing) => w.supervisor.sendSystemMessage(firing.to, firing.body),
    notice: (n) => w.supervisor.notice(n.text),
    probes: {
      isApproved: (probe) => w.probes.approvals.isApproved(probe, w.probes.villageId),
      workspaceDir: w.workspaceDir,
    },
    diag: w.diag,
  });
  ticker?.start();
  return ticker;
}
