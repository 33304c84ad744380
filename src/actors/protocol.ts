/**
 * The supervisor ↔ agent-worker wire: one tagged union per direction, types only (STYLE 3).
 *
 * Setup runs on `parentPort` (`init` → `ready`, STYLE 4); every other message travels on the private
 * `MessagePort` handed over in `init`. Encoding is plain structured clone: measured in
 * `bench/actors/wire.bench.mjs` against msgpackr (39 vs 53 µs p50 for a 2 KB envelope), and the budget pool's
 * SharedArrayBuffer has to ride a structured clone anyway.
 *
 * Every exchange with a reply that is not the mailbox path (main-thread tools, plan reviews, room-log reads,
 * interrupts) goes through comlink on the same private port (rpc.ts): one port keeps one order between a turn's
 * events and its calls. What this union carries is the data plane: delivery, the `delegate` round trip of
 * `ask_*`/`plan`, a turn's outcome, events and diag lines. Data messages always have a string `kind`; comlink's
 * never do, and each side's data handler skips them (`isDataMessage`).
 */
import type { MessagePort } from 'node:worker_threads';
import type { DiagNote } from '../core/diag.js';
import type { ErrorPayload } from '../core/errors.js';
import type { CoreEvent, PlanTaskState } from '../core/events.js';
import type { RunApprovalMode, ToolSpec } from '../core/tools/contract.js';
import type { CallRecord } from '../core/sessions/records.js';
import type {
  DeliveryResult,
  Exchange,
  IncomingEnvelope,
  PromptMaterial,
  RoomContext,
  RosterEntry,
  TurnResult,
  TurnSpend,
} from '../core/turn/ports.js';
import type { AgentSpec, Language, ModelTemplate } from '../core/world/types.js';

/**
 * Bumped on any incompatible change of either union. 1: first version. 2: plan review (init.planReview,
 * reviewPlan/reviewDecision). 3: external (MCP) tools (init.externalTools, toolCall/toolResult/toolCancel).
 * 4: room log (deliver.context, roomLogRead/roomLogResult). 5: request/reply moves to comlink on the same port
 * (toolCall, reviewPlan, roomLogRead and interrupt with their answers leave this union). 6: usage (callUsage;
 * turnFailed carries the spend). 7: worker posts travel as batches (`WorkerBatch`), an ask's answer may come
 * straight from the target's worker (`peer`, `deliver.replyTo`, `DirectReply`), interrupts are plain messages again.
 * 8: Jev (init.jev: the helper model's settings and token). 9: the conversation lives on the main thread
 * (agentRuntime.ts): `deliver.conversation` carries the history window and summary, init carries neither; `settings`
 * changes a running worker's agent and template from its next turn.
 */
export const PROTOCOL_VERSION = 9;

/** How `planReview` waves are handled in this village run. */
export type PlanReviewMode = 'ask' | 'bypass' | 'unavailable';

/** Setup message on parentPort: everything the worker needs, already validated on the main thread. */
export interface InitMessage {
  kind: 'init';
  protocolVersion: number;
  agent: AgentSpec;
  template: ModelTemplate;
  language: Language;
  maxHops: number;
  /** Only this agent's template API key (null when the credential is not required). */
  apiKey: string | null;
  /** `strict`: a broken template fails the turn (LLM_CONFIG); `echoOnFailure`: an echo stands in (GUI). */
  backendMode: 'strict' | 'echoOnFailure';
  workspaceDir: string;
  runApproval: RunApprovalMode;
  /** Cost of the previous call (milli effective tokens); 0 after a fresh start. */
  lastCallMilli: number;
  /**
   * `ask`: a reviewer (the GUI) is attached, so `planReview` waves wait for a decision; `bypass`: headless
   * `--bypass-plan-review`, waves go straight out; `unavailable`: nobody can review, such waves are refused.
   */
  planReview: PlanReviewMode;
  /** Tools that live on the main thread (MCP, shared + this agent's), already named `{server}__{tool}`. */
  externalTools: ToolSpec[];
  /** Village-wide plan id counter (one Int32 slot), so plan ids stay unique across agents' workers. */
  planIds: SharedArrayBuffer;
  /** The private port (transferred): the data plane, and comlink calls in both directions (rpc.ts). */
  port: MessagePort;
  /** The helper model (Jev) as the shelf had it when this agent started; null = no Jev configured in this run. */
  jev: JevInit | null;
  /**
   * Load the engine, backends and tools right after `init` instead of at the first delivery: set for the reception
   * of a one-shot `ask`, whose request comes next (its first turn then does not pay the load while others still boot).
   */
  loadEngineAtStart: boolean;
}

/** Jev for one worker: the settings, and the token only when stored (null = the judge explains it is missing). */
export interface JevInit {
  settings: import('../core/jev/jevSettings.js').JevSettings;
  token: string | null;
}

/** One envelope to handle. `folded` = its causal parent was cut while it sat in the mailbox. */
export interface DeliverMessage {
  kind: 'deliver';
  /** Causal/cancel id of this envelope; `interrupt` names it. */
  envelopeId: string;
  envelope: IncomingEnvelope;
  roster: RosterEntry[];
  material: PromptMaterial;
  /** The causal root's budget pool (BudgetPool.shared); null when the village has no ceiling. */
  budget: SharedArrayBuffer | null;
  folded: boolean;
  /** Room log excerpt (only for agents that hear it) and presence notices, computed from the ring at delivery. */
  context: RoomContext;
  /** Someone's `ask_*`/plan task waits for this turn: answer it on the direct channel too (directReplies.ts). */
  replyTo?: ReplyRoute;
  /** The agent's conversation as of this delivery (its owner is the main thread's AgentRuntime). */
  conversation: ConversationView;
}

/** The history window (oldest first) and newest summary a turn is sent. */
export interface ConversationView {
  history: Exchange[];
  summary: string | null;
}

/** New agent settings (model template, tools, instructions…): the worker uses them from its next turn on. */
export interface SettingsMessage {
  kind: 'settings';
  agent: AgentSpec;
  template: ModelTemplate;
  language: Language;
  maxHops: number;
  apiKey: string | null;
}

/** Where a delivered ask's answer goes straight back to the asking worker. */
export interface ReplyRoute {
  /** The asker↔target channel (numbered by the supervisor). */
  channel: number;
  /** The asker's `delegate.requestId`. */
  requestId: number;
  /** The target's end of the channel, only on the first delivery over it (transferred). */
  port?: MessagePort;
}

/** On a direct channel, target → asker: the same answer the supervisor would route, without its hop. */
export interface DirectReply {
  kind: 'directReply';
  requestId: number;
  /** The answered envelope (the asker names it in its next batch's `after`). */
  envelopeId: string;
  result: DeliveryResult;
}

/** The asker's end of a new direct channel (transferred). */
export interface PeerMessage {
  kind: 'peer';
  port: MessagePort;
}

/** Cut the turn handling `envelopeId` if it is the one in flight; answered by `interruptAck` with the same id. */
export interface InterruptMessage {
  kind: 'interrupt';
  id: number;
  envelopeId: string;
}

/** The answer to a `delegate` request. */
export interface DelegateResultMessage {
  kind: 'delegateResult';
  requestId: number;
  result: DeliveryResult;
}

/** Finish the turn in flight (already interrupted by the supervisor), then close and exit. */
export interface StopMessage {
  kind: 'stop';
}

/** Main → worker, data plane. */
export type ToWorker = DeliverMessage | DelegateResultMessage | StopMessage | PeerMessage | InterruptMessage | SettingsMessage;

/** Worker → main on parentPort, answering `init`. */
export interface ReadyMessage {
  kind: 'ready';
  protocolVersion: number;
}

export interface EventMessage {
  kind: 'event';
  event: CoreEvent;
}

/** A batch of diagnostic notes (flushed once per microtask turn). */
export interface DiagMessage {
  kind: 'diag';
  notes: DiagNote[];
}

/** `ask_*` or one `plan` task: route `message` to `to` and answer with `delegateResult`. */
export interface DelegateMessage {
  kind: 'delegate';
  requestId: number;
  /** The asking turn's envelope: the new envelope becomes its causal child. */
  envelopeId: string;
  delegation: 'ask' | 'plan-task';
  to: string;
  message: string;
  /** Hop of the delivered envelope (asker hop + 1). */
  hop: number;
}

/** A turn ended (completed, interrupted, budget stop…). The supervisor records and routes the outcome. */
export interface TurnDoneMessage {
  kind: 'turnDone';
  envelopeId: string;
  turnSeq: number;
  result: TurnResult;
  /** `backend.name` of the call path, for the turn record. */
  backend: string;
}

/** A queued envelope was folded: no LLM call, no history, reply `interrupted`. */
export interface TurnFoldedMessage {
  kind: 'turnFolded';
  envelopeId: string;
}

/** The turn threw an expected (coded) error. The exchange holds the failure note for history. */
export interface TurnFailedMessage {
  kind: 'turnFailed';
  envelopeId: string;
  turnSeq: number;
  error: ErrorPayload;
  exchange: Exchange;
  /** What the turn's calls cost before it failed (paid failures included), for the turn record and counters. */
  spend: TurnSpend;
  /** Calls made (each paid or unpaid call of the turn). */
  calls: number;
  elapsedMs: number;
  /** `backend.name` of the call path ('-' when no backend was made), for the turn record. */
  backend: string;
}

/** One LLM call ended (paid or not): the main thread appends its `call` record. */
export interface CallUsageMessage {
  kind: 'callUsage';
  call: CallRecord;
}

/** A System→User notice line (budget stop, interruption): recorded, never delivered. */
export interface NoticeMessage {
  kind: 'notice';
  text: string;
}

/** `interrupt` answered: `cut` = a turn was in flight for that envelope and is now aborted. */
export interface InterruptAckMessage {
  kind: 'interruptAck';
  id: number;
  cut: boolean;
}

/** Worker → main, data plane. */
export type FromWorker =
  | CallUsageMessage
  | InterruptAckMessage
  | EventMessage
  | DiagMessage
  | DelegateMessage
  | TurnDoneMessage
  | TurnFoldedMessage
  | TurnFailedMessage
  | NoticeMessage;

/**
 * What a worker actually posts to the main thread: its messages since the last post, in order (one structured clone
 * and one wake-up instead of one per event, diag line and outcome). `after`: envelopes whose answers this worker took
 * on a direct channel since its last post; the supervisor holds this batch until it has recorded those answers, so
 * records keep their causal order.
 */
export interface WorkerBatch {
  kind: 'batch';
  items: FromWorker[];
  after?: string[];
}

/** True for a data-plane message; false for comlink's own traffic on the same port. */
export function isDataMessage(value: unknown): value is ToWorker | FromWorker | WorkerBatch {
  return typeof (value as { kind?: unknown } | null)?.kind === 'string';
}

/** The reply state a folded or lost envelope resolves to. */
export type LostReplyState = Extract<PlanTaskState, 'interrupted' | 'no_answer' | 'undeliverable'>;
