/**
 * Routing on the main thread: recording, mailbox delivery, the causal tree and every reply route.
 * The worker's turn returns a `TurnResult`; the router records it and sends the answer to the asker
 * (ask/plan/external) or to the user, or fans a handoff out (reference core.md §2.4–§2.7, §2.11).
 */
import { randomUUID } from 'node:crypto';
import { BudgetPool } from '../core/budget/budgetPool.js';
import type { DiagSink } from '../core/diag.js';
import { toWire } from '../core/errors.js';
import type { AgentMessage, CoreEvent, Endpoint } from '../core/events.js';
import type { DeliveryResult, PromptMaterial, RoomContext, RosterEntry, TurnResult } from '../core/turn/ports.js';
import {
  presenceBlock,
  readRoomLog,
  roomLogExcerpt,
  ROOM_LOG_EXCERPT_CHARS,
  ROOM_LOG_WINDOW,
  type EndpointName,
  type RoomLogRead,
} from '../core/turn/roomLog.js';
import type { World } from '../core/world/types.js';
import { CausalTree } from './causalTree.js';
import { ChainLedger } from './chainLedger.js';
import { answerOfTurn, forAsker } from './askReply.js';
import type { DirectReplies } from './directReplies.js';
import { endpointField, senderLabel, undeliverableText } from './labels.js';
import { MessageLog } from './messageLog.js';
import type { DelegateMessage, TurnDoneMessage, TurnFailedMessage } from './protocol.js';
import type { SupervisorRecorder } from './recorder.js';
import { ReplyTable } from './replyTable.js';
import type { AgentRuntime } from './agentRuntime.js';
import type { Envelope } from './types.js';
import { agentNotRunning, mailboxFull } from '../core/errors/runtimeErrors.js';

/** What the router needs from its owner. */
export interface RouterContext {
  world(): World;
  slots: Map<string, AgentRuntime>;
  recorder: SupervisorRecorder;
  diag: DiagSink;
  emit(event: CoreEvent): void;
  material(agentId: string): PromptMaterial;
  now(): number;
  /** Direct answer channels between agent workers (absent: every answer goes through the supervisor). */
  direct?: DirectReplies;
}

/** Records, delivers and routes replies. One per supervisor. */
export class Router {
  readonly tree = new CausalTree();
  readonly replies = new ReplyTable();
  readonly log = new MessageLog();
  readonly chains = new ChainLedger();

  constructor(private readonly ctx: RouterContext) {}

  /** Records a message: log ring, recorder, `messageSent`. */
  record(from: Endpoint, to: Endpoint, content: string, hop: number, extra: Partial<AgentMessage> = {}): AgentMessage {
    const message: AgentMessage = { id: randomUUID(), from, to, content, tokens: 0, tsMs: this.ctx.now(), hop, ...extra };
    this.log.push(message);
    this.ctx.recorder.appendMessage(message);
    this.ctx.emit({ type: 'messageSent', message });
    return message;
  }

  /** A System→User notice line: recorded only, never delivered. */
  notice(text: string): void {
    this.record({ kind: 'system' }, { kind: 'user' }, text, 0);
  }

  /** A fresh pool for a causal root, or null when the village has no ceiling. */
  rootPool(): BudgetPool | null {
    const budget = this.ctx.world().tokenBudget;
    return budget === null ? null : BudgetPool.forTokens(budget);
  }

  /** Builds an envelope with a new id; without `rootId` it is the root of its own chain. */
  envelope(fields: Omit<Envelope, 'id' | 'rootId'> & { rootId?: string }): Envelope {
    const id = randomUUID();
    return { ...fields, id, rootId: fields.rootId ?? id };
  }

  /** try_send: NOT_RUNNING without a mailbox, MAILBOX_FULL (retryable) when full. Never waits. */
  deliver(env: Envelope): void {
    const slot = this.ctx.slots.get(env.to);
    if (slot === undefined || slot.mailbox === null) {
      throw agentNotRunning(env.to, 'deliver');
    }
    if (!slot.mailbox.offer(env)) {
      throw mailboxFull(env.to, slot.mailbox.capacity);
    }
    this.tree.add(env.id, env.parentId);
    this.pump(slot);
  }

  /** Hands the next queued envelope to an idle, ready worker; a cut envelope goes out folded. */
  pump(slot: AgentRuntime): void {
    if (slot.status !== 'running' || slot.inFlight !== null || slot.handle === null || slot.mailbox === null) return;
    const env = slot.mailbox.take();
    if (env === undefined) return;
    slot.inFlight = env;
    const world = this.ctx.world();
    const nameOf = (id: string): string => world.agents.find((a) => a.id === id)?.name ?? id;
    const roster = this.roster(slot.id);
    const direct = env.askedBy === undefined ? undefined : this.ctx.direct?.route(env, slot);
    slot.handle.post({
      kind: 'deliver',
      envelopeId: env.id,
      envelope: {
        from: env.from,
        fromLabel: senderLabel(env.from, world.language, world.userName, nameOf),
        content: env.content,
        hop: env.hop,
        awaitingReply: env.awaitingReply,
        ...(env.coRecipients === undefined ? {} : { coRecipients: env.coRecipients }),
        ...(env.attachments === undefined ? {} : { attachments: env.attachments }),
      },
      roster,
      material: this.ctx.material(slot.id),
      budget: env.pool?.shared ?? null,
      folded: this.tree.isCut(env.id),
      context: this.roomContext(slot.id, roster.length > 0),
      conversation: slot.conversation(),
      ...(direct === undefined ? {} : { replyTo: direct.route }),
    }, direct?.transfer);
  }

  /** Room log (only for an agent that hears it) and presence notices from the ring, as of this delivery. */
  roomContext(agentId: string, hasRoster: boolean): RoomContext {
    const world = this.ctx.world();
    const ring = this.log.view();
    const hears = world.agents.find((a) => a.id === agentId)?.hearsRoomLog ?? false;
    const options = { window: ROOM_LOG_WINDOW, excerptChars: ROOM_LOG_EXCERPT_CHARS };
    return {
      roomLog: hears ? roomLogExcerpt(agentId, ring, options, this.endpointName(), world.language) : null,
      presence: presenceBlock(ring, hasRoster, world.language),
    };
  }

  /** Answers a worker's `room_log({id})` from the ring (the in-memory ring only, never the session store). */
  readRoomLog(agentId: string, id: string): RoomLogRead {
    return readRoomLog(agentId, id, this.log.view(), this.ctx.world().language, this.endpointName());
  }

  /** Endpoint labels as the sender envelope shows them (an agent deleted since shows as its id). */
  private endpointName(): EndpointName {
    const world = this.ctx.world();
    const nameOf = (id: string): string => world.agents.find((a) => a.id === id)?.name ?? id;
    return (endpoint) => senderLabel(endpoint, world.language, world.userName, nameOf);
  }

  /** Connected agents in order, with their live status; a deleted target shows as idle under its id. */
  roster(agentId: string): RosterEntry[] {
    const world = this.ctx.world();
    const spec = world.agents.find((a) => a.id === agentId);
    return (spec?.connectedAgents ?? []).map((id) => {
      const other = world.agents.find((a) => a.id === id);
      const role = other?.roleId == null ? null : (world.roles.find((r) => r.id === other.roleId)?.name ?? null);
      return { id, name: other?.name ?? id, roleName: role, status: this.ctx.slots.get(id)?.status ?? 'idle' };
    });
  }

  /** Routes an `ask_*` / plan task from a worker; `answer` posts the DeliveryResult back to it. */
  delegate(asker: AgentRuntime, msg: DelegateMessage, post: (result: DeliveryResult) => void): void {
    const parent = asker.inFlight;
    const language = this.ctx.world().language;
    const answer = (r: DeliveryResult): void => post(forAsker(r, language));
    if (parent === null || parent.id !== msg.envelopeId || this.tree.isCut(parent.id)) {
      return answer({ text: '', state: 'interrupted' });
    }
    if (parent.pool !== null && !parent.pool.hasRemaining()) {
      return answer({ text: '', state: 'budget_exhausted' });
    }
    const from: Endpoint = { kind: 'agent', id: asker.id };
    this.record(from, { kind: 'agent', id: msg.to }, msg.message, msg.hop);
    const child = this.envelope({
      parentId: parent.id,
      from,
      to: msg.to,
      content: msg.message,
      hop: msg.hop,
      awaitingReply: true,
      pool: parent.pool,
      rootId: parent.rootId,
      askedBy: { agentId: asker.id, requestId: msg.requestId },
    });
    try {
      this.deliver(child);
    } catch (error) {
      return answer({ text: undeliverableText(toWire(error).message, language), state: 'undeliverable' });
    }
    this.replies.open(child.id, msg.to, this.ctx.world().askTimeoutSecs * 1000, answer);
  }

  /** A turn ended: record the exchange and turn, then route the outcome. Clears `inFlight`. */
  turnDone(slot: AgentRuntime, env: Envelope, msg: TurnDoneMessage): void {
    const r = msg.result;
    const world = this.ctx.world();
    const answeredDirectly = this.ctx.direct?.answeredDirectly(env.id) === true;
    this.finish(slot, env);
    this.ctx.recorder.appendExchange(slot.id, r.exchange);
    slot.recordExchange(r.exchange, msg.turnSeq);
    for (const original of r.toolOriginals ?? []) this.ctx.recorder.appendToolOriginal?.(slot.id, original);
    this.ctx.recorder.appendTurn({
      agentId: slot.id,
      tsMs: this.ctx.now() - r.elapsedMs,
      hop: env.hop,
      rounds: r.rounds,
      waves: r.waves,
      stop: r.stop,
      prompt: r.spend.prompt,
      cached: r.spend.cached,
      completion: r.spend.completion,
      reasoning: r.spend.reasoning,
      cacheWrite: r.spend.cacheWrite,
      cacheWrite1h: r.spend.cacheWrite1h,
      model: this.modelOf(slot.id),
      backend: msg.backend,
      elapsedMs: r.elapsedMs,
    });
    // An asking worker may already hold this answer (direct channel): then the wait only closes, with no second post.
    const answer = answerOfTurn(r);
    if (answeredDirectly) this.replies.dismiss(env.id);
    else this.replies.resolve(env.id, answer);
    const stopped = r.stop.kind === 'interrupted' || r.stop.kind === 'budget_exhausted' || r.stop.kind === 'reserve_short';
    // Stopped is not a reply: the engine already wrote its System notice; the asker learned the state above.
    if (stopped) return;
    const nextHop = env.hop + 1;
    const tokens = r.spend.prompt + r.spend.completion;
    const me: Endpoint = { kind: 'agent', id: slot.id };
    // Search sources and thinking ride on the first outgoing message only, like the tokens.
    const notes = { ...(r.grounding === undefined ? {} : { grounding: r.grounding }), ...(r.reasoningSummary === undefined ? {} : { reasoningSummary: r.reasoningSummary }) };
    if (r.outcome.kind === 'finish') {
      const to: Endpoint = env.awaitingReply ? env.from : { kind: 'user' };
      this.record(me, to, r.outcome.text, nextHop, { tokens, ...notes });
      this.ctx.diag.note('reply', { agent: slot.id, to: endpointField(to), hop: nextHop, chars: r.outcome.text.length });
      return;
    }
    const { targets, message } = r.outcome;
    this.ctx.diag.note('handoff', { agent: slot.id, to: targets.join(','), hop: nextHop });
    const coRecipients = targets.length >= 2 ? { coRecipients: [...targets] } : {};
    const overLimit = nextHop >= world.maxHops;
    targets.forEach((target, i) => {
      this.record(me, { kind: 'agent', id: target }, message, nextHop, { tokens: i === 0 ? tokens : 0, ...coRecipients, ...(i === 0 ? notes : {}) });
    });
    if (overLimit) {
      this.ctx.emit({ type: 'hopLimitReached', agentId: slot.id, maxHops: world.maxHops });
      return;
    }
    for (const target of targets) {
      const next = this.envelope({
        parentId: null,
        from: me,
        to: target,
        content: message,
        hop: nextHop,
        awaitingReply: false,
        pool: env.pool,
        ...coRecipients,
      });
      try {
        this.deliver(next);
      } catch (error) {
        this.ctx.emit({ type: 'agentFailed', agentId: target, error: toWire(error) });
      }
    }
  }

  /** A turn failed with a coded error: its history note and its turn record (stop failed, what its calls cost). */
  recordFailedTurn(slot: AgentRuntime, env: Envelope, msg: TurnFailedMessage): void {
    this.ctx.recorder.appendExchange(slot.id, msg.exchange);
    slot.recordExchange(msg.exchange, msg.turnSeq);
    this.ctx.recorder.appendTurn({
      agentId: slot.id,
      tsMs: this.ctx.now() - msg.elapsedMs,
      hop: env.hop,
      rounds: msg.calls,
      waves: 0,
      stop: { kind: 'failed', code: msg.error.code },
      prompt: msg.spend.prompt,
      cached: msg.spend.cached,
      completion: msg.spend.completion,
      reasoning: msg.spend.reasoning,
      cacheWrite: msg.spend.cacheWrite,
      cacheWrite1h: msg.spend.cacheWrite1h,
      model: this.modelOf(slot.id),
      backend: msg.backend,
      elapsedMs: msg.elapsedMs,
    });
  }

  /** Ends the in-flight envelope of `slot` (done, folded, failed). */
  finish(slot: AgentRuntime, env: Envelope): void {
    if (slot.inFlight === env) slot.inFlight = null;
    this.ctx.direct?.finished(env.id);
    this.tree.remove(env.id);
    if (env.rootId === env.id) this.chains.end(env.id);
  }

  /** Resolves every queued envelope's waiter with `result` (stop, crash) and empties the mailbox. */
  dropQueued(slot: AgentRuntime, result: DeliveryResult): void {
    for (const env of slot.mailbox?.drain() ?? []) {
      this.replies.resolve(env.id, result);
      this.tree.remove(env.id);
      if (env.rootId === env.id) this.chains.end(env.id);
    }
  }

  private modelOf(agentId: string): string {
    const world = this.ctx.world();
    const spec = world.agents.find((a) => a.id === agentId);
    return world.modelTemplates.find((t) => t.id === spec?.modelTemplateId)?.model ?? '-';
  }
}
