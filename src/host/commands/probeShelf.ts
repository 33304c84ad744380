/**
 * The schedule side of probe approvals for the village commands (reference ops.md §2.6): what a screen shows per
 * schedule (`probeApproved`, the command line an approval covers), and the checks before approve/revoke.
 * Approvals are written only here, from a person's command — never by a model.
 */
import { probeKey, type ProbeApprovals } from '../../core/schedules/probeApprovals.js';
import { probeCommandLine } from '../../core/schedules/probeInput.js';
import type { ScheduleStore } from '../../core/schedules/scheduleStore.js';
import type { ScheduledTask, ScheduleProbe, ScheduleView } from '../../core/schedules/types.js';

export type { ScheduleView } from '../../core/schedules/types.js';
import type { VillagePaths } from '../../core/village/paths.js';
import { villageIdUnusable } from '../../core/errors/configErrors.js';
import { scheduleHasNoProbe, scheduleNotFound } from '../../core/errors/scheduleErrors.js';

/** The shelf approvals and this village's id ("" = unreadable: nothing is approved or approvable). */
export interface ProbeShelf {
  approvals: ProbeApprovals;
  villageId: string;
}


/** Pure: the view of one schedule against the shelf (no shelf = never approved). */
export function scheduleView(task: ScheduledTask, shelf: ProbeShelf | null): ScheduleView {
  const probeApproved = task.probe !== undefined && shelf !== null && shelf.approvals.isApproved(task.probe, shelf.villageId);
  return { ...task, probeApproved, probeCommandLine: task.probe === undefined ? null : probeCommandLine(task.probe) };
}

/** The schedule, or SCHEDULE_NOT_FOUND naming the id. */
export function requireSchedule(schedules: ScheduleStore, id: string): ScheduledTask {
  const task = schedules.get(id);
  if (task === undefined) {
    throw scheduleNotFound(id, schedules.file, true);
  }
  return task;
}

/** The schedule's probe, or INVALID_SCHEDULE (field `probe`) when it has none. */
export function requireProbe(schedules: ScheduleStore, id: string): ScheduleProbe {
  const probe = requireSchedule(schedules, id).probe;
  if (probe === undefined) {
    throw scheduleHasNoProbe(id);
  }
  return probe;
}

/** The shelf, or CONFIG_IO naming village_id when there is none (an id-less village can approve nothing). */
export function requireProbeShelf(ports: { probes: ProbeShelf | null; paths: VillagePaths }): ProbeShelf {
  const p = ports.probes;
  if (p === null || p.villageId === '') {
    throw villageIdUnusable(ports.paths.villageId);
  }
  return p;
}

/**
 * Revokes `old`'s key once no schedule of this village still runs that probe, so an edited or deleted probe
 * never stays approved behind the person's back. A blocked shelf file is left untouched.
 */
export async function dropStaleApproval(ports: { probes: ProbeShelf | null; schedules: ScheduleStore }, old: ScheduleProbe | undefined): Promise<void> {
  const p = ports.probes;
  if (old === undefined || p === null || p.villageId === '' || p.approvals.blocked !== null) return;
  const key = probeKey(old, p.villageId);
  if (!p.approvals.has(key)) return;
  const stillUsed = ports.schedules.list().some((t) => t.probe !== undefined && probeKey(t.probe, p.villageId) === key);
  if (!stillUsed) await p.approvals.revoke(key);
}
