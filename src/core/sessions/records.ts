/**
 * Session records: the closed set of things a village conversation stores (tag `kind`), plus the
 * read-side check that turns whatever bytes come back from disk into a trusted record or a counted skip.
 *
 * Validation is hand-written rather than zod so this file stays importable from anywhere (workers
 * included) and costs nothing on the append path; the store only validates on read.
 */
import type { AgentMessage, Endpoint, TurnStop } from '../events.js';

/**
 * Schema version written into every record (`v`). Newer builds read every older version; a record with a
 * higher version than this build knows is skipped and counted, never a crash.
 *   v1 — message / exchange / summary / turn, as the original's Spec 12 + Spec 39 records (no cacheWrite1h).
 *   v2 — `call` (one per LLM call: agent, template, model, usage, latency, outcome); `turn` gains cacheWrite1h
 *        (a v1 turn reads with cacheWrite1h 0, which for those records means "not recorded");
 *        `toolResult` (the original of a tool result the agent saw compressed by Jev).
 */
export const CURRENT_RECORD_VERSION = 2;

/** The record kinds, closed. */
export const RECORD_KINDS = ['message', 'exchange', 'summary', 'turn', 'call', 'toolResult'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** Per-turn usage as settled by the turn driver. Token fields are token counts; times are epoch / elapsed ms. */
export interface TurnRecord {
  agentId: string;
  /** Turn start, epoch ms. */
  tsMs: number;
  hop: number;
  rounds: number;
  waves: number;
  stop: TurnStop;
  prompt: number;
  cached: number;
  /** total − prompt, subtracted once by the writer. */
  completion: number;
  /** Subset of completion. */
  reasoning: number;
  /** Subset of prompt, disjoint from cached. */
  cacheWrite: number;
  /** Subset of cacheWrite written with the 1-hour TTL (v2; 0 in v1 records = not recorded). */
  cacheWrite1h: number;
  model: string;
  backend: string;
  elapsedMs: number;
}

/** Why an LLM call was made: a round of a turn, the wrap-up after a cut turn, or "summarize and continue". */
export const CALL_PURPOSES = ['turn', 'wrap_up', 'summarize', 'judge', 'compress'] as const;
export type CallPurpose = (typeof CALL_PURPOSES)[number];

/** How one LLM call ended. Tag `kind`; `failed` carries the error code (a truncated output is paid and failed). */
export type CallOutcome = { kind: 'ok' } | { kind: 'failed'; code: string } | { kind: 'interrupted' };

/** One LLM call as billed (tokens) and timed (ms). Token fields follow TurnRecord's rules. */
export interface CallRecord {
  agentId: string;
  templateId: string;
  model: string;
  backend: string;
  purpose: CallPurpose;
  /** Call start, epoch ms. */
  tsMs: number;
  latencyMs: number;
  outcome: CallOutcome;
  prompt: number;
  cached: number;
  cacheWrite: number;
  cacheWrite1h: number;
  completion: number;
  reasoning: number;
  /** The wire reported no usage: prompt and completion are the bytes/4 estimate the budget charged. */
  estimated: boolean;
}

/** A record body as callers hand it to `append` (the store adds `v`). */
export type SessionRecordBody =
  | { kind: 'message'; message: AgentMessage }
  | { kind: 'exchange'; agentId: string; sent: string; replied: string }
  | { kind: 'summary'; agentId: string; text: string; coversUpToSeq: number }
  | ({ kind: 'turn' } & TurnRecord)
  | ({ kind: 'call' } & CallRecord)

  | { kind: 'toolResult'; agentId: string; tool: string; round: number; original: string; compressedChars: number };

/** A record as stored: the body plus its schema version. */
export type SessionRecord = SessionRecordBody & { v: number };

/** A record read back with its per-session sequence number (0-based, monotonic). */
export type SeqRecord = SessionRecord & { seq: number };

/** Why a stored value was not accepted. */
export type RejectReason = 'future_version' | 'malformed';

export type RecordCheck = { ok: true; record: SessionRecord } | { ok: false; reason: RejectReason };

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function isStr(value: unknown): value is string {
  return typeof value === 'string';
}
/** Counts and times: finite, non-negative numbers. */
function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isEndpoint(value: unknown): value is Endpoint {
  if (!isObj(value)) return false;
  switch (value.kind) {
    case 'user':
    case 'system':
      return true;
    case 'agent':
      return isStr(value.id);
    case 'external':
      return isStr(value.client);
    default:
      return false;
  }
}

function isMessage(value: unknown): value is AgentMessage {
  if (!isObj(value)) return false;
  if (!isStr(value.id) || !isStr(value.content)) return false;
  if (!isEndpoint(value.from) || !isEndpoint(value.to)) return false;
  if (!isCount(value.tokens) || !isCount(value.tsMs) || !isCount(value.hop)) return false;
  const co = value.coRecipients;
  return co === undefined || (Array.isArray(co) && co.every(isStr));
}

function isTurnStop(value: unknown): value is TurnStop {
  if (!isObj(value)) return false;
  switch (value.kind) {
    case 'completed':
    case 'tool_limit':
    case 'interrupted':
    case 'budget_exhausted':
    case 'reserve_short':
      return true;
    case 'repeat':
      return isStr(value.tool);
    case 'failed':
      return isStr(value.code);
    default:
      return false;
  }
}

function isCallOutcome(value: unknown): value is CallOutcome {
  if (!isObj(value)) return false;
  if (value.kind === 'ok' || value.kind === 'interrupted') return true;
  return value.kind === 'failed' && isStr(value.code);
}

const CALL_COUNTS = ['tsMs', 'latencyMs', 'prompt', 'cached', 'cacheWrite', 'cacheWrite1h', 'completion', 'reasoning'] as const;

const TURN_COUNTS = [
  'tsMs',
  'hop',
  'rounds',
  'waves',
  'prompt',
  'cached',
  'completion',
  'reasoning',
  'cacheWrite',
  'elapsedMs',
] as const;

function isBody(value: Obj): boolean {
  switch (value.kind) {
    case 'message':
      return isMessage(value.message);
    case 'exchange':
      return isStr(value.agentId) && isStr(value.sent) && isStr(value.replied);
    case 'summary':
      return isStr(value.agentId) && isStr(value.text) && isCount(value.coversUpToSeq);
    case 'toolResult':
      return isStr(value.agentId) && isStr(value.tool) && isStr(value.original) && isCount(value.round) && isCount(value.compressedChars);
    case 'turn':
      return (
        isStr(value.agentId) &&
        isStr(value.model) &&
        isStr(value.backend) &&
        isTurnStop(value.stop) &&
        TURN_COUNTS.every((key) => isCount(value[key])) &&
        (value.cacheWrite1h === undefined || isCount(value.cacheWrite1h))
      );
    case 'call':
      return (
        [value.agentId, value.templateId, value.model, value.backend].every(isStr) &&
        (CALL_PURPOSES as readonly unknown[]).includes(value.purpose) &&
        isCallOutcome(value.outcome) &&
        typeof value.estimated === 'boolean' &&
        CALL_COUNTS.every((key) => isCount(value[key]))
      );
    default:
      return false;
  }
}

/**
 * Checks one stored value. A version above CURRENT_RECORD_VERSION is `future_version` even when its shape
 * happens to parse (its meaning may have changed); anything else that does not match is `malformed`.
 */
export function checkRecord(value: unknown): RecordCheck {
  if (!isObj(value)) return { ok: false, reason: 'malformed' };
  const v = value.v;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return { ok: false, reason: 'malformed' };
  if (v > CURRENT_RECORD_VERSION) return { ok: false, reason: 'future_version' };
  if (!isBody(value)) return { ok: false, reason: 'malformed' };
  // v1 had no `call` kind and no 1-hour write on turns.
  if (v === 1 && value.kind === 'call') return { ok: false, reason: 'malformed' };
  if (value.kind === 'turn' && value.cacheWrite1h === undefined) return { ok: true, record: { ...value, cacheWrite1h: 0 } as SessionRecord };
  return { ok: true, record: value as SessionRecord };
}

/** Stamps a body with the current schema version (the only way records are written). */
export function stampRecord(body: SessionRecordBody): SessionRecord {
  return { ...body, v: CURRENT_RECORD_VERSION };
}

/** Counts of values skipped on read, by reason (drops are always counted, never silent). */
export interface SkipCounts {
  futureVersion: number;
  malformed: number;
}

export function emptySkipCounts(): SkipCounts {
  return { futureVersion: 0, malformed: 0 };
}

export function countSkip(counts: SkipCounts, reason: RejectReason): void {
  if (reason === 'future_version') counts.futureVersion += 1;
  else counts.malformed += 1;
}
