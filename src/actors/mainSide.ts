/**
 * The main thread's half of the comlink API for one agent worker (rpc.ts `MainSide`): main-thread tools, scanning
 * on the shared pool, plan reviews and room-log reads, bound to that agent. Calls a worker gave up on (interrupt) are
 * aborted here; everything still running or held when the worker goes is ended by its owner (agentHandle.ts `destroy`).
 */
import type { ToolReply } from '../core/tools/contract.js';
import type { PlanReviewDecision, PlanReviewRequest } from '../core/turn/ports.js';
import type { RoomLogRead } from '../core/turn/roomLog.js';
import type { ScanJob, ScanOutput } from '../core/tools/scan/scanJob.js';
import type { PlanReviews } from './planReviews.js';
import type { ScanPool } from './scanPool.js';
import type { MainSide } from './rpc.js';
import type { ExternalToolPort } from './supervisorOptions.js';
import { mainToolNotConnected } from '../core/errors/hostErrors.js';

/** What one agent's main side needs from the supervisor. */
export interface MainSideDeps {
  agentId: string;
  externalTools: ExternalToolPort | undefined;
  reviews: PlanReviews;
  scanPool: ScanPool;
  readRoomLog(id: string): RoomLogRead;
}

/** One agent's main side plus the hook its worker's owner calls when that worker is gone. */
export interface AgentMainSide extends MainSide {
  /** Aborts every call still running for this worker and withdraws the reviews it holds (idempotent). */
  destroy(): void;
  /** Calls running plus reviews held for this worker (tests, leak checks). */
  readonly openCount: number;
}

export function createMainSide(deps: MainSideDeps): AgentMainSide {
  const running = new Map<number, AbortController>();
  /** Plan ids of the waves this worker holds for review. */
  const held = new Set<number>();
  const withCall = async <T>(callId: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const controller = new AbortController();
    running.set(callId, controller);
    try {
      return await run(controller.signal);
    } finally {
      running.delete(callId);
    }
  };
  return {
    async callTool(callId: number, name: string, args: Record<string, unknown>): Promise<ToolReply> {
      const port = deps.externalTools;
      if (port === undefined) {
        throw mainToolNotConnected(name, deps.agentId);
      }
      return withCall(callId, (signal) => port.call(deps.agentId, name, args, signal));
    },
    scan(callId: number, job: ScanJob): Promise<ScanOutput> {
      return withCall(callId, (signal) => deps.scanPool.run(job, signal));
    },
    cancel(callId: number): void {
      running.get(callId)?.abort();
      running.delete(callId);
    },
    reviewPlan(request: PlanReviewRequest): Promise<PlanReviewDecision> {
      held.add(request.planId);
      return deps.reviews.hold(request).finally(() => held.delete(request.planId));
    },
    withdrawReview(planId: number): void {
      held.delete(planId);
      deps.reviews.forget(planId);
    },
    readRoomLog(id: string): RoomLogRead {
      return deps.readRoomLog(id);
    },
    destroy(): void {
      for (const controller of running.values()) controller.abort();
      running.clear();
      for (const planId of [...held]) deps.reviews.forget(planId);
      held.clear();
    },
    get openCount(): number {
      return running.size + held.size;
    },
  };
}
