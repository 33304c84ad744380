/**
 * The agent side of the actor: holds this agent's lastCallMilli and turnSeq (its conversation comes with each
 * delivery, agentRuntime.ts owns it), handles one envelope at a time, and turns engine results into `FromWorker`
 * messages. Independent of `worker_threads` globals so
 * the protocol can be tested over an in-thread MessageChannel pair (STYLE 13).
 *
 * Lean by rule: no zod, pino, lmdb or MCP SDK is reachable from here (test/actors/workerImports.test.ts).
 */
import { bootMark } from '../core/bootTrace.js';
import type { MessagePort } from 'node:worker_threads';
import type { DiagFields, DiagLevel, DiagSink } from '../core/diag.js';
import type { Remote } from 'comlink';
import { BugError, isFuseforksError, toWire } from '../core/errors.js';
import { assertNever, type CoreEvent } from '../core/events.js';
import type { JevDeps } from '../core/jev/helperPort.js';
import type { LlmBackend } from '../core/llm/canonical.js';
import type { ToolBox, ToolReply } from '../core/tools/contract.js';
import type { ExternalToolCaller } from '../core/tools/externalTool.js';
import type { CallRecord } from '../core/sessions/records.js';
import type { ScanJob, ScanOutput } from '../core/tools/scan/scanJob.js';
import { endpointLogLabel } from '../core/turn/envelope.js';
import { SpendLedger } from '../core/turn/turnSpend.js';
import type { RoomLogRead } from '../core/turn/roomLog.js';
import type {
  BudgetGate,
  DeliveryRequest,
  DeliveryResult,
  Exchange,
  PlanReviewDecision,
  PlanReviewRequest,
  TurnDeps,
  TurnInput,
  TurnPorts,
  TurnResult,
} from '../core/turn/ports.js';
import { DeltaCoalescer } from './deltaCoalescer.js';
import { answerOfTurn, forAsker } from './askReply.js';
import {
  isDataMessage,
  PROTOCOL_VERSION,
  type DeliverMessage,
  type DirectReply,
  type FromWorker,
  type InitMessage,
  type SettingsMessage,
  type ToWorker,
  type WorkerBatch,
} from './protocol.js';
import { ABORTED, exposeOn, raceAbort, remoteOn, type MainSide, type WorkerSide } from './rpc.js';
import type { SummaryCallReply, SummaryCallRequest } from './summaryCall.js';
import { runSummaryCall } from './workerSummary.js';

/** What a main-thread tool answers when the turn was interrupted while it ran. */
const INTERRUPTED_REPLY: ToolReply = { body: 'interrupted', ok: false };

/** What the worker entry plugs in: the engine, the backend/tool factories and the budget view. */
export interface WorkerEnv {
  /** Loads what a turn needs (engine, backends, tools); awaited before the first turn, not at spawn. */
  prepare?(): Promise<void>;
  runTurn(input: TurnInput, deps: TurnDeps): Promise<TurnResult>;
  /**
   * Called lazily at the first turn so a config error fails that turn (LLM_CONFIG), not the boot.
   * `degradedReason` set = an echo stands in for a broken template (emits `backendDegraded`).
   */
  makeBackend(init: InitMessage): { backend: LlmBackend; degradedReason?: string };
  /** Jev for this worker's turns (absent or undefined = no Jev in this run). */
  makeJev?(init: InitMessage): JevDeps | undefined;
  /** `callExternal` runs a main-thread (MCP) tool over the data plane. */
  makeTools(init: InitMessage, callExternal: ExternalToolCaller): ToolBox;
  budgetFromShared(shared: SharedArrayBuffer): BudgetGate;
  now(): number;
}

/** The setup endpoint (parentPort, or one end of a MessageChannel in tests). */
export interface SetupEndpoint {
  on(event: 'message', listener: (value: unknown) => void): unknown;
  off(event: 'message', listener: (value: unknown) => void): unknown;
  postMessage(value: unknown): void;
}

/** Throws on the next macrotask so an unexpected error crashes the worker instead of hanging it (STYLE 6). */
function crash(error: unknown): void {
  setImmediate(() => {
    throw error;
  });
}

/** Serves one agent: waits for `init` on `setup`, answers `ready`, then handles the data plane. */
export function serveAgent(setup: SetupEndpoint, env: WorkerEnv): void {
  const onSetup = (value: unknown): void => {
    const init = value as InitMessage;
    if (init.kind !== 'init') return crash(new BugError(`worker expected init, got ${String(init.kind)}`));
    if (init.protocolVersion !== PROTOCOL_VERSION) {
      return crash(new BugError(`protocol ${init.protocolVersion} != worker protocol ${PROTOCOL_VERSION}`));
    }
    setup.off('message', onSetup);
    new AgentActor(init, env).listen();
    setup.postMessage({ kind: 'ready', protocolVersion: PROTOCOL_VERSION });
    bootMark('ready', init.agent.id);
    if (init.loadEngineAtStart) {
      bootMark('engine at start', init.agent.id);
      // A failed load is not this step's to report: the first turn awaits the same load and fails with its reason.
      env.prepare?.().catch(() => undefined);
    }
  };
  setup.on('message', onSetup);
}

interface Current {
  envelopeId: string;
  controller: AbortController;
  seq: number;
  startedMs: number;
  /** The calls of this turn so far: what a failed turn still cost. */
  tally: SpendLedger;
  calls: number;
}

class AgentActor {
  private readonly port: MessagePort;
  /** The settings turns run with: `init`'s, then each `settings` message's from the next turn on. */
  private init: InitMessage;
  /** Settings that arrived during a turn: they apply when the next one starts. */
  private pendingSettings: SettingsMessage | null = null;
  private lastCallMilli: number;
  private turnSeq = 0;
  private current: Current | null = null;
  private stopping = false;
  private backend: LlmBackend | null = null;
  private tools: ToolBox | null = null;
  /** Jev for this worker, made on the first turn (null = made, none configured). */
  private jev: JevDeps | null | undefined = undefined;
  private nextRequestId = 1;
  /** `delegate` answers (the mailbox path stays plain messages; everything else with a reply is comlink). */
  private readonly waits = new Map<number, (result: DeliveryResult) => void>();
  private readonly main: Remote<MainSide>;
  /** Messages not yet posted: one batch per flush (protocol.ts WorkerBatch). */
  private outbox: FromWorker[] = [];
  private flushQueued = false;
  /** Envelopes whose answers came on a direct channel since the last post (the batch's `after`). */
  private taken: string[] = [];
  /** Direct channels to askers, by the supervisor's channel number (this agent answers on them). */
  private readonly replyPorts = new Map<number, MessagePort>();
  /** Direct channels from targets (this agent's asks are answered on them). */
  private readonly peerPorts = new Set<MessagePort>();
  private readonly diag: DiagSink;
  private readonly planIds: Int32Array;
  /** Streamed reply pieces, gathered before they cross to the main thread. */
  private readonly deltas: DeltaCoalescer;

  constructor(
    init: InitMessage,
    private readonly env: WorkerEnv,
  ) {
    this.init = init;
    this.port = init.port;
    this.main = remoteOn<MainSide>(init.port);
    this.lastCallMilli = init.lastCallMilli;
    this.planIds = new Int32Array(init.planIds);
    this.diag = { note: (kind, fields, level) => this.note(kind, fields, level) };
    this.deltas = new DeltaCoalescer(init.agent.id, (event) => this.post({ kind: 'event', event }));
  }

  listen(): void {
    this.port.on('message', (msg: unknown) => {
      if (isDataMessage(msg)) this.handle(msg as ToWorker);
    });
    const side: WorkerSide = {
      summarize: async (request) => {
        const reply = await this.summarize(request);
        this.flush();
        return reply;
      },
    };
    exposeOn(this.port, side);
  }

  /** One summary call on this agent's backend over the exchanges given (the main thread folds its window). */
  private async summarize(request: SummaryCallRequest): Promise<SummaryCallReply> {
    let backend: LlmBackend;
    try {
      backend = await this.ensureBackend();
    } catch (error) {
      return { kind: 'failed', error: toWire(error), call: null };
    }
    return runSummaryCall(this.init, backend, request.previous, request.history ?? [], () => this.env.now());
  }

  /** New settings apply between turns: the backend and tools are made again from them at the next use. */
  private applySettings(next: SettingsMessage): void {
    const prev = this.init;
    this.init = { ...prev, agent: next.agent, template: next.template, language: next.language, maxHops: next.maxHops, apiKey: next.apiKey };
    if (JSON.stringify(prev.template) !== JSON.stringify(next.template) || prev.apiKey !== next.apiKey) this.backend = null;
    if (JSON.stringify(prev.agent) !== JSON.stringify(next.agent) || prev.language !== next.language) this.tools = null;
    this.note('settings applied', { agent: next.agent.id, template: next.template.id });
  }

  /** The backend, made on first use (a config error then fails that use, not the boot). */
  private async ensureBackend(): Promise<LlmBackend> {
    await this.env.prepare?.();
    if (this.backend === null) {
      const made = this.env.makeBackend(this.init);
      this.backend = made.backend;
      if (made.degradedReason !== undefined) {
        this.emit({ type: 'backendDegraded', modelTemplateId: this.init.template.id, reason: made.degradedReason });
      }
    }
    return this.backend;
  }

  /** Cuts the turn handling `envelopeId` when it is the one in flight. */
  private interrupt(envelopeId: string): boolean {
    const cur = this.current;
    const cut = cur !== null && cur.envelopeId === envelopeId && !cur.controller.signal.aborted;
    if (cut) {
      this.note('interrupt requested', { agent: this.init.agent.id, seq: cur.seq });
      cur.controller.abort();
    }
    return cut;
  }

  /**
   * Queues `msg` for the next batch. Outcomes, asks and acknowledgements go out at once (`now`); events and diag
   * lines ride along with them, or leave on the next event-loop turn (setImmediate) — so a long model call still
   * shows "typing" and streamed text without delay, and a turn's burst costs one post instead of one per line.
   */
  private post(msg: FromWorker, now = false): void {
    this.outbox.push(msg);
    if (now) this.flush();
    else if (!this.flushQueued) {
      this.flushQueued = true;
      setImmediate(this.flushLater);
    }
  }

  private readonly flushLater = (): void => {
    this.flushQueued = false;
    this.flush();
  };

  /** Posts everything queued as one batch (before any comlink call too: one port, one order). */
  private flush(): void {
    if (this.outbox.length === 0 && this.taken.length === 0) return;
    const batch: WorkerBatch = { kind: 'batch', items: this.outbox };
    if (this.taken.length > 0) batch.after = this.taken;
    this.outbox = [];
    this.taken = [];
    this.port.postMessage(batch);
  }

  /** A turn writes several lines in a burst: consecutive notes share one diag message of the batch. */
  private note(kind: string, fields: DiagFields = {}, level: DiagLevel = 'info'): void {
    const last = this.outbox.at(-1);
    if (last?.kind === 'diag') last.notes.push({ kind, fields, level });
    else this.post({ kind: 'diag', notes: [{ kind, fields, level }] });
  }

  private handle(msg: ToWorker): void {
    switch (msg.kind) {
      case 'deliver':
        if (this.current !== null) throw new BugError('deliver while a turn is in flight');
        this.runEnvelope(msg).catch(crash);
        return;
      case 'delegateResult': {
        this.waits.get(msg.requestId)?.(msg.result);
        return;
      }
      case 'interrupt':
        this.post({ kind: 'interruptAck', id: msg.id, cut: this.interrupt(msg.envelopeId) }, true);
        return;
      case 'peer':
        this.listenPeer(msg.port);
        return;
      case 'settings':
        if (this.current === null) this.applySettings(msg);
        else this.pendingSettings = msg;
        return;
      case 'stop':
        this.stopping = true;
        if (this.current === null) this.close();
        return;
      default:
        assertNever(msg);
    }
  }

  /** Lets the event loop drain: the worker exits once the port is closed and nothing else is pending. */
  private close(): void {
    this.flush();
    queueMicrotask(() => {
      for (const port of this.replyPorts.values()) port.close();
      for (const port of this.peerPorts) port.close();
      this.port.close();
    });
  }

  /** A target's end of a direct channel: its answers to this agent's asks arrive there (never keeps the thread alive). */
  private listenPeer(port: MessagePort): void {
    this.peerPorts.add(port);
    port.on('message', (reply: DirectReply) => {
      const finish = this.waits.get(reply.requestId);
      if (finish === undefined) return; // settled meanwhile (interrupt, timeout): the supervisor's word stood
      this.taken.push(reply.envelopeId);
      finish(reply.result);
    });
    port.on('close', () => this.peerPorts.delete(port));
    port.unref();
  }

  /** The first delivery over a direct channel brings this agent's end of it (kept whatever the turn does). */
  private adoptReplyPort(msg: DeliverMessage): void {
    const route = msg.replyTo;
    if (route?.port === undefined) return;
    const port = route.port;
    this.replyPorts.set(route.channel, port);
    port.on('close', () => this.replyPorts.delete(route.channel));
    port.unref();
  }

  /**
   * Answers the asker of `msg` on the direct channel, right after the supervisor was sent the turn's outcome (it
   * records the turn and closes the wait without posting the answer a second time). Failed and folded turns are
   * answered by the supervisor only.
   */
  private answerDirectly(msg: DeliverMessage, result: TurnResult): void {
    const route = msg.replyTo;
    if (route === undefined) return;
    const reply: DirectReply = {
      kind: 'directReply',
      requestId: route.requestId,
      envelopeId: msg.envelopeId,
      result: forAsker(answerOfTurn(result), this.init.language),
    };
    this.replyPorts.get(route.channel)?.postMessage(reply);
  }

  private async runEnvelope(msg: DeliverMessage): Promise<void> {
    const agentId = this.init.agent.id;
    this.adoptReplyPort(msg);
    if (msg.folded) {
      this.note('turn folded', { agent: agentId, hop: msg.envelope.hop, from: endpointLogLabel(msg.envelope.from) });
      this.post({ kind: 'turnFolded', envelopeId: msg.envelopeId }, true);
      return;
    }
    if (this.pendingSettings !== null) {
      this.applySettings(this.pendingSettings);
      this.pendingSettings = null;
    }
    const controller = new AbortController();
    const seq = ++this.turnSeq;
    const current: Current = { envelopeId: msg.envelopeId, controller, seq, startedMs: this.env.now(), tally: new SpendLedger(), calls: 0 };
    this.current = current;
    this.emit({ type: 'agentTyping', agentId, active: true });
    let outcome: FromWorker;
    try {
      const result = await this.turn(msg, seq, controller.signal);
      this.lastCallMilli = result.lastCallMilli;
      outcome = { kind: 'turnDone', envelopeId: msg.envelopeId, turnSeq: seq, result, backend: this.backend?.name ?? '-' };
    } catch (error) {
      if (controller.signal.aborted && !isFuseforksError(error)) {
        // An interrupt that surfaced as the abort reason of an in-flight call: still an interruption.
        this.current = null;
        this.endTurn(msg, this.interruptedFallback(msg, seq));
        return;
      }
      // Coded errors (LLM failures, config) are outcomes of this turn; anything else is a bug → crash.
      if (!isFuseforksError(error) || error.code === 'BUG') throw error;
      const exchange: Exchange = { sent: msg.envelope.content, replied: `(failed: ${error.code})` };
      outcome = {
        kind: 'turnFailed',
        envelopeId: msg.envelopeId,
        turnSeq: seq,
        error: toWire(error),
        exchange,
        spend: current.tally.snapshot(),
        calls: current.calls,
        elapsedMs: this.env.now() - current.startedMs,
        backend: this.backend?.name ?? '-',
      };
    } finally {
      this.current = null;
      for (const finish of [...this.waits.values()]) finish({ text: '', state: 'interrupted' });
    }
    this.endTurn(msg, outcome);
  }

  /** Typing ends before the outcome, so a GUI never shows "typing" next to the finished reply; then the answer. */
  private endTurn(msg: DeliverMessage, outcome: FromWorker): void {
    this.emit({ type: 'agentTyping', agentId: this.init.agent.id, active: false });
    this.post(outcome, true);
    if (outcome.kind === 'turnDone') this.answerDirectly(msg, outcome.result);
    if (this.stopping) this.close();
  }

  /** The record of a turn whose call was aborted by an interrupt before the engine could settle it. */
  private interruptedFallback(msg: DeliverMessage, seq: number): FromWorker {
    const agentId = this.init.agent.id;
    const replied = '(interrupted)';
    this.note('turn interrupted', { agent: agentId, seq, hop: msg.envelope.hop, rounds: 0, elapsed_ms: -1 });
    this.emit({ type: 'turnInterrupted', agentId, turnSeq: seq });
    const spend = { prompt: 0, cached: 0, cacheWrite: 0, cacheWrite1h: 0, completion: 0, reasoning: 0, effectiveMilli: 0 };
    const result: TurnResult = {
      outcome: { kind: 'finish', text: '' },
      replyState: 'interrupted',
      replyText: replied,
      stop: { kind: 'interrupted' },
      exchange: { sent: msg.envelope.content, replied },
      rounds: 0,
      waves: 0,
      spend,
      lastCallMilli: this.lastCallMilli,
      elapsedMs: 0,
    };
    return { kind: 'turnDone', envelopeId: msg.envelopeId, turnSeq: seq, result, backend: this.backend?.name ?? '-' };
  }

  private async turn(msg: DeliverMessage, seq: number, signal: AbortSignal): Promise<TurnResult> {
    const backend = await this.ensureBackend();
    this.tools ??= this.env.makeTools(this.init, (name, args, signal) => this.callExternal(name, args, signal));
    const input: TurnInput = {
      agent: this.init.agent,
      template: this.init.template,
      language: this.init.language,
      roster: msg.roster,
      maxHops: this.init.maxHops,
      material: msg.material,
      history: msg.conversation.history,
      summary: msg.conversation.summary,
      envelope: msg.envelope,
      turnSeq: seq,
      lastCallMilli: this.lastCallMilli,
      workspaceDir: this.init.workspaceDir,
      runApproval: this.init.runApproval,
      bypassPlanReview: this.init.planReview === 'bypass',
      context: msg.context,
    };
    const deps: TurnDeps = {
      backend,
      tools: this.tools,
      ports: this.ports(msg.envelopeId, seq),
      budget: msg.budget === null ? null : this.env.budgetFromShared(msg.budget),
      signal,
      now: () => this.env.now(),
      allocatePlanId: () => Atomics.add(this.planIds, 0, 1) + 1,
    };
    if (this.jev === undefined) this.jev = this.env.makeJev?.(this.init) ?? null;
    if (this.jev !== null) deps.jev = this.jev;
    bootMark('turn', this.init.agent.id);
    return this.env.runTurn(input, deps);
  }

  private ports(envelopeId: string, seq: number): TurnPorts {
    return {
      streamDelta: (round, delta) => this.deltas.push(seq, round, delta),
      deliverAndWait: (request, signal) => this.deliverAndWait(envelopeId, request, signal),
      notice: (text) => this.post({ kind: 'notice', text }),
      emit: (event) => this.emit(event),
      diag: this.diag,
      reportCall: (call) => this.reportCall(envelopeId, call),
      // Only an agent that hears the room log gets the port, so only it is offered `room_log`.
      ...(this.init.agent.hearsRoomLog ? { readRoomLog: (id: string) => this.readRoomLog(id) } : {}),
      scan: (job, signal) => this.scan(job, signal),
      ...(this.init.planReview === 'ask'
        ? { reviewPlan: (request: PlanReviewRequest, signal: AbortSignal) => this.reviewPlan(request, signal) }
        : {}),
    };
  }

  /** Runs a main-thread tool; an interrupt answers at once with a short text and cancels the remote call. */
  private async callExternal(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolReply> {
    if (signal.aborted) return INTERRUPTED_REPLY;
    const callId = this.nextRequestId++;
    try {
      this.flush();
      const reply = await raceAbort(this.main.callTool(callId, name, args), signal);
      if (reply !== ABORTED) return reply;
      void this.main.cancel(callId);
      return INTERRUPTED_REPLY;
    } catch (error) {
      // A coded error from the main side arrives as a FuseforksError (rpc.ts): the model sees why and the fix.
      const wire = toWire(error);
      return { body: wire.fix === undefined ? wire.message : `${wire.message} (${wire.fix})`, ok: false };
    }
  }

  /** Runs a scanning job on the shared pool; an interrupt resolves null at once and cancels the job there. */
  private async scan(job: ScanJob, signal: AbortSignal): Promise<ScanOutput | null> {
    if (signal.aborted) return null;
    const callId = this.nextRequestId++;
    this.flush();
    const output = await raceAbort(this.main.scan(callId, job) as Promise<ScanOutput>, signal);
    if (output !== ABORTED) return output;
    void this.main.cancel(callId);
    return null;
  }

  /** `room_log({id})`: the supervisor answers at once from its ring (no wait worth cancelling). */
  private async readRoomLog(id: string): Promise<RoomLogRead> {
    this.flush();
    return this.main.readRoomLog(id);
  }

  /** Waits for a person's decision on a held wave; an interrupt withdraws the request and rejects. */
  private async reviewPlan(request: PlanReviewRequest, signal: AbortSignal): Promise<PlanReviewDecision> {
    this.flush();
    const decision = await raceAbort(this.main.reviewPlan(request) as Promise<PlanReviewDecision>, signal);
    if (decision !== ABORTED) return decision;
    void this.main.withdrawReview(request.planId);
    throw new Error('plan review interrupted');
  }

  /** Never throws: a cut wait resolves `interrupted` at once (the supervisor cuts the child too). */
  private deliverAndWait(envelopeId: string, request: DeliveryRequest, signal: AbortSignal): Promise<DeliveryResult> {
    if (signal.aborted) return Promise.resolve({ text: '', state: 'interrupted' });
    const requestId = this.nextRequestId++;
    return new Promise<DeliveryResult>((resolve) => {
      const onAbort = (): void => finish({ text: '', state: 'interrupted' });
      let settled = false;
      const finish = (result: DeliveryResult): void => {
        if (settled) return;
        settled = true;
        this.waits.delete(requestId);
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      };
      this.waits.set(requestId, finish);
      signal.addEventListener('abort', onAbort, { once: true });
      this.post({ kind: 'delegate', requestId, envelopeId, delegation: 'ask', to: request.to, message: request.message, hop: request.hop }, true);
    });
  }

  /** Sends a call's record to the main thread and tallies it on the turn it belongs to. */
  private reportCall(envelopeId: string, call: CallRecord): void {
    const cur = this.current;
    if (cur !== null && cur.envelopeId === envelopeId) {
      cur.tally.absorbCall(call);
      cur.calls += 1;
    }
    this.post({ kind: 'callUsage', call });
  }

  private emit(event: CoreEvent): void {
    this.deltas.flush();
    this.post({ kind: 'event', event });
  }
}

