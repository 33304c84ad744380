/**
 * Waves held for a person's review (issue 8, `planReview`): the worker asks, the supervisor keeps the request
 * until the GUI (through the host) approves or rejects it, then answers the worker. Nothing is delivered and no
 * token is spent meanwhile; a stopped or crashed agent's pending reviews simply disappear
 * (its main side withdraws the waves its worker held, mainSide.ts).
 */
import type { PlanReviewDecision, PlanReviewRequest } from '../core/turn/ports.js';
import { planNotWaiting, planReviewWithdrawn } from '../core/errors/requestErrors.js';

interface Pending {
  request: PlanReviewRequest;
  answer(decision: PlanReviewDecision): void;
  withdraw(error: Error): void;
}

/** Pending plan reviews by plan id (plan ids are village-unique). */
export class PlanReviews {
  private readonly pending = new Map<number, Pending>();

  /** Holds a request; resolves with the person's decision, rejects when the wave is withdrawn or dropped. */
  hold(request: PlanReviewRequest): Promise<PlanReviewDecision> {
    return new Promise<PlanReviewDecision>((answer, withdraw) => {
      this.pending.set(request.planId, { request, answer, withdraw });
    });
  }

  /** Waves waiting for a decision, oldest plan first. */
  list(): PlanReviewRequest[] {
    return [...this.pending.values()].map((p) => p.request).sort((a, b) => a.planId - b.planId);
  }

  /** Answers a held wave. Unknown (already decided, interrupted, agent stopped) → AGENT_NOT_FOUND-free clear error. */
  resolve(planId: number, decision: PlanReviewDecision): void {
    const held = this.pending.get(planId);
    if (held === undefined) {
      throw planNotWaiting(planId);
    }
    this.pending.delete(planId);
    held.answer(decision);
  }

  /** The worker stopped waiting (interrupt, stop, crash): forget the entry; its promise rejects. */
  forget(planId: number): void {
    const held = this.pending.get(planId);
    this.pending.delete(planId);
    held?.withdraw(planReviewWithdrawn(planId));
  }
}
