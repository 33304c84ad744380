/**
 * Request/reply between an agent worker and the main thread, over comlink (`expose`/`wrap` with comlink's Node
 * adapter on the worker's dedicated MessagePort). Both sides expose an API on that port, and the data plane
 * shares it: comlink's `expose` ignores replies and data messages, `wrap` ignores requests and data messages,
 * and data handlers skip comlink's messages. One port, one order: a `planReviewRequested` event is seen before
 * its review is held, and an interrupt never overtakes the delivery it names.
 *
 * What stays plain messages (protocol.ts): mailbox delivery, a turn's outcome, events and diag lines, the
 * `delegate` round trip of `ask_*`/`plan` (the mailbox hot path) and interrupts (fanned out to every agent at once);
 * measured in bench/actors/rpc.bench.mjs and actors.bench.mjs.
 *
 * Errors: a thrown FuseforksError crosses as one (code, message, fix, details intact) through a replacement of
 * comlink's `throw` transfer handler; anything else keeps comlink's own handling (message and name only).
 */
import { expose, transferHandlers, wrap, type Remote, type TransferHandler } from 'comlink';
import nodeEndpoint, { type NodeEndpoint } from 'comlink/dist/esm/node-adapter.mjs';
import { fromWire, isErrorCode, isFuseforksError, toWire, type ErrorPayload, type FuseforksError } from '../core/errors.js';
import type { ToolReply } from '../core/tools/contract.js';
import type { ScanJob, ScanOutput } from '../core/tools/scan/scanJob.js';
import type { PlanReviewDecision, PlanReviewRequest } from '../core/turn/ports.js';
import type { RoomLogRead } from '../core/turn/roomLog.js';
import type { SummaryCallReply, SummaryCallRequest } from './summaryCall.js';

/** What an agent worker calls on the main thread (one instance per agent, bound to its slot). */
export interface MainSide {
  /** Runs a main-thread (MCP) tool. Tool failures come back as `{ body, ok: false }`; a coded error is thrown. */
  callTool(callId: number, name: string, args: Record<string, unknown>): Promise<ToolReply>;
  /** Runs a grep/fd/diff scanning job on the process's shared pool (COMPUTE_BUSY when its queue is full). */
  scan(callId: number, job: ScanJob): Promise<ScanOutput>;
  /** The worker stopped waiting for `callId` (interrupt): abort it where it runs. */
  cancel(callId: number): void;
  /** Holds a `planReview` wave until a person decides. */
  reviewPlan(request: PlanReviewRequest): Promise<PlanReviewDecision>;
  /** The worker stopped waiting for a review (interrupt): forget the held wave. */
  withdrawReview(planId: number): void;
  /** `room_log({id})` from the supervisor's ring. */
  readRoomLog(id: string): RoomLogRead;
}

/** What the main thread calls on an agent worker (interrupts are plain messages: protocol.ts InterruptMessage). */
export interface WorkerSide {
  /** "Summarize and continue": one no-tools call, then the worker folds its history (allowed during a turn). */
  summarize(request: SummaryCallRequest): Promise<SummaryCallReply>;
}

type Thrown = { value: unknown };
type ThrownWire = { fuseforks: ErrorPayload } | { isError: boolean; value: unknown };

function isFuseforksWire(wire: unknown): wire is { fuseforks: ErrorPayload } {
  const payload = (wire as { fuseforks?: { code?: unknown } } | null)?.fuseforks;
  return typeof payload === 'object' && payload !== null && isErrorCode(payload.code);
}

/**
 * A FuseforksError by shape, not by class: the agent worker's engine is a bundle of its own (scripts/bundleWorkers.mjs)
 * with its own copy of the error classes, and its errors must cross like the worker loop's own.
 */
function isFuseforksErrorObject(value: unknown): value is FuseforksError {
  return value instanceof Error && isFuseforksError(value);
}

/** Replaces comlink's `throw` handler (once per thread): FuseforksErrors cross with their code and fix. */
function installErrorTransfer(): void {
  const original = transferHandlers.get('throw') as TransferHandler<Thrown, ThrownWire>;
  if ((original as { fuseforks?: true }).fuseforks === true) return;
  const handler: TransferHandler<Thrown, ThrownWire> & { fuseforks: true } = {
    fuseforks: true,
    canHandle: (value: unknown): value is Thrown => original.canHandle(value),
    serialize(thrown) {
      if (isFuseforksErrorObject(thrown.value)) return [{ fuseforks: toWire(thrown.value) }, []];
      return original.serialize(thrown);
    },
    deserialize(wire) {
      if (isFuseforksWire(wire)) throw fromWire(wire.fuseforks);
      return original.deserialize(wire);
    },
  };
  transferHandlers.set('throw', handler as TransferHandler<unknown, unknown>);
  // A FuseforksError returned (not thrown) arrives as one too.
  const returned: TransferHandler<FuseforksError, ErrorPayload> = {
    canHandle: isFuseforksErrorObject,
    serialize: (error) => [toWire(error), []],
    deserialize: (payload) => fromWire(payload),
  };
  transferHandlers.set('fuseforksError', returned as TransferHandler<unknown, unknown>);
}
installErrorTransfer();

/** Serves `api` to the other end of `port`. */
export function exposeOn(port: NodeEndpoint, api: object): void {
  expose(api, nodeEndpoint(port));
}

/** The other end's API on `port`. */
export function remoteOn<T>(port: NodeEndpoint): Remote<T> {
  return wrap<T>(nodeEndpoint(port));
}

/** What `raceAbort` resolves with when the signal fired first. */
export const ABORTED: unique symbol = Symbol('aborted');

/** Settles with `call`'s value, or with ABORTED as soon as `signal` fires (the call itself is left to finish). */
export function raceAbort<T>(call: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const onAbort = (): void => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    call.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Calls into a worker that may die: comlink never settles a call whose peer is gone, so each call is tracked
 * until it settles and `rejectAll` fails the ones still open (a crash → WORKER_CRASHED).
 */
export class CallsInFlight {
  private readonly open = new Set<(error: Error) => void>();
  private failure: Error | null = null;

  track<T>(call: Promise<T>): Promise<T> {
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise<T>((resolve, reject) => {
      this.open.add(reject);
      call.then(
        (value) => {
          this.open.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.open.delete(reject);
          reject(error);
        },
      );
    });
  }

  /** Rejects every open call (and every later one) with `error`. */
  rejectAll(error: Error): void {
    this.failure = error;
    for (const reject of this.open) reject(error);
    this.open.clear();
  }

  get size(): number {
    return this.open.size;
  }
}
