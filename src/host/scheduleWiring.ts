/**
 * Wires the schedule ticker to the supervisor (reference ops.md §2.3–2.4). Constructed only when the host runs
 * schedules (GUI, serve); under `ask` nothing is constructed, so `lastConsumedDueMs` is never touched and the next
 * GUI or serve run still gets its "once on resume" firing.
 *
 * The original keeps an `in_flight` set: a target joins it when a firing is delivered and leaves it when its
 * typing ends; while in it, the next due waits (not consumed). The same set lives here, fed by the event bus.
 */
import type { DiagSink } from '../core/diag.js';
import { isFuseforksError } from '../core/errors.js';
import type { CoreEvent } from '../core/events.js';
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
  /** Opens a new, empty conversation (schedules with `sessionMode: fresh`); absent = deliver into the current one. */
  newSession?: () => Promise<unknown>;
  /**
   * Summarizes these agents (a schedule's `summarizeAfter`): called once per firing, after the fired request's
   * causal chain ends, with its participants (the target and whom it asked; handoffs start a chain of their own).
   */
  summarizeAfter?: (agentIds: string[]) => Promise<unknown>;
  /** Test seam: tick period (ms); default the ticker's 30 s. */
  intervalMs?: number;
  /** After every tick (the host's health tracker). */
  onTick?: (nowMs: number) => void;
}

/** A started ticker and the unsubscribe of its in-flight tracking. */
export interface RunningSchedules {
  ticker: ScheduleTicker;
  stop(): Promise<void>;
}

/** Pure: the in-flight set after `event` (typing ended, or the agent left `running`, frees the target). */
export function nextInFlight(inFlight: ReadonlySet<string>, event: CoreEvent): ReadonlySet<string> {
  const leaves =
    (event.type === 'agentTyping' && !event.active) || (event.type === 'agentStatusChanged' && event.status !== 'running');
  if (!leaves || !inFlight.has(event.agentId)) return inFlight;
  const next = new Set(inFlight);
  next.delete(event.agentId);
  return next;
}

/** Builds and starts the ticker when `runSchedules`; null otherwise (nothing constructed, nothing subscribed). */
export function startScheduleTicker(runSchedules: boolean, w: ScheduleWiring): RunningSchedules | null {
  if (!runSchedules) return null;
  let inFlight: ReadonlySet<string> = new Set();
  const off = w.supervisor.bus.onAny((event) => {
    inFlight = nextInFlight(inFlight, event);
  });
  const running = (id: string): boolean => w.supervisor.statuses().some((s) => s.agentId === id && s.status === 'running');
  const ticker = createScheduleTicker(true, {
    store: w.schedules,
    language: () => w.supervisor.currentWorld().language,
    isRunning: running,
    isBusy: (id) => inFlight.has(id),
    agentName: (id) => w.supervisor.currentWorld().agents.find((a) => a.id === id)?.name,
    // A firing is a new causal root from System (own budget pool, hop 0); a failed delivery is logged by the ticker.
    fire: async (_task, firing) => {
      if (firing.sessionMode === 'fresh' && w.newSession !== undefined) await w.newSession();
      const after = firing.summarizeAfter ? w.summarizeAfter : undefined;
      w.supervisor.sendSystemMessage(
        firing.to,
        firing.body,
        after === undefined
          ? undefined
          : ({ participants }) => {
              w.diag.note('schedule summarize', { root: firing.to, agents: participants.join(',') });
              after(participants).catch((error: unknown) => {
                w.diag.note('schedule summarize', { root: firing.to, failed: isFuseforksError(error) ? error.code : 'BUG' }, 'warn');
              });
            },
      );
      inFlight = new Set([...inFlight, firing.to]);
    },
    notice: (n) => w.supervisor.notice(n.text),
    probes: {
      isApproved: (probe) => w.probes.approvals.isApproved(probe, w.probes.villageId),
      workspaceDir: w.workspaceDir,
    },
    diag: w.diag,
    ...(w.intervalMs === undefined ? {} : { intervalMs: w.intervalMs }),
    ...(w.onTick === undefined ? {} : { onTick: w.onTick }),
  });
  if (ticker === null) {
    off();
    return null;
  }
  ticker.start();
  return {
    ticker,
    stop: async () => {
      off();
      await ticker.stop();
    },
  };
}
