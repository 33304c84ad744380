/**
 * The seam between the turn engine and whatever drives it: an in-process harness in tests, an agent worker
 * under the supervisor in production. Types only, so a worker imports it for free.
 *
 * The engine reaches other agents only through `TurnPorts`; it never records or routes its own reply —
 * it returns a `TurnResult` and the driver records, replies or fans out (SPEC §4, reference core.md §2.4–§2.5).
 */
import type { AgentMessage, AgentStatus, CoreEvent, Endpoint, PlanTaskState, TurnStop } from '../events.js';
import type { DiagSink } from '../diag.js';
import type { RoomLogRead } from './roomLog.js';
import type { CallRecord } from '../sessions/records.js';
import type { ScanRunner } from '../tools/scan/scanJob.js';
import type { Grounding, LlmBackend, PromptAttachment, StreamDelta } from '../llm/canonical.js';
import type { RunApprovalMode, ToolBox } from '../tools/contract.js';
import type { AgentSpec, Language, ModelTemplate } from '../world/types.js';

/** A shared, thread-safe budget pool of one causal root, in milli effective tokens. */
export interface BudgetGate {
  readonly ceilingMilli: number;
  remainingMilli(): number;
  /** Reserves `estimateMilli`, or returns null when it does not fit (the caller decides exhausted vs short). */
  tryReserve(estimateMilli: number): Reservation | null;
  /** True exactly once per pool: whoever gets true writes the one System notice of the root. */
  noteExhausted(): boolean;
}

export interface Reservation {
  /** Settles at the actual cost: debits or credits the difference (credit capped at the ceiling). */
  commit(actualMilli: number): void;
  /** Gives the whole reservation back (the call never happened or failed unpaid). */
  refund(): void;
}

export interface DeliveryRequest {
  to: string;
  message: string;
  /** Hop of the delivered envelope (parent hop + 1). */
  hop: number;
}

export interface DeliveryResult {
  text: string;
  state: PlanTaskState;
}

export interface HandoffRequest {
  targets: string[];
  message: string;
  hop: number;
}

/** A `plan` wave of a `planReview` agent, held before delivery until a person decides (issue 8). */
export interface PlanReviewRequest {
  planId: number;
  agentId: string;
  wave: number;
  tasks: Array<{ to: string; message: string }>;
}

export type PlanReviewDecision = { kind: 'approved' } | { kind: 'rejected'; note: string | null };

export interface TurnPorts {
  /** `ask_*` and each `plan` task: deliver and wait for the answer. Never throws; the outcome is the state. */
  deliverAndWait(request: DeliveryRequest, signal: AbortSignal): Promise<DeliveryResult>;
  /** Pushes a System→User notice line (budget stop, interruption); recorded only, never delivered. */
  notice(text: string): void;
  emit(event: CoreEvent): void;
  diag: DiagSink;
  /**
   * Holds a `planReview` agent's wave until a person approves or rejects it (no delivery, no tokens meanwhile).
   * Absent when nobody can review (headless): such a wave is refused unless `TurnInput.bypassPlanReview`.
   */
  reviewPlan?(request: PlanReviewRequest, signal: AbortSignal): Promise<PlanReviewDecision>;
  /**
   * `room_log({id})`: looks the id up in the supervisor's message ring for this agent. Absent = no ring
   * (then the tool is not offered even when the agent hears the room log).
   */
  readRoomLog?(id: string): Promise<RoomLogRead>;
  /** One LLM call of this turn ended (paid or not): its `call` record. Absent = calls are not recorded. */
  reportCall?(call: CallRecord): void;
  /** Runs grep/fd/diff scanning on the process's shared pool; absent = tools scan in this thread. */
  scan?: ScanRunner;
  /**
   * A piece of a streamed reply of round `round` (1-based). Absent = nobody shows replies as they arrive.
   * The driver coalesces pieces before they cross a thread; tool calls never come this way.
   */
  streamDelta?(round: number, delta: StreamDelta): void;
}

/** Volatile context the driver computed at delivery from its message ring (null = nothing to show). */
export interface RoomContext {
  /** The overheard block; folded only when the agent `hearsRoomLog`. */
  roomLog: string | null;
  /** Presence notices (System→User lines); folded regardless of `hearsRoomLog`. */
  presence: string | null;
}

/** One other agent as the roster shows it. */
export interface RosterEntry {
  id: string;
  name: string;
  roleName: string | null;
  status: AgentStatus;
}

/** Files that compose the system prompt (missing = ""). */
export interface PromptMaterial {
  ordinance: string;
  construct: string;
  skill: string;
  memory: string;
}

/** One stored history pair: exactly the folded user turn sent and what the agent replied. */
export interface Exchange {
  sent: string;
  replied: string;
}

/** The message being handled. */
export interface IncomingEnvelope {
  from: Endpoint;
  /** Display label of the sender (user name, agent display name, external client label). */
  fromLabel: string;
  content: string;
  hop: number;
  /** True when someone waits for the answer (ask, plan task, external ask): such a turn never transfers. */
  awaitingReply: boolean;
  coRecipients?: string[];
  /** Files sent with this message (bodies in base64); they ride on this turn's user message only, never in history. */
  attachments?: PromptAttachment[];
}

export interface TurnInput {
  agent: AgentSpec;
  template: ModelTemplate;
  language: Language;
  /** Connected agents in `connectedAgents` order; a deleted target has status 'idle' and name = id. */
  roster: RosterEntry[];
  maxHops: number;
  material: PromptMaterial;
  /** Oldest first; the engine keeps the last 8. */
  history: Exchange[];
  /** The newest summary of this agent's folded history; composed into the system prompt's volatile part. */
  summary: string | null;
  envelope: IncomingEnvelope;
  turnSeq: number;
  /** Cost of the previous call of this agent (budget estimate floor/ceiling applies). */
  lastCallMilli: number;
  workspaceDir: string;
  runApproval: RunApprovalMode;
  /** Headless `--bypass-plan-review`: this run lets `planReview` waves through without asking anyone. */
  bypassPlanReview?: boolean;
  /** Room log and presence notices at delivery; absent = none (in-process harnesses). */
  context?: RoomContext;
}

export interface TurnDeps {
  backend: LlmBackend;
  tools: ToolBox;
  ports: TurnPorts;
  /** Null when the village has no token ceiling. */
  budget: BudgetGate | null;
  /** Aborted by interrupt_turn / interrupt_all / stop; checked at round boundaries. */
  signal: AbortSignal;
  now(): number;
  /** Allocates plan ids (from 1, per engine instance); when absent the engine uses a per-thread counter. */
  allocatePlanId?(): number;
  /** The helper model (Jev): the judge tool and tool-result compression. Absent = no Jev in this run. */
  jev?: import('../jev/helperPort.js').JevDeps;
}

export type TurnOutcome =
  | { kind: 'finish'; text: string }
  | { kind: 'handoff'; targets: string[]; message: string };

/** Everything a turn cost (effective milli-tokens are derived from these). */
export interface TurnSpend {
  prompt: number;
  cached: number;
  cacheWrite: number;
  /** Part of cacheWrite written with the 1-hour TTL. */
  cacheWrite1h: number;
  completion: number;
  reasoning: number;
  effectiveMilli: number;
}

export interface TurnResult {
  outcome: TurnOutcome;
  /** What the waiting asker receives: answered / handed_off / interrupted / budget_exhausted. */
  replyState: PlanTaskState;
  /**
   * The text a waiting asker receives: the reply for a finish, a "passed to X, no answer will come back"
   * text for a handoff, a short note for interrupted / budget_exhausted.
   */
  replyText: string;
  stop: TurnStop;
  /** Stored as history (never empty on either side). */
  exchange: Exchange;
  rounds: number;
  waves: number;
  spend: TurnSpend;
  lastCallMilli: number;
  elapsedMs: number;
  /** Provider-side search of this turn (queries, sources), for the first outgoing message. */
  grounding?: Grounding;
  /** The model's thinking summaries of this turn, shown apart from the reply. */
  reasoningSummary?: string[];
  /** Tool results the agent saw compressed; the driver records each original (session record `toolResult`). */
  toolOriginals?: import('../jev/helperPort.js').ToolOriginal[];
}

/** A recorded message as the driver writes it (supervisor or harness). */
export type RecordedMessage = AgentMessage;
