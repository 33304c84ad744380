/**
 * The supervisor: on the main thread, the registry of the village's agents (one AgentRuntime each, which owns its
 * worker, mailbox, turn in flight, status, conversation view and settings) with the world snapshot, the event bus,
 * the router and the external gate; applies the agent lifecycle (idle → starting → running → stopping → idle, failed)
 * and the crash restart policy (restartPolicy.ts).
 */
import type { PreparedAttachment } from '../core/attachments/attachmentFormat.js';
import { nullDiagSink, type DiagSink } from '../core/diag.js';
import { isFuseforksError, stopsTheAgent, toWire, type ErrorPayload } from '../core/errors.js';
import { assertNever, type AgentMessage, type AgentStatus, type CoreEvent, type Endpoint } from '../core/events.js';
import type { ToolSpec } from '../core/tools/contract.js';
import type { DeliveryResult, PromptMaterial } from '../core/turn/ports.js';
import type { World } from '../core/world/types.js';
import { AgentHandle, type TeardownReason, type WorkerExit } from './agentHandle.js';
import { AgentRuntime, type AgentSettings, type ConversationRestore } from './agentRuntime.js';
import { EventBus } from './eventBus.js';
import { ExternalQueue, type ExternalTicket } from './externalQueue.js';
import { externalClientName, statusNotice } from './labels.js';
import { Mailbox, MAILBOX_CAPACITY } from './mailbox.js';
import { AgentStats, type AgentCounters } from './agentStats.js';
import type { ChainSpend } from './chainLedger.js';
import type { SummaryCallReply, SummaryCallRequest } from './summaryCall.js';
import { SpendLedger } from '../core/turn/turnSpend.js';
import { DirectReplies } from './directReplies.js';
import { createMainSide } from './mainSide.js';
import { sharedScanPool } from './scanPool.js';
import { PlanReviews } from './planReviews.js';
import { PROTOCOL_VERSION, type FromWorker } from './protocol.js';
import type { PlanReviewDecision, PlanReviewRequest } from '../core/turn/ports.js';
import { nullRecorder } from './recorder.js';
import type { ExternalAskOptions, ExternalOutcome, SupervisorOptions } from './supervisorOptions.js';
import { decideRestart, pruneRestarts } from './restartPolicy.js';
import { Router } from './router.js';

import { agentWorkerUrl } from './workerUrl.js';
import { workerCrashed } from './workerErrors.js';
import { agentAlreadyRunning, agentNotRunning, receptionNotRunning, receptionUnset } from '../core/errors/runtimeErrors.js';
import { agentNotInWorld, agentTemplateMissing, receptionNotInWorld } from '../core/errors/worldErrors.js';

export type { ExternalAskOptions, ExternalOutcome, ExternalToolPort, SupervisorOptions } from './supervisorOptions.js';

/** The outcome of an external request that was never delivered: its wait ran out, its caller left, or closing. */
const UNSERVED_STATE: Record<Exclude<ExternalTicket['kind'], 'served'>, 'timed_out' | 'interrupted' | 'no_answer'> = {
  expired: 'timed_out',
  aborted: 'interrupted',
  closed: 'no_answer',
};

/** Join bound of stopAgent (ms). */
export const JOIN_TIMEOUT_MS = 30_000;

const EMPTY_MATERIAL: PromptMaterial = { ordinance: '', construct: '', skill: '', memory: '' };

/** The actor runtime of one village. */
export class Supervisor {
  readonly bus: EventBus;
  private world: World;
  private readonly slots = new Map<string, AgentRuntime>();
  /** Asks answered straight from the target's worker (the supervisor still routes, records and cuts). */
  private readonly direct = new DirectReplies(this.slots, (slot, handle, batch) => {
    if (!this.direct.admit(slot, handle, batch)) return;
    for (const item of batch.items) this.onWorkerMessage(slot, handle, item);
  });
  private readonly router: Router;
  private readonly diag: DiagSink;
  private readonly now: () => number;
  /** The external endpoint's mailbox (arrival order, bounded, one served at a time). */
  private readonly external = new ExternalQueue();
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  private closed = false;
  /** Plan id counter shared with every worker (Atomics.add), so ids are village-unique from 1. */
  private readonly planIds = new SharedArrayBuffer(4);
  private readonly reviews = new PlanReviews();
  private readonly stats = new AgentStats();

  constructor(private readonly opts: SupervisorOptions) {
    this.world = opts.world;
    this.diag = opts.diag ?? nullDiagSink;
    this.now = opts.now ?? Date.now;
    this.bus = new EventBus((type, error) =>
      this.diag.note('event listener failed', { type, error: toWire(error).message }, 'error'),
    );
    this.router = new Router({
      world: () => this.world,
      slots: this.slots,
      recorder: opts.recorder ?? nullRecorder,
      diag: this.diag,
      emit: (event) => this.bus.emit(event),
      material: opts.material ?? (() => EMPTY_MATERIAL),
      now: this.now,
      direct: this.direct,
    });
    this.stats.start(opts.statsIntervalMs ?? 1000, () => {
      const active = [...this.slots.values()].map((x) => ({ agentId: x.id, status: x.status, startedAtMs: x.startedAtMs }));
      for (const event of this.stats.tick(active, this.now())) this.bus.emit(event);
    });
  }

  /**
   * Replaces the world snapshot (topology and template edits). A running agent whose spec or model template changed
   * is sent its new settings: they apply from its next turn (one in flight ends on the old ones).
   */
  setWorld(world: World): void {
    this.world = world;
    for (const runtime of this.slots.values()) {
      const settings = this.settingsOf(runtime.id);
      if (settings === null || !runtime.settingsChanged(settings)) continue;
      const apiKey = this.opts.apiKeyFor?.(settings.template) ?? null;
      runtime.handle?.post({ kind: 'settings', ...settings, apiKey });
      this.diag.note('agent settings sent', { agent: runtime.id, template: settings.template.id });
    }
  }

  /**
   * Another conversation becomes current (new, opened, a "fresh" schedule): the message ring holds only its tail and
   * every agent's view, running or not, becomes its own (`restore`; empty for a new conversation).
   */
  switchConversation(restore: (agentId: string) => ConversationRestore, logTail: readonly AgentMessage[]): void {
    this.router.log.clear();
    for (const message of logTail) this.router.log.push(message);
    for (const runtime of this.slots.values()) runtime.replaceConversation(restore(runtime.id));
  }

  /** The agent's spec and template as the current world has them (null when either is gone). */
  private settingsOf(id: string): AgentSettings | null {
    const agent = this.world.agents.find((a) => a.id === id);
    const template = this.world.modelTemplates.find((t) => t.id === agent?.modelTemplateId);
    if (agent === undefined || template === undefined) return null;
    return { agent, template, language: this.world.language, maxHops: this.world.maxHops };
  }

  /** The current world snapshot (host and GUI read it; never mutate it). */
  currentWorld(): World {
    return this.world;
  }

  /** The message log ring (oldest first). */
  messages(last?: number): ReturnType<Router['log']['list']> {
    return this.router.log.list(last);
  }

  /** Status of every agent in the world (idle when never started). */
  statuses(): Array<{ agentId: string; status: AgentStatus }> {
    return this.world.agents.map((a) => ({ agentId: a.id, status: this.slots.get(a.id)?.status ?? 'idle' }));
  }

  /** Starts one agent; resolves once its worker answered `ready`. ALREADY_RUNNING when it runs. */
  async startAgent(id: string): Promise<void> {
    const spec = this.world.agents.find((a) => a.id === id);
    if (spec === undefined) {
      throw agentNotInWorld(id);
    }
    const template = this.world.modelTemplates.find((t) => t.id === spec.modelTemplateId);
    if (template === undefined) {
      throw agentTemplateMissing(id, spec.modelTemplateId);
    }
    const t0 = this.now();
    let slot = this.slots.get(id);
    if (slot !== undefined && slot.status !== 'idle' && slot.status !== 'failed') {
      this.diag.note('agent start refused', { agent: id, reason: 'already_running' });
      throw agentAlreadyRunning(id, slot.status);
    }
    let reaped = false;
    if (slot !== undefined && slot.handle !== null) {
      const hadError = slot.failedWith !== null;
      await slot.destroy();
      reaped = true;
      this.diag.note('agent reaped', { agent: id, had_error: hadError });
    }
    // The first start reads the current conversation; a restart keeps the view as it stands (appends included).
    const s: AgentRuntime = slot ?? new AgentRuntime(id, this.opts.restore?.(id) ?? { history: [], summary: null });
    slot = s;
    this.slots.set(id, s);
    slot.failedWith = null;
    this.setStatus(slot, 'starting');
    // Published before the spawn: deliveries queue while the worker boots.
    slot.mailbox = new Mailbox(this.opts.mailboxCapacity ?? MAILBOX_CAPACITY);
    slot.startedAtMs = t0;
    // A new worker numbers its turns from 1 again.
    slot.beginWorker({ agent: spec, template, language: this.world.language, maxHops: this.world.maxHops });
    let externalTools: ToolSpec[] = [];
    if (this.opts.externalTools !== undefined) {
      await this.opts.externalTools.openAgent(id);
      externalTools = this.opts.externalTools.specsFor(id);
    }
    const mainSide = createMainSide({
      agentId: id,
      externalTools: this.opts.externalTools,
      reviews: this.reviews,
      scanPool: this.opts.scanPool ?? sharedScanPool(),
      readRoomLog: (messageId) => this.router.readRoomLog(id, messageId),
    });
    const handle = AgentHandle.spawn(
      this.opts.workerUrl ?? agentWorkerUrl(),
      {
        kind: 'init',
        protocolVersion: PROTOCOL_VERSION,
        agent: spec,
        template,
        language: this.world.language,
        maxHops: this.world.maxHops,
        apiKey: this.opts.apiKeyFor?.(template) ?? null,
        backendMode: this.opts.backendMode ?? 'strict',
        workspaceDir: this.opts.workspaceDir,
        runApproval: this.opts.runApproval ?? 'required',
        lastCallMilli: 0,
        planReview: this.opts.planReview ?? 'unavailable',
        externalTools,
        planIds: this.planIds,
        jev: (await this.opts.jevFor?.()) ?? null,
        loadEngineAtStart: this.opts.loadReceptionEngineAtStart === true && id === this.world.reception,
      },
      {
        onMessage: (msg) => this.onWorkerMessage(s, handle, msg),
        admit: (batch) => this.direct.admit(s, handle, batch),
        release: (reason) => this.releaseWorker(s, handle, reason),
        onExit: (exit) => this.onWorkerExit(s, handle, exit),
        mainSide,
      },
      this.opts.resourceLimits,
    );
    slot.handle = handle;
    try {
      await handle.ready;
    } catch (error) {
      throw workerCrashed(id, `failed while starting: ${toWire(error).message}`);
    }
    if (!slot.runs(handle) || slot.status !== 'starting') return;
    this.setStatus(slot, 'running');
    this.diag.note('agent started', { agent: id, elapsed_ms: this.now() - t0, reaped });
    this.router.pump(slot);
  }

  /** Stops one agent: interrupt → stopping → mailbox removed → stop → join (30 s bound) → idle. */
  async stopAgent(id: string): Promise<void> {
    const slot = this.slots.get(id);
    if (slot === undefined || (slot.status !== 'running' && slot.status !== 'starting') || slot.handle === null) {
      throw agentNotRunning(id, 'stop');
    }
    const handle = slot.handle;
    void this.interruptTurn(id);
    this.setStatus(slot, 'stopping');
    this.closeMailbox(slot);
    handle.requestStop();
    // The in-flight turn may still finish while we wait; the exit (or the terminate past the bound) settles the rest.
    const joined = await handle.join(this.opts.joinTimeoutMs ?? JOIN_TIMEOUT_MS);
    await slot.destroy();
    this.setStatus(slot, 'idle');
    this.diag.note('agent stopped', { agent: id, elapsed_ms: this.now() - slot.startedAtMs, joined });
  }

  /** Agents whose worker is handling an envelope right now (a turn in flight). */
  turnsInFlight(): string[] {
    return [...this.slots.values()].flatMap((slot) => (slot.inFlight !== null ? [slot.id] : []));
  }

  /** Token counters of one agent since this supervisor started (zeros when it never ran). */
  agentCounters(agentId: string): AgentCounters {
    return { ...this.stats.of(agentId) };
  }

  /** Waves of `planReview` agents waiting for a person's decision (oldest first). */
  pendingPlanReviews(): PlanReviewRequest[] {
    return this.reviews.list();
  }

  /** Approves or rejects a held wave; a rejection's note goes back to the facilitator as text. */
  resolvePlanReview(planId: number, decision: PlanReviewDecision): void {
    this.reviews.resolve(planId, decision);
  }

  /**
   * Records the user's message first, then delivers it as a new causal root (NOT_RUNNING, MAILBOX_FULL). Attached
   * files are named on the record and their bodies ride only on this envelope.
   */
  sendUserMessage(to: string, text: string, attached: readonly PreparedAttachment[] = []): void {
    const from: Endpoint = { kind: 'user' };
    const files = attached.length === 0 ? {} : { attachments: attached.map((a) => a.ref) };
    this.router.record(from, { kind: 'agent', id: to }, text, 0, files);
    const bodies = attached.length === 0 ? {} : { attachments: attached.map((a) => a.prompt) };
    this.router.deliver(
      this.router.envelope({ parentId: null, from, to, content: text, hop: 0, awaitingReply: false, pool: this.router.rootPool(), ...bodies }),
    );
  }

  /**
   * A System message delivered as a new causal root (schedule firings: own budget pool, hop 0, nobody waits).
   * Recorded first; NOT_RUNNING / MAILBOX_FULL as any delivery. `onChainEnd` is called once, when the root's turn
   * has ended, with the agents of its chain (the target and whom it asked) and their calls.
   */
  sendSystemMessage(to: string, text: string, onChainEnd?: (spend: ChainSpend) => void): void {
    const from: Endpoint = { kind: 'system' };
    this.router.record(from, { kind: 'agent', id: to }, text, 0);
    const env = this.router.envelope({ parentId: null, from, to, content: text, hop: 0, awaitingReply: false, pool: this.router.rootPool() });
    if (onChainEnd !== undefined) this.router.chains.open(env.id, to, onChainEnd);
    try {
      this.router.deliver(env);
    } catch (error) {
      this.router.chains.take(env.id);
      throw error;
    }
  }

  /** The worker turn number of `agentId`'s newest recorded exchange (0: none since it started). */
  summaryBoundary(agentId: string): number {
    return this.slots.get(agentId)?.recordedTurnSeq ?? 0;
  }

  /**
   * One "summarize and continue" call on a running agent's worker (NOT_RUNNING otherwise); allowed while it has a
   * turn in flight. The call's usage is recorded and counted like any other call of the agent.
   */
  async summarizeAgent(agentId: string, request: SummaryCallRequest): Promise<SummaryCallReply> {
    const slot = this.slots.get(agentId);
    if (slot === undefined || slot.status !== 'running' || slot.handle === null) {
      throw agentNotRunning(agentId, 'summarize');
    }
    // Without a store's exchanges the call reads the agent's own window up to the boundary.
    const own = slot.foldInput(request.throughTurnSeq);
    const reply = await slot.handle.summarize(
      request.history === null ? { ...request, history: [...own.history], previous: own.summary } : request,
    );
    if (reply.kind === 'done' && reply.folded) slot.foldSummary(reply.text, request.throughTurnSeq);
    if (reply.kind !== 'nothing' && reply.call !== null) {
      (this.opts.recorder ?? nullRecorder).appendCall(reply.call);
      const tally = new SpendLedger();
      tally.absorbCall(reply.call);
      this.stats.settle(agentId, tally.snapshot());
    }
    return reply;
  }

  /** A System→User notice line (recorded, never delivered), e.g. a schedule skipped for a stopped target. */
  notice(text: string): void {
    this.router.notice(text);
  }

  /**
   * One external request to the reception. Requests queue in arrival order in the external mailbox (bounded,
   * EXTERNAL_BUSY only when it is full) and are served one at a time; each keeps its own wait limit (`timeoutMs`,
   * default askTimeoutSecs) from arrival, waiting included. A caller that aborts leaves the queue, or cuts its work.
   */
  async askExternalOutcome(client: string, text: string, options: ExternalAskOptions = {}): Promise<ExternalOutcome> {
    this.externalReception();
    const arrivedMs = this.now();
    const waitMs = options.timeoutMs ?? this.world.askTimeoutSecs * 1000;
    const ticket = await this.external.acquire(waitMs, options.signal);
    if (ticket.kind !== 'served') return { answer: '', state: UNSERVED_STATE[ticket.kind], calls: [] };
    try {
      // Checked again: the reception may have stopped while this request waited.
      const reception = this.externalReception();
      const from: Endpoint = { kind: 'external', client: externalClientName(client, this.world.externalName) };
      this.router.record(from, { kind: 'agent', id: reception }, text, 0);
      const env = this.router.envelope({
        parentId: null, from, to: reception, content: text, hop: 0, awaitingReply: true, pool: this.router.rootPool(),
      });
      // Tracked from before delivery, so the outcome carries every call of the chain (the reception and whom it asked).
      this.router.chains.open(env.id, reception);
      try {
        this.router.deliver(env);
      } catch (error) {
        this.router.chains.take(env.id);
        throw error;
      }
      const onAbort = (): void => void this.cut(env.id);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const leftMs = Math.max(0, waitMs - (this.now() - arrivedMs));
      const result = await new Promise<DeliveryResult>((resolve) => this.router.replies.open(env.id, reception, leftMs, resolve));
      options.signal?.removeEventListener('abort', onAbort);
      // Nobody waits any more: cut the abandoned work so the next external request is not queued behind it.
      if (result.state === 'timed_out') await this.cut(env.id);
      return { answer: result.text, state: result.state, calls: this.router.chains.take(env.id)?.calls ?? [] };
    } finally {
      ticket.release();
    }
  }

  /** The reception an external request goes to, or why it cannot (unset, not in the world, not running). */
  private externalReception(): string {
    const reception = this.world.reception;
    if (reception === null) {
      throw receptionUnset();
    }
    if (!this.world.agents.some((a) => a.id === reception)) {
      throw receptionNotInWorld(reception);
    }
    if (this.slots.get(reception)?.mailbox == null) {
      throw receptionNotRunning(reception);
    }
    return reception;
  }

  /** Cuts the agent's turn in flight and every turn it delegated; resolves when the workers acknowledged. */
  interruptTurn(id: string): Promise<void> {
    const env = this.slots.get(id)?.inFlight;
    return env == null ? Promise.resolve() : this.cut(env.id);
  }

  /** Cuts every turn in flight (and its causal subtree); resolves when every worker acknowledged. */
  async interruptAll(): Promise<void> {
    const roots = [...this.slots.values()].flatMap((s) => (s.inFlight === null ? [] : [s.inFlight.id]));
    await Promise.all(roots.map((id) => this.cut(id)));
  }

  /** Stops every started agent and reaps failed ones. */
  async shutdown(): Promise<void> {
    this.closed = true;
    this.external.close();
    this.stats.stop();
    for (const timer of this.restartTimers) clearTimeout(timer);
    this.restartTimers.clear();
    await this.interruptAll();
    await Promise.all(
      [...this.slots.values()].map(async (slot) => {
        if (slot.status === 'running' || slot.status === 'starting') return this.stopAgent(slot.id);
        await slot.destroy();
      }),
    );
    this.router.replies.resolveAll({ text: '', state: 'no_answer' });
  }

  /** Worker thread ids still alive (leak checks). */
  liveWorkers(): number[] {
    return [...this.slots.values()].flatMap((s) => (s.handle?.alive === true ? [s.handle.threadId] : []));
  }

  /** Interrupts every turn of the causal subtree of `rootId`; resolves when each worker answered or died. */
  private cut(rootId: string): Promise<void> {
    const acks: Array<Promise<unknown>> = [];
    const cutIds = new Set(this.router.tree.cut(rootId));
    for (const slot of this.slots.values()) {
      const env = slot.inFlight;
      if (env === null || !cutIds.has(env.id) || slot.handle === null || !slot.handle.alive) continue;
      // A worker that dies meanwhile rejects the call (WORKER_CRASHED): its exit path settles the turn.
      acks.push(slot.handle.interrupt(env.id).catch(() => false));
    }
    return Promise.all(acks).then(() => undefined);
  }

  private setStatus(slot: AgentRuntime, status: AgentStatus): void {
    const prev = slot.status;
    if (prev === status) return;
    slot.status = status;
    this.bus.emit({ type: 'agentStatusChanged', agentId: slot.id, status });
    const name = this.world.agents.find((a) => a.id === slot.id)?.name ?? slot.id;
    const line = statusNotice(name, prev, status, this.world.language);
    if (line !== null) this.router.notice(line);
  }

  private onWorkerMessage(slot: AgentRuntime, handle: AgentHandle, msg: FromWorker): void {
    if (!slot.runs(handle)) return;
    switch (msg.kind) {
      case 'event':
        this.bus.emit(msg.event);
        return;
      case 'diag':
        for (const n of msg.notes) this.diag.note(n.kind, n.fields, n.level);
        return;
      case 'callUsage':
        (this.opts.recorder ?? nullRecorder).appendCall(msg.call);
        this.router.chains.add(slot.inFlight?.rootId, msg.call);
        return;
      case 'notice':
        this.router.notice(msg.text);
        return;
      case 'interruptAck':
        return; // settled by the handle, never held
      case 'delegate':
        this.router.delegate(slot, msg, (result) => {
          if (slot.runs(handle)) handle.post({ kind: 'delegateResult', requestId: msg.requestId, result });
        });
        return;
      case 'turnDone':
      case 'turnFolded':
      case 'turnFailed': {
        const env = slot.inFlight;
        if (env === null || env.id !== msg.envelopeId) return; // stopped meanwhile: already resolved
        if (msg.kind === 'turnDone') {
          this.stats.settle(slot.id, msg.result.spend);
          this.router.turnDone(slot, env, msg);
        }
        else if (msg.kind === 'turnFolded') {
          this.router.finish(slot, env);
          this.router.replies.resolve(env.id, { text: '', state: 'interrupted' });
        } else {
          this.stats.settle(slot.id, msg.spend);
          this.router.recordFailedTurn(slot, env, msg);
          this.onTurnFailed(slot, handle, env.id, env.hop, msg.error);
        }
        this.router.pump(slot);
        return;
      }
      default:
        assertNever(msg);
    }
  }

  private onTurnFailed(slot: AgentRuntime, handle: AgentHandle, envId: string, hop: number, error: ErrorPayload): void {
    const fatal = stopsTheAgent(error);
    if (slot.inFlight !== null) this.router.finish(slot, slot.inFlight);
    this.diag.note('turn failed', { agent: slot.id, hop, code: error.code, fatal, message: error.message }, 'warn');
    this.bus.emit({ type: 'agentFailed', agentId: slot.id, error: { ...error, agentId: slot.id } });
    this.router.replies.resolve(envId, { text: '', state: 'no_answer' });
    if (!fatal) return;
    slot.failedWith = 'fatal_llm';
    this.closeMailbox(slot);
    this.setStatus(slot, 'failed');
    handle.requestStop();
  }

  /** No more deliveries to `slot`: its queued envelopes' waiters get no_answer. */
  private closeMailbox(slot: AgentRuntime): void {
    this.router.dropQueued(slot, { text: '', state: 'no_answer' });
    slot.mailbox = null;
  }

  /**
   * Routing's part of a worker's teardown (called once, from its handle's `destroy`): the envelope it handled and
   * its queue settle with no_answer; on a crash, what it asked is cut.
   */
  private releaseWorker(slot: AgentRuntime, handle: AgentHandle, reason: TeardownReason): void {
    if (!slot.runs(handle)) return;
    const env = slot.inFlight;
    if (env !== null) {
      if (reason.kind === 'crashed') {
        this.bus.emit({ type: 'agentTyping', agentId: slot.id, active: false });
        void this.cut(env.id);
      }
      this.router.replies.resolve(env.id, { text: '', state: 'no_answer' });
      this.router.finish(slot, env);
    }
    this.closeMailbox(slot);
  }

  private onWorkerExit(slot: AgentRuntime, handle: AgentHandle, exit: WorkerExit): void {
    void this.opts.externalTools?.closeAgent(slot.id).catch(() => undefined);
    if (!slot.runs(handle) || handle.exitExpected) return;
    // A crash: only this agent fails (its handle's teardown already settled its waiters and cut what it asked).
    const error: ErrorPayload = toWire(workerCrashed(slot.id, exit.error?.message ?? `exit code ${exit.code}`));
    slot.failedWith = 'crash';
    this.bus.emit({ type: 'agentFailed', agentId: slot.id, error });
    this.setStatus(slot, 'failed');
    this.maybeRestart(slot, exit.wasReady);
  }

  private maybeRestart(slot: AgentRuntime, wasReady: boolean): void {
    const nowMs = this.now();
    slot.restartsAtMs = pruneRestarts(slot.restartsAtMs, nowMs);
    const decision = decideRestart({
      enabled: this.opts.restartCrashed === true && !this.closed,
      failure: 'crash',
      wasReady,
      restartsAtMs: slot.restartsAtMs,
      nowMs,
    });
    if (!decision.restart) return;
    slot.restartsAtMs.push(nowMs);
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      if (this.closed || slot.status !== 'failed') return;
      this.startAgent(slot.id).catch((e: unknown) => {
        this.diag.note('agent restart failed', { agent: slot.id, code: isFuseforksError(e) ? e.code : 'BUG' }, 'warn');
      });
    }, decision.delayMs);
    this.restartTimers.add(timer);
  }
}

/** Re-exported for hosts that want the bus payload types next to the supervisor. */
export type { CoreEvent };
