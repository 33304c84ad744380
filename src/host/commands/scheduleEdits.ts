/**
 * The schedule commands of the village (add, change, pause, delete, pre-check set / approve / revoke) over the
 * host's one ScheduleStore and its shelf approvals, so the ticker sees every change at its next firing. Each
 * validates, writes, and drops the approval of a pre-check no schedule runs any more. The caller re-reads.
 */
import { parseProbeInput } from '../../core/schedules/probeInput.js';
import { probeKey } from '../../core/schedules/probeApprovals.js';
import type { NewSchedule, SchedulePatch, ScheduleStore } from '../../core/schedules/scheduleStore.js';
import type { VillagePaths } from '../../core/village/paths.js';
import { dropStaleApproval, requireProbe, requireProbeShelf, requireSchedule, type ProbeShelf } from './probeShelf.js';

/** What the schedule commands act on. */
export interface ScheduleEditPorts {
  paths: VillagePaths;
  schedules: ScheduleStore;
  probes: ProbeShelf | null;
  /** True when the id names an agent of the current world. */
  agentExists(id: string): boolean;
  nowMs(): number;
}

/** Adds a schedule for an existing agent. */
export async function addSchedule(p: ScheduleEditPorts, input: NewSchedule): Promise<void> {
  await p.schedules.add(input, { nowMs: p.nowMs(), agentExists: p.agentExists });
}

/** Changes chosen fields (a `probe` goes through the same checks as `setScheduleProbe`). */
export async function updateSchedule(p: ScheduleEditPorts, id: string, patch: SchedulePatch): Promise<void> {
  const old = requireSchedule(p.schedules, id).probe;
  const probe = patch.probe === undefined || patch.probe === null ? patch.probe : parseProbeInput(patch.probe);
  await p.schedules.update(id, { ...patch, probe }, { agentExists: p.agentExists });
  await dropStaleApproval(p, old);
}

/** Deletes a schedule; its probe approval goes too unless another schedule here runs the same probe. */
export async function removeSchedule(p: ScheduleEditPorts, id: string): Promise<void> {
  const old = p.schedules.get(id)?.probe;
  await p.schedules.remove(id);
  await dropStaleApproval(p, old);
}

/**
 * Sets (object) or clears (null) a pre-check (INVALID_SCHEDULE naming `probe.*`). A new command/args/cwd is a new
 * key, so the probe is unapproved until approved; the old key is revoked.
 */
export async function setScheduleProbe(p: ScheduleEditPorts, id: string, probe: unknown): Promise<void> {
  const next = probe === null ? null : parseProbeInput(probe);
  const old = requireSchedule(p.schedules, id).probe;
  await p.schedules.update(id, { probe: next });
  await dropStaleApproval(p, old);
}

/** Approves (true) or withdraws (false) a schedule's pre-check on this shelf: only a person does this. */
export async function setProbeApproved(p: ScheduleEditPorts, id: string, approved: boolean): Promise<void> {
  const { approvals, villageId } = requireProbeShelf(p);
  const key = probeKey(requireProbe(p.schedules, id), villageId);
  await (approved ? approvals.approve(key) : approvals.revoke(key));
}
