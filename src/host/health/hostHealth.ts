/**
 * What a running host knows about its own health, for `serve.status.json`: which agents run, whether the door
 * listens, when the schedule ticker last ticked and the last failure (a code and an agent, never a body).
 * The tracker is fed by the event bus and the ticker; the host answers `health()` from it.
 */
import type { CoreEvent } from '../../core/events.js';

/** A host's health facts at one moment. */
export interface HostHealth {
  agentsRunning: string[];
  door: { listening: boolean; port: number } | null;
  lastScheduleTickMs: number | null;
  lastError: { code: string; agentId: string | null; atMs: number } | null;
}

/** Collects the facts that are events rather than state. */
export class HealthTracker {
  lastScheduleTickMs: number | null = null;
  lastError: HostHealth['lastError'] = null;

  constructor(private readonly clock: () => number = Date.now) {}

  /** The ticker finished a tick. */
  readonly tick = (nowMs: number): void => {
    this.lastScheduleTickMs = nowMs;
  };

  /** Every bus event; only failures are kept. */
  readonly observe = (event: CoreEvent): void => {
    if (event.type === 'agentFailed') this.lastError = { code: event.error.code, agentId: event.agentId, atMs: this.clock() };
  };

  /** A failure seen outside the bus (e.g. serve's start set failing). */
  noteError(code: string, agentId: string | null = null): void {
    this.lastError = { code, agentId, atMs: this.clock() };
  }
}
