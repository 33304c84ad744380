/**
 * The "summarize and continue" call between the main thread and an agent worker (types only): the worker runs
 * one no-tools call with its own backend over the exchanges it is given; folding the window is the main thread's
 * (agentRuntime.ts owns the conversation).
 */
import type { ErrorPayload } from '../core/errors.js';
import type { CallRecord } from '../core/sessions/records.js';
import type { Exchange } from '../core/turn/ports.js';

/** What to summarize. */
export interface SummaryCallRequest {
  /** The exchanges to fold, read from the session store; null = the agent's own history window (no store). */
  history: Exchange[] | null;
  /** The summary being replaced (with `history`); null with a null history = the agent's own. */
  previous: string | null;
  /** The worker's turn number of the newest exchange recorded before the boundary: turns up to it are folded. */
  throughTurnSeq: number;
}

/** How the call ended. `call` is its usage record (also for a failure: what the provider saw). */
export type SummaryCallReply =
  | { kind: 'nothing' }
  | {
      kind: 'done';
      text: string;
      /** False for an empty summary: nothing was folded. */
      folded: boolean;
      foldedMsgs: number;
      foldedChars: number;
      unread: number;
      call: CallRecord;
    }
  /** `call` is null when no request went out (the backend could not be made). */
  | { kind: 'failed'; error: ErrorPayload; call: CallRecord | null };
