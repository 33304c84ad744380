/**
 * A built village: the supervisor and everything the boot opened, behind the small surface the CLI and the GUI
 * use (nothing above the host talks to actors directly). Built only by `buildHost`; closed only by `close()`.
 */
import type { DiagSink } from '../core/diag.js';
import { FuseforksError } from '../core/errors.js';
import type { AgentStatus, CoreEvent } from '../core/events.js';
import type { ProbeApprovals } from '../core/schedules/probeApprovals.js';
import type { ScheduleStore } from '../core/schedules/scheduleStore.js';
import type { SecretStore } from '../core/secrets/secretStore.js';
import type { SessionStore } from '../core/sessions/sessionStore.js';
import type { PlanReviewRequest } from '../core/turn/ports.js';
import type { World } from '../core/world/types.js';
import type { Supervisor } from '../actors/supervisor.js';
import { askOutcome, type AskOutcome } from './askOutcome.js';
import { closeHost, type CloseReport, type HostParts } from './closeHost.js';
import type { DoorStatus } from './door/doorSettings.js';
import type { HostHealth } from './health/hostHealth.js';
import type { McpServerStatus } from './mcp/mcpClientManager.js';
import type { HostPaths } from './hostPaths.js';
import type { HostSessions } from './hostSessions.js';

/** One agent as a caller lists it. */
export interface AgentRow {
  agentId: string;
  name: string;
  status: AgentStatus;
}

/** Subscription to the CoreEvent stream (the GUI relay and `--events jsonl` attach here). */
export interface HostEvents {
  /** Every event, in emission order; returns the unsubscribe function. */
  subscribe(listener: (event: CoreEvent) => void): () => void;
}

/** Stores the boot opened that callers above the host edit (the GUI's schedule and key screens). */
export interface HostStores {
  /** The one schedule store: the ticker reads it, GUI edits write it (never a second store on the same file). */
  schedules: ScheduleStore;
  /** The secret store the boot chose (keyring for the GUI). */
  secrets: SecretStore;
  /**
   * The shelf's probe approvals and this village's id: the one instance the ticker asks at every firing, so a
   * GUI approval applies without a restart (a second instance would miss it and race the file writes).
   */
  probes: { approvals: ProbeApprovals; villageId: string };
}

/** A running host. */
export class Host {
  readonly events: HostEvents;
  private closing: Promise<CloseReport> | null = null;
  private accepting = true;

  constructor(
    readonly paths: HostPaths,
    readonly supervisor: Supervisor,
    readonly diag: DiagSink,
    private readonly sessionState: HostSessions,
    private readonly parts: HostParts,
    private readonly graceMs: number,
    private readonly stores: HostStores,
  ) {
    this.events = { subscribe: (listener) => supervisor.bus.onAny(listener) };
  }

  /** The schedule store the ticker uses (the GUI edits this very instance). */
  get schedules(): ScheduleStore {
    return this.stores.schedules;
  }

  /** Probe approvals shared with the ticker, and the village id they are bound to ("" = none approvable). */
  get probes(): { approvals: ProbeApprovals; villageId: string } {
    return this.stores.probes;
  }

  /** The secret store of this run (write-only API keys; callers only ever read `has`). */
  get secrets(): SecretStore {
    return this.stores.secrets;
  }

  /** MCP servers: the shared ones, plus `agentId`'s own when given (connected, tools, last error). */
  mcpStatus(agentId?: string): McpServerStatus[] {
    return this.parts.mcp?.manager.status(agentId) ?? [];
  }

  /** How the door came out of boot; null when this host does not open it (`ask`). */
  doorStatus(): DoorStatus | null {
    return this.parts.doorStatus ?? null;
  }

  /** Running agents, the door, the last schedule tick and the last failure (serve's heartbeat). */
  health(): HostHealth {
    const door = this.parts.doorStatus;
    return {
      agentsRunning: this.supervisor.statuses().filter((s) => s.status === 'running').map((s) => s.agentId),
      door: door == null || !door.enabled ? null : { listening: door.listening, port: door.port },
      lastScheduleTickMs: this.parts.health?.lastScheduleTickMs ?? null,
      lastError: this.parts.health?.lastError ?? null,
    };
  }

  /** A failure seen above the host (e.g. serve's start set), kept as the health's last error. */
  noteHealthError(code: string): void {
    this.parts.health?.noteError(code);
  }

  /** The session store, or null when the village runs without persistence. */
  get sessions(): SessionStore | null {
    return this.sessionState.store;
  }

  /** The current world snapshot. */
  world(): World {
    return this.supervisor.currentWorld();
  }

  /** The current session id (null without a store). */
  sessionId(): string | null {
    return this.sessionState.currentId();
  }

  /** Every agent of the world with its status, in world order. */
  agents(): AgentRow[] {
    const names = new Map(this.world().agents.map((a) => [a.id, a.name]));
    return this.supervisor.statuses().map((s) => ({ ...s, name: names.get(s.agentId) ?? s.agentId }));
  }

  /**
   * Starts `ids` (spawned in start order, booted in parallel: a worker costs ~0.1–0.7 s, serial would add up).
   * Starts nothing when `signal` is already aborted (Ctrl+C during boot); returns the ids that were started.
   * Rejects with the first start error after every start has settled.
   */
  async startSet(ids: readonly string[], signal?: AbortSignal): Promise<string[]> {
    if (signal?.aborted === true) return [];
    this.assertOpen();
    const results = await Promise.allSettled(ids.map((id) => this.supervisor.startAgent(id)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return [...ids];
  }

  /** Starts one agent (ALREADY_RUNNING, AGENT_NOT_FOUND). */
  startAgent(id: string): Promise<void> {
    this.assertOpen();
    return this.supervisor.startAgent(id);
  }

  /** Stops one agent (NOT_RUNNING). */
  stopAgent(id: string): Promise<void> {
    return this.supervisor.stopAgent(id);
  }

  /** Cuts one agent's turn in flight (and what it delegated). */
  interrupt(id: string): Promise<void> {
    return this.supervisor.interruptTurn(id);
  }

  /** Cuts every turn in flight. */
  interruptAll(): Promise<void> {
    return this.supervisor.interruptAll();
  }

  /** The user's message to one agent (recorded first; NOT_RUNNING, MAILBOX_FULL). */
  sendUserMessage(to: string, text: string): void {
    this.assertOpen();
    this.supervisor.sendUserMessage(to, text);
  }

  /**
   * One external request to the reception; resolves with the answer, how the delivery ended, and the tokens and cost
   * of its chain. When no text came back (timed out, interrupted, budget, no answer) the answer is the fixed notice
   * in the village language.
   */
  async askExternal(client: string, text: string): Promise<AskOutcome> {
    this.assertOpen();
    return askOutcome(await this.supervisor.askExternalOutcome(client, text), this.world());
  }

  /** A new, empty conversation becomes current (agents started afterwards begin without history). */
  newSession(): Promise<string | null> {
    return this.sessionState.newSession(this.agentIds());
  }

  /** The most recently updated conversation becomes current. */
  continueLatest(): Promise<string | null> {
    return this.sessionState.continueLatest(this.agentIds());
  }

  /**
   * Makes an older conversation current (SESSION_NOT_FOUND; SESSION_SWITCH_BLOCKED while any turn is in flight).
   * Agents started afterwards begin with its histories; agents already running keep the history they have.
   */
  async openSession(id: string): Promise<string | null> {
    const inFlight = this.supervisor.turnsInFlight().length;
    if (inFlight > 0) {
      throw new FuseforksError('SESSION_SWITCH_BLOCKED', `Cannot open another conversation while ${inFlight} turn(s) are in flight.`, {
        fix: 'Wait for the answers (or press Stop all turns), then open the conversation again.',
        details: { inFlight },
      });
    }
    return this.sessionState.openSession(id, this.agentIds());
  }

  /** Waves of `planReview` agents waiting for a person's decision, oldest plan first. */
  pendingPlanReviews(): PlanReviewRequest[] {
    return this.supervisor.pendingPlanReviews();
  }

  /**
   * Approves or rejects a held wave (INVALID_REQUEST when it is no longer waiting). A rejection's note (trimmed,
   * empty = none) goes back to the facilitator as text; rejected tasks are never delivered.
   */
  resolvePlanReview(planId: number, approved: boolean, note?: string | null): void {
    const trimmed = typeof note === 'string' ? note.trim() : '';
    this.supervisor.resolvePlanReview(planId, approved ? { kind: 'approved' } : { kind: 'rejected', note: trimmed === '' ? null : trimmed });
  }

  /** Closes everything in the fixed order (idempotent: every caller gets the same report). */
  close(): Promise<CloseReport> {
    this.accepting = false;
    this.closing ??= closeHost(this.parts, this.graceMs);
    return this.closing;
  }

  private agentIds(): Set<string> {
    return new Set(this.world().agents.map((a) => a.id));
  }

  private assertOpen(): void {
    if (!this.accepting) {
      throw new FuseforksError('NOT_RUNNING', 'this village is closing; no new deliveries are accepted', {
        fix: 'Open the village again to send more requests.',
      });
    }
  }
}
