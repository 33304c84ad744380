/**
 * The `plan` tool: one wave of parallel asks to several connections, answers bundled in input order
 * (core.md §2.6). Validation is all-or-nothing, so a bad plan sends nothing.
 */
import type { PlanReviewDecision } from './ports.js';
import type { PlanTaskState } from '../events.js';
import type { Language } from '../world/types.js';
import type { DeliveryResult, RosterEntry, TurnPorts } from './ports.js';
import { hopLimitRefusal, planInterrupted, planInvalid, planRejected, planReviewUnavailable } from './wording.js';

/** One validated task. */
export interface PlanTask {
  to: string;
  message: string;
}

/** Static validation result: the tasks, or the problem in words the model can act on. */
export type PlanValidation = { ok: true; tasks: PlanTask[] } | { ok: false; problem: string };

/** Validates `{tasks:[{to,message}]}` against the current connections (pure). */
export function validatePlan(args: unknown, connectionIds: string[], language: Language): PlanValidation {
  const ja = language === 'ja';
  const raw = typeof args === 'object' && args !== null ? (args as Record<string, unknown>).tasks : undefined;
  if (!Array.isArray(raw) || raw.length === 0) {
    return { ok: false, problem: ja ? 'tasks が空か、ありません' : 'tasks is missing or empty' };
  }
  const tasks: PlanTask[] = [];
  for (const [i, item] of raw.entries()) {
    const rec = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    const to = rec.to;
    const message = rec.message;
    if (typeof to !== 'string' || to === '') {
      return { ok: false, problem: ja ? `tasks[${i}] に to がありません` : `tasks[${i}] has no "to"` };
    }
    if (typeof message !== 'string' || message.trim() === '') {
      return { ok: false, problem: ja ? `tasks[${i}] に message がありません` : `tasks[${i}] has no "message"` };
    }
    if (!connectionIds.includes(to)) {
      return {
        ok: false,
        problem: ja ? `${to} はいまの接続先ではありません` : `${to} is not one of your current connections`,
      };
    }
    if (tasks.some((t) => t.to === to)) {
      return { ok: false, problem: ja ? `${to} が重複しています` : `${to} appears more than once` };
    }
    tasks.push({ to, message });
  }
  return { ok: true, tasks };
}

/** Joins the answers in input order: `## id（name）\nanswer` (en `## id (name)`), blank-line separated. */
export function planBundle(tasks: PlanTask[], answers: string[], roster: RosterEntry[], language: Language): string {
  return tasks
    .map((task, i) => {
      const name = roster.find((r) => r.id === task.to)?.name ?? task.to;
      const head = language === 'ja' ? `## ${task.to}（${name}）` : `## ${task.to} (${name})`;
      return `${head}\n${answers[i] ?? ''}`;
    })
    .join('\n\n');
}

/** What running a plan needs from the turn. */
export interface PlanContext {
  agentId: string;
  language: Language;
  roster: RosterEntry[];
  hop: number;
  maxHops: number;
  ports: TurnPorts;
  signal: AbortSignal;
  now(): number;
  allocatePlanId(): number;
  /** 1-based wave number this call would start. */
  wave: number;
  /** This agent's waves wait for a person (`planReview`), unless the run bypasses review. */
  needsReview: boolean;
}

/** The tool body and whether a wave actually went out (it counts in `waves=`). */
export interface PlanRun {
  body: string;
  waveStarted: boolean;
}

function abortPromise(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/**
 * Holds the wave until a person decides (issue 8: no delivery and no tokens meanwhile). Returns null when approved,
 * else the tool body to give the facilitator. Never throws.
 */
async function holdForReview(planId: number, tasks: PlanTask[], ctx: PlanContext): Promise<string | null> {
  const { ports, agentId, language } = ctx;
  if (ports.reviewPlan === undefined) return planReviewUnavailable(language);
  const request = { planId, agentId, wave: ctx.wave, tasks: tasks.map((t) => ({ to: t.to, message: t.message })) };
  ports.emit({ type: 'planReviewRequested', ...request });
  ports.diag.note('plan review', { agent: agentId, wave: ctx.wave, plan: planId, tasks: tasks.length });
  let decision: PlanReviewDecision;
  try {
    decision = await ports.reviewPlan(request, ctx.signal);
  } catch {
    // An interrupt (or a reviewer that went away) while waiting: the wave never went out.
    decision = { kind: 'rejected', note: null };
    if (ctx.signal.aborted) {
      ports.emit({ type: 'planReviewResolved', planId, agentId, approved: false });
      return planInterrupted(language);
    }
  }
  ports.emit({ type: 'planReviewResolved', planId, agentId, approved: decision.kind === 'approved' });
  ports.diag.note('plan review resolved', { agent: agentId, plan: planId, approved: decision.kind === 'approved' });
  return decision.kind === 'approved' ? null : planRejected(language, decision.note);
}

/** Runs one plan call: validate → hop check → (review) → wave → bundle. Never throws. */
export async function runPlan(args: unknown, ctx: PlanContext): Promise<PlanRun> {
  const { ports, agentId, language } = ctx;
  const check = validatePlan(
    args,
    ctx.roster.map((r) => r.id),
    language,
  );
  if (!check.ok) return { body: planInvalid(language, check.problem), waveStarted: false };
  const nextHop = ctx.hop + 1;
  if (nextHop >= ctx.maxHops) {
    ports.emit({ type: 'hopLimitReached', agentId, maxHops: ctx.maxHops });
    return { body: hopLimitRefusal(language, ctx.maxHops), waveStarted: false };
  }
  const tasks = check.tasks;
  const planId = ctx.allocatePlanId();
  if (ctx.needsReview) {
    const held = await holdForReview(planId, tasks, ctx);
    if (held !== null) return { body: held, waveStarted: false };
  }
  const startedAt = ctx.now();
  ports.diag.note('plan wave', {
    agent: agentId,
    wave: ctx.wave,
    tasks: tasks.length,
    to: `[${tasks.map((t) => t.to).join(',')}]`,
    msg_chars: tasks.reduce((n, t) => n + t.message.length, 0),
  });
  ports.emit({
    type: 'planWaveStarted',
    planId,
    agentId,
    wave: ctx.wave,
    tasks: tasks.map((t) => ({ to: t.to, msgChars: t.message.length })),
    startedAtMs: startedAt,
  });

  const results: (DeliveryResult | null)[] = tasks.map(() => null);
  let cut = false;
  const waits = tasks.map(async (task, i) => {
    let result: DeliveryResult;
    try {
      result = await ports.deliverAndWait({ to: task.to, message: task.message, hop: nextHop }, ctx.signal);
    } catch (error) {
      // The port promises never to throw; if it does anyway, the task is simply undeliverable.
      result = { text: error instanceof Error ? error.message : String(error), state: 'undeliverable' };
    }
    if (cut) return;
    results[i] = result;
    ports.emit({ type: 'planTaskResolved', planId, to: task.to, state: result.state, elapsedMs: ctx.now() - startedAt });
  });
  cut = await Promise.race([Promise.all(waits).then(() => false), abortPromise(ctx.signal).then(() => true)]);

  if (cut) {
    const resolved = results.filter((r) => r !== null).length;
    const state: PlanTaskState = 'interrupted';
    tasks.forEach((task, i) => {
      if (results[i] === null) {
        ports.emit({ type: 'planTaskResolved', planId, to: task.to, state, elapsedMs: ctx.now() - startedAt });
      }
    });
    ports.diag.note('plan wave interrupted', { agent: agentId, wave: ctx.wave, resolved: `${resolved}/${tasks.length}` });
    ports.emit({ type: 'planWaveFinished', planId, bundleChars: 0, elapsedMs: ctx.now() - startedAt });
    return { body: planInterrupted(language), waveStarted: true };
  }

  const bundle = planBundle(
    tasks,
    results.map((r) => r?.text ?? ''),
    ctx.roster,
    language,
  );
  const elapsedMs = ctx.now() - startedAt;
  ports.diag.note('plan bundle', { agent: agentId, wave: ctx.wave, tasks: tasks.length, chars: bundle.length, elapsed_ms: elapsedMs });
  ports.emit({ type: 'planWaveFinished', planId, bundleChars: bundle.length, elapsedMs });
  return { body: bundle, waveStarted: true };
}
