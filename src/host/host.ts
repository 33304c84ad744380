/**
 * A built village: the supervisor and everything the boot opened, behind `HostApi` (nothing above the host talks
 * to actors, workers or stores directly). Built only by `buildHost`; closed only by `close()`.
 */
import type { DiagSink } from '../core/diag.js';
import type { AgentMessage } from '../core/events.js';
import type { SessionMeta } from '../core/sessions/sessionMeta.js';
import type { PlanReviewRequest } from '../core/turn/ports.js';
import { foldPlanWaves, type PlanWave } from '../core/turn/planWaves.js';
import type { World } from '../core/world/types.js';
import type { Supervisor } from '../actors/supervisor.js';
import { askOutcome, type AskOutcome } from './askOutcome.js';
import { prepareAttachments, wireOfAgent, type AttachmentUpload } from './attachmentUploads.js';
import { readStoredAttachment, type StoredAttachment } from './attachmentFiles.js';
import { closeHost, type CloseReport, type HostParts } from './closeHost.js';
import type { DoorController } from './door/doorController.js';
import type { PricingApi } from './pricing/pricingFacet.js';
import type { HostHealth } from './health/hostHealth.js';
import type { AgentRow, AskOptions, BlackboardApi, CommandApprovalsApi, DoorApi, HostApi, HostEvents, JevApi, VillageEdits, VillageFilesApi } from './hostApi.js';
import type { McpServerStatus } from './mcp/mcpClientManager.js';
import type { HostPaths } from './hostPaths.js';
import type { HostSessions } from './hostSessions.js';
import type { VillageCommands } from './villageCommands.js';
import type { SummarizeReport, Summaries } from './summaries.js';
import type { StatsReport, StatsScope } from '../core/stats/statsReport.js';
import { readStats } from './stats/readStats.js';
import { noSessionStore, readStoredSession, type StoredSession } from '../core/sessions/storedSession.js';
import { runScheduleNow, type ScheduleRunNowPorts, type ScheduleRunReport } from './scheduleRunNow.js';
import { villageFileProblems, type FileProblem } from './villageProblems.js';
import { sessionSwitchBlocked } from '../core/errors/sessionErrors.js';
import { villageClosing } from '../core/errors/runtimeErrors.js';
import { foldActivity, type AgentActivity } from '../core/stats/agentActivity.js';
import type { EvalsApi } from './evals/evalsFacet.js';
import { assertSafeIdentifier } from '../core/world/identifiers.js';

export type { AgentRow, HostEvents } from './hostApi.js';

/** What a host is made of (buildHost hands these over once everything is open). */
export interface HostInternals {
  paths: HostPaths;
  supervisor: Supervisor;
  sessions: HostSessions;
  parts: HostParts;
  graceMs: number;
  /** The edit engine over the host's own schedule store, probe approvals and secret store. */
  village: VillageCommands;
  door: DoorController;
  blackboard: BlackboardApi;
  jev: JevApi;
  /** The village's diagnostic log. */
  log: DiagSink;
  /** "Summarize and continue" runs (one at a time; the schedule wiring's summarizeAfter uses the same one). */
  summaries: Summaries;
  /** The price-table source on the shelf and the fetch a person asks for. */
  pricing: PricingApi;
  /** What `runScheduleNow` fires through (the host's own schedule store, shelf and supervisor). */
  runNow: ScheduleRunNowPorts;
  /** Eval cases and runs (bound to this host once it exists). */
  evals: EvalsApi;
}

/** A running host; every face reaches it as `HostApi`. */
export class Host implements HostApi {
  readonly events: HostEvents;
  readonly dataDir: string;
  readonly village: VillageEdits;
  readonly files: VillageFilesApi;
  readonly approvals: CommandApprovalsApi;
  readonly door: DoorApi;
  readonly blackboard: BlackboardApi;
  readonly jev: JevApi;
  readonly pricing: PricingApi;
  readonly log: DiagSink;
  readonly evals: EvalsApi;
  readonly #door: DoorController;
  readonly #supervisor: Supervisor;
  readonly #sessionState: HostSessions;
  readonly #parts: HostParts;
  readonly #graceMs: number;
  /** `{dataDir}/workspace`: where attachment bodies are stored. */
  readonly #workspace: string;
  readonly #summaries: Summaries;
  readonly #runNow: ScheduleRunNowPorts;
  /** The latest plan waves (work status), folded from the bus for the host's lifetime. */
  #planWaves: readonly PlanWave[] = [];
  /** Each agent's last reported token total (since its worker started), for faces that open later. */
  readonly #tokens: Record<string, number> = {};
  /** Each agent's last counters and tool call, for faces that open later. */
  readonly #activity: Record<string, AgentActivity> = {};
  #closing: Promise<CloseReport> | null = null;
  #accepting = true;

  constructor(internals: HostInternals) {
    this.dataDir = internals.paths.dataDir;
    this.#workspace = internals.paths.village.workspace;
    this.#supervisor = internals.supervisor;
    this.#sessionState = internals.sessions;
    this.#parts = internals.parts;
    this.#graceMs = internals.graceMs;
    this.#summaries = internals.summaries;
    this.#runNow = internals.runNow;
    this.village = internals.village;
    this.files = internals.village.files;
    this.approvals = internals.village.approvals;
    this.door = internals.door;
    this.#door = internals.door;
    this.blackboard = internals.blackboard;
    this.jev = internals.jev;
    this.pricing = internals.pricing;
    this.log = internals.log;
    this.evals = internals.evals;
    this.events = { subscribe: (listener) => this.#supervisor.bus.onAny(listener) };
    this.#supervisor.bus.onAny((event) => {
      this.#planWaves = foldPlanWaves(this.#planWaves, event);
      if (event.type === 'agentStatsUpdated') this.#tokens[event.agentId] = event.totalTokens;
      foldActivity(this.#activity, event, Date.now());
    });
  }

  mcpStatus(agentId?: string): McpServerStatus[] {
    return this.#parts.mcp?.manager.status(agentId) ?? [];
  }

  async reloadSharedMcp(): Promise<McpServerStatus[]> {
    const mcp = this.#parts.mcp;
    if (mcp === undefined || mcp === null) return [];
    await mcp.manager.connectShared();
    return mcp.manager.status();
  }

  health(): HostHealth {
    return {
      agentsRunning: this.#supervisor.statuses().filter((s) => s.status === 'running').map((s) => s.agentId),
      door: this.#door.health(),
      lastScheduleTickMs: this.#parts.health?.lastScheduleTickMs ?? null,
      lastError: this.#parts.health?.lastError ?? null,
    };
  }

  noteHealthError(code: string): void {
    this.#parts.health?.noteError(code);
  }

  world(): World {
    return this.#supervisor.currentWorld();
  }

  sessionId(): string | null {
    return this.#sessionState.currentId();
  }

  listSessions(): SessionMeta[] {
    return this.#sessionState.store?.list() ?? [];
  }

  runScheduleNow(id: string): Promise<ScheduleRunReport> {
    return runScheduleNow(this.#runNow, id);
  }

  async stats(scope: StatsScope): Promise<StatsReport> {
    // Appends still on their way to disk belong in the numbers.
    await this.#parts.recorder?.flush();
    return readStats(this.#sessionState.store, scope, this.world().modelTemplates);
  }

  fileProblems(): Promise<FileProblem[]> {
    return villageFileProblems(this.dataDir, this.world());
  }

  sessionMessages(id: string): AgentMessage[] {
    const store = this.#sessionState.store;
    if (store === null) return [];
    const messages: AgentMessage[] = [];
    for (const r of store.records(id).records) if (r.kind === 'message') messages.push(r.message);
    return messages;
  }

  async readSession(id: string): Promise<StoredSession> {
    const store = this.#sessionState.store;
    if (store === null) throw noSessionStore();
    await this.#parts.recorder?.flush();
    return readStoredSession(store, id);
  }

  messages(last?: number): AgentMessage[] {
    return this.#supervisor.messages(last);
  }

  /** Every agent of the world with its status, in world order. */
  agents(): AgentRow[] {
    const names = new Map(this.world().agents.map((a) => [a.id, a.name]));
    return this.#supervisor.statuses().map((s) => ({ ...s, name: names.get(s.agentId) ?? s.agentId }));
  }

  /**
   * Starts `ids` (spawned in start order, booted in parallel: a worker costs ~0.1–0.7 s, serial would add up).
   * Starts nothing when `signal` is already aborted (Ctrl+C during boot); returns the ids that were started.
   * Rejects with the first start error after every start has settled.
   */
  async startSet(ids: readonly string[], signal?: AbortSignal): Promise<string[]> {
    if (signal?.aborted === true) return [];
    this.assertOpen();
    // An unsafe id never reaches a worker (its folder would be agents/{id}/): UNSAFE_IDENTIFIER before anything starts.
    for (const id of ids) assertSafeIdentifier(id, 'agent id');
    const results = await Promise.allSettled(ids.map((id) => this.#supervisor.startAgent(id)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return [...ids];
  }

  /** Starts one agent (ALREADY_RUNNING, AGENT_NOT_FOUND). */
  startAgent(id: string): Promise<void> {
    this.assertOpen();
    try {
      assertSafeIdentifier(id, 'agent id');
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.#supervisor.startAgent(id);
  }

  /** Stops one agent (NOT_RUNNING). */
  stopAgent(id: string): Promise<void> {
    return this.#supervisor.stopAgent(id);
  }

  /** Cuts one agent's turn in flight (and what it delegated). */
  interrupt(id: string): Promise<void> {
    return this.#supervisor.interruptTurn(id);
  }

  /** Cuts every turn in flight. */
  interruptAll(): Promise<void> {
    return this.#supervisor.interruptAll();
  }

  /** The user's message to one agent (recorded first; NOT_RUNNING, MAILBOX_FULL). */
  sendUserMessage(to: string, text: string): void {
    this.assertOpen();
    this.#supervisor.sendUserMessage(to, text);
  }

  /**
   * The user's message with files: each is checked against the receiving agent's wire (INVALID_ATTACHMENT,
   * ATTACHMENT_NOT_CARRIED) and stored under workspace/attachments/ before anything is recorded or delivered.
   */
  async sendUserMessageWith(to: string, text: string, uploads: readonly AttachmentUpload[]): Promise<void> {
    this.assertOpen();
    const prepared = await prepareAttachments(this.#workspace, uploads, wireOfAgent(this.world(), to));
    this.assertOpen();
    this.#supervisor.sendUserMessage(to, text, prepared);
  }

  /** The stored body of a sent file, or null when it is gone. */
  attachment(id: string): Promise<StoredAttachment | null> {
    return readStoredAttachment(this.#workspace, id);
  }

  /**
   * One external request to the reception; resolves with the answer, how the delivery ended, and the tokens and cost
   * of its chain. When no text came back (timed out, interrupted, budget, no answer) the answer is the fixed notice
   * in the village language.
   */
  async askExternal(client: string, text: string, options: AskOptions = {}): Promise<AskOutcome> {
    this.assertOpen();
    return askOutcome(await this.#supervisor.askExternalOutcome(client, text, options), this.world());
  }

  /**
   * "Summarize and continue" for `agentIds` (default: every agent): one no-tools call per running agent with a
   * history, its history folded into a stored summary that rides in its prompt from then on. It costs tokens
   * (counted in the agents' counters and the stats); allowed while turns are in flight.
   */
  summarize(agentIds?: readonly string[]): Promise<SummarizeReport> {
    this.assertOpen();
    return this.#summaries.summarize(agentIds);
  }

  /** A new, empty conversation becomes current: every agent, running or not, continues without history. */
  newSession(): Promise<string | null> {
    return this.#sessionState.newSession(this.agentIds());
  }

  /** The most recently updated conversation becomes current. */
  continueLatest(): Promise<string | null> {
    return this.#sessionState.continueLatest(this.agentIds());
  }

  /**
   * Makes an older conversation current (SESSION_NOT_FOUND; SESSION_SWITCH_BLOCKED while any turn is in flight).
   * Every agent, running or not, continues from its histories and summaries; the message list becomes its own.
   */
  async openSession(id: string): Promise<string | null> {
    const inFlight = this.#supervisor.turnsInFlight().length;
    if (inFlight > 0) {
      throw sessionSwitchBlocked(inFlight);
    }
    return this.#sessionState.openSession(id, this.agentIds());
  }

  /** Waves of `planReview` agents waiting for a person's decision, oldest plan first. */
  agentTokens(): Record<string, number> {
    return { ...this.#tokens };
  }

  agentActivity(): Record<string, AgentActivity> {
    return structuredClone(this.#activity);
  }

  planWaves(): readonly PlanWave[] {
    return this.#planWaves;
  }

  pendingPlanReviews(): PlanReviewRequest[] {
    return this.#supervisor.pendingPlanReviews();
  }

  /**
   * Approves or rejects a held wave (INVALID_REQUEST when it is no longer waiting). A rejection's note (trimmed,
   * empty = none) goes back to the facilitator as text; rejected tasks are never delivered.
   */
  resolvePlanReview(planId: number, approved: boolean, note?: string | null): void {
    const trimmed = typeof note === 'string' ? note.trim() : '';
    this.#supervisor.resolvePlanReview(planId, approved ? { kind: 'approved' } : { kind: 'rejected', note: trimmed === '' ? null : trimmed });
  }

  /** Closes everything in the fixed order (idempotent: every caller gets the same report). */
  close(): Promise<CloseReport> {
    this.#accepting = false;
    this.#closing ??= closeHost(this.#parts, this.#graceMs);
    return this.#closing;
  }

  private agentIds(): Set<string> {
    return new Set(this.world().agents.map((a) => a.id));
  }

  private assertOpen(): void {
    if (!this.#accepting) {
      throw villageClosing();
    }
  }
}
