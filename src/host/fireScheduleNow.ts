/**
 * "Run this schedule now" as a person asks for it (the CLI's `schedules run-now`, locally or through a running
 * serve's door): the schedule named by its id or an unambiguous start of it, its target and the agents it delegates
 * to started, then `HostApi.runScheduleNow`. One function for both paths, so they answer alike.
 */
import { scheduleIdUnresolved, scheduleTargetUnsafe } from '../core/errors/scheduleErrors.js';
import { isSafeIdentifier, quoteIdentifier } from '../core/world/identifiers.js';
import type { HostApi } from './hostApi.js';
import type { ScheduleRunReport } from './scheduleRunNow.js';

/** The schedule `idOrPrefix` names: its full id or an unambiguous start of it, 4+ chars (SCHEDULE_NOT_FOUND otherwise). */
export function resolveScheduleId(ids: readonly string[], idOrPrefix: string): string {
  if (ids.includes(idOrPrefix)) return idOrPrefix;
  const matches = idOrPrefix.length >= 4 ? ids.filter((id) => id.startsWith(idOrPrefix)) : [];
  if (matches.length === 1) return matches[0]!;
  throw scheduleIdUnresolved(idOrPrefix, matches.length);
}

/**
 * Starts the schedule's target (and `also`, the agents it delegates to) where they are stopped or failed — a serve
 * already runs its start set — then fires it.
 */
export async function fireScheduleNow(host: HostApi, idOrPrefix: string, also: readonly string[]): Promise<ScheduleRunReport> {
  const schedules = host.village.state().schedules;
  const id = resolveScheduleId(schedules.map((s) => s.id), idOrPrefix);
  const target = schedules.find((s) => s.id === id)!.to;
  if (!isSafeIdentifier(target)) throw scheduleTargetUnsafe(id, quoteIdentifier(target));
  const stopped = new Set(host.agents().flatMap((a) => (a.status === 'idle' || a.status === 'failed' ? [a.agentId] : [])));
  // An id that is not an agent goes to startSet as given, so it says AGENT_NOT_FOUND.
  const known = new Set(host.agents().map((a) => a.agentId));
  await host.startSet([...new Set([target, ...also])].filter((agentId) => stopped.has(agentId) || !known.has(agentId)));
  return host.runScheduleNow(id);
}
