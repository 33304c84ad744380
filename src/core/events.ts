/**
 * The CoreEvent wire and the domain nouns it carries. Plain data only: events cross threads and go out as
 * JSONL (`--events jsonl`), to the GUI and to tests unchanged. camelCase fields, `type` tag, snake_case values.
 */
import type { ErrorPayload } from './errors.js';
import type { AttachmentMediaType, Grounding } from './llm/canonical.js';

export const AGENT_STATUSES = ['idle', 'starting', 'running', 'stopping', 'failed'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** Who sent a message. Tag `kind`. */
export type Endpoint =
  | { kind: 'user' }
  | { kind: 'system' }
  | { kind: 'agent'; id: string }
  | { kind: 'external'; client: string };

/** One recorded message (the log ring, sessions, `messageSent`). */
export interface AgentMessage {
  /** uuid v4 */
  id: string;
  from: Endpoint;
  to: Endpoint;
  content: string;
  /** Effective turn total for the first outgoing message of a turn, else 0. */
  tokens: number;
  tsMs: number;
  hop: number;
  coRecipients?: string[];
  /** A provider-side search behind this reply: what it looked up and the sources it used. */
  grounding?: Grounding;
  /** The model's thinking summaries for this reply (shown as thinking, never as the answer). */
  reasoningSummary?: string[];
  /** Files the person sent with this message (stored under workspace/attachments/). */
  attachments?: AttachmentRef[];
}

/** A stored attachment as a message names it; the bytes live in `workspace/attachments/{id}.{ext}`. */
export interface AttachmentRef {
  /** uuid v4 */
  id: string;
  mediaType: AttachmentMediaType;
  fileName: string;
  bytes: number;
}

/** Outcome of every delivery (ask, plan task, external ask). Expected values, never thrown. */
export const PLAN_TASK_STATES = [
  'running',
  'answered',
  'handed_off',
  'undeliverable',
  'no_answer',
  'timed_out',
  'interrupted',
  'budget_exhausted',
] as const;
export type PlanTaskState = (typeof PLAN_TASK_STATES)[number];

/** Why a turn stopped. Tag `kind`. */
export type TurnStop =
  | { kind: 'completed' }
  | { kind: 'repeat'; tool: string }
  | { kind: 'tool_limit' }
  | { kind: 'failed'; code: string }
  | { kind: 'interrupted' }
  | { kind: 'budget_exhausted' }
  | { kind: 'reserve_short' };

/** The log/record label of a TurnStop (`-`, `repeat:<tool>`, `failed:<CODE>`, …). */
export function turnStopLabel(stop: TurnStop): string {
  switch (stop.kind) {
    case 'completed':
      return '-';
    case 'repeat':
      return `repeat:${stop.tool}`;
    case 'failed':
      return `failed:${stop.code}`;
    default:
      return stop.kind;
  }
}

/** What the model said about why it called a tool. Tag `kind`. */
export type ReasonState =
  | { kind: 'written'; text: string }
  | { kind: 'omitted' }
  | { kind: 'unsupported' }
  | { kind: 'excluded' };

export interface PlanTaskBrief {
  to: string;
  msgChars: number;
}

/** One task of a wave waiting for review: the GUI shows the whole message so a person can judge it. */
export interface PlanReviewTask {
  to: string;
  message: string;
}

export type CoreEvent =
  | { type: 'agentStatusChanged'; agentId: string; status: AgentStatus }
  | {
      type: 'agentStatsUpdated';
      agentId: string;
      uptimeSecs: number;
      totalTokens: number;
      promptTokens: number;
      cachedTokens: number;
    }
  | { type: 'messageSent'; message: AgentMessage }
  | { type: 'topologyChanged' }
  | { type: 'agentFailed'; agentId: string; error: ErrorPayload }
  | { type: 'backendDegraded'; modelTemplateId: string; reason: string }
  | { type: 'conversationCleared' }
  | { type: 'sessionSwitched'; sessionId: string }
  | { type: 'turnRecorded'; agentId: string; sessionId: string }
  | { type: 'agentTyping'; agentId: string; active: boolean }
  /**
   * A piece of a reply as it streams in (coalesced by the worker): `text` of the answer, `thinking`, or `restart`
   * (a retried call begins: drop what this round showed). A new round or turn replaces what was shown before.
   */
  | { type: 'textDelta'; agentId: string; turnSeq: number; round: number; kind: 'text' | 'thinking' | 'restart'; text: string }
  /**
   * A tool call ended. `args`: the call's arguments as JSON text, cut to TOOL_ARGS_EVENT_MAX chars (what eval
   * cases match arguments against; absent in events from older builds).
   */
  | { type: 'toolInvoked'; agentId: string; tool: string; ok: boolean; reason: ReasonState; args?: string }
  | { type: 'toolLimitReached'; agentId: string; maxIterations: number }
  | { type: 'toolRepeatBlocked'; agentId: string; tool: string; repeats: number }
  | { type: 'turnInterrupted'; agentId: string; turnSeq: number }
  | { type: 'hopLimitReached'; agentId: string; maxHops: number }
  | {
      type: 'planWaveStarted';
      planId: number;
      agentId: string;
      wave: number;
      tasks: PlanTaskBrief[];
      startedAtMs: number;
    }
  | { type: 'planReviewRequested'; planId: number; agentId: string; wave: number; tasks: PlanReviewTask[] }
  | { type: 'planReviewResolved'; planId: number; agentId: string; approved: boolean }
  | { type: 'planTaskResolved'; planId: number; to: string; state: PlanTaskState; elapsedMs: number }
  | { type: 'planWaveFinished'; planId: number; bundleChars: number; elapsedMs: number };

export type CoreEventType = CoreEvent['type'];

/** The longest `toolInvoked.args` text (chars): enough for the arguments a case matches, never a whole file written. */
export const TOOL_ARGS_EVENT_MAX = 2_000;

/** Event name → payload, so a bus can type `on('agentFailed', e => …)`. */
export type CoreEventMap = { [K in CoreEventType]: Extract<CoreEvent, { type: K }> };

/** The list of event types, for the contract test and for consumers that validate the wire. */
export const CORE_EVENT_TYPES = [
  'agentStatusChanged',
  'agentStatsUpdated',
  'messageSent',
  'topologyChanged',
  'agentFailed',
  'backendDegraded',
  'conversationCleared',
  'sessionSwitched',
  'turnRecorded',
  'agentTyping',
  'textDelta',
  'toolInvoked',
  'toolLimitReached',
  'toolRepeatBlocked',
  'turnInterrupted',
  'hopLimitReached',
  'planWaveStarted',
  'planReviewRequested',
  'planReviewResolved',
  'planTaskResolved',
  'planWaveFinished',
] as const satisfies readonly CoreEventType[];

/** Compile-time check that CORE_EVENT_TYPES covers the whole union. */
type MissingEventTypes = Exclude<CoreEventType, (typeof CORE_EVENT_TYPES)[number]>;
const _allEventTypesListed: MissingEventTypes extends never ? true : never = true;
void _allEventTypesListed;

export function assertNever(value: never): never {
  throw new Error(`unexpected variant: ${JSON.stringify(value)}`);
}
