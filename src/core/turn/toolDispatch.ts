/**
 * One tool call of a round (core.md §2.5 step 7): repeat guard first, then unknown names, then the synthetic
 * tools (`ask_*`, `plan`, `room_log`), then the agent's tool box. Every path returns a body; none throws.
 */
import { TOOL_ARGS_EVENT_MAX, type ReasonState } from '../events.js';
import type { ToolCall } from '../llm/canonical.js';
import type { HelperPort } from '../jev/helperPort.js';
import type { ToolContext } from '../tools/contract.js';
import type { ToolResultFilter } from './helperCalls.js';
import type { DelegationTools } from './delegationTools.js';
import type { TurnDeps, TurnInput } from './ports.js';
import { runPlan } from './plan.js';
import { ROOM_LOG_TOOL } from './roomLog.js';
import type { RepeatGuard } from './repeatGuard.js';
import { hopLimitRefusal, noSuchTool, repeatBlockedBody } from './wording.js';

/** Per-turn state the dispatcher reads and updates. */
export interface DispatchState {
  input: TurnInput;
  deps: TurnDeps;
  delegation: DelegationTools;
  /** `room_log` is offered this turn (hearsRoomLog and the driver has a ring). */
  roomLogOffered: boolean;
  /** Every name offered to the model this turn. */
  offered: ReadonlySet<string>;
  guard: RepeatGuard;
  allocatePlanId(): number;
  /** Plan waves started so far (incremented here). */
  waves: number;
  /** The helper model (Jev) for the judge tool; absent = none this run. */
  helper?: HelperPort;
  /** Tool-result compression, when on: maps a box tool's result to what the agent sees. */
  compress?: ToolResultFilter;
}

/** The body returned to the model, and whether the repeat guard stopped the call. */
export interface CallResult {
  body: string;
  blocked: boolean;
}

const EXCLUDED: ReasonState = { kind: 'excluded' };

function argsRecord(args: unknown): Record<string, unknown> {
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

function reasonChars(args: Record<string, unknown>): number {
  return typeof args.reason === 'string' ? args.reason.trim().length : 0;
}

/** Runs one call (1-based `round`). */
export async function dispatchToolCall(call: ToolCall, round: number, state: DispatchState): Promise<CallResult> {
  const { input, deps } = state;
  const { ports } = deps;
  const agentId = input.agent.id;
  const language = input.language;

  const verdict = state.guard.check(call.name, call.args);
  if (verdict.blocked) {
    ports.emit({ type: 'toolRepeatBlocked', agentId, tool: call.name, repeats: verdict.repeats });
    ports.diag.note('tool blocked', { agent: agentId, round, name: call.name, repeats: verdict.repeats }, 'warn');
    return { body: repeatBlockedBody(language, call.name), blocked: true };
  }

  if (!state.offered.has(call.name)) {
    ports.diag.note('tool unknown', { agent: agentId, round, name: call.name }, 'warn');
    const body = noSuchTool(language, call.name);
    state.guard.record(verdict.key, body);
    return { body, blocked: false };
  }

  const args = argsRecord(call.args);
  let body: string;
  let ok = true;
  let reason: ReasonState = EXCLUDED;
  // The tool box writes its own `tool:` line; only the synthetic tools are noted here.
  let synthetic = true;
  const askTarget = state.delegation.askTargets.get(call.name);
  if (askTarget !== undefined) {
    const nextHop = input.envelope.hop + 1;
    if (nextHop >= input.maxHops) {
      ports.emit({ type: 'hopLimitReached', agentId, maxHops: input.maxHops });
      body = hopLimitRefusal(language, input.maxHops);
    } else {
      const message = typeof args.message === 'string' ? args.message : '';
      try {
        body = (await ports.deliverAndWait({ to: askTarget, message, hop: nextHop }, deps.signal)).text;
      } catch (error) {
        // The port promises never to throw; a throw still must not end the turn.
        body = error instanceof Error ? error.message : String(error);
        ok = false;
      }
    }
  } else if (call.name === 'plan' && state.delegation.planOffered) {
    const run = await runPlan(call.args, {
      agentId,
      language,
      roster: input.roster,
      hop: input.envelope.hop,
      maxHops: input.maxHops,
      ports,
      signal: deps.signal,
      now: deps.now,
      allocatePlanId: state.allocatePlanId,
      wave: state.waves + 1,
      needsReview: input.agent.planReview && input.bypassPlanReview !== true,
    });
    if (run.waveStarted) state.waves += 1;
    body = run.body;
  } else if (call.name === ROOM_LOG_TOOL && state.roomLogOffered && ports.readRoomLog !== undefined) {
    const id = typeof args.id === 'string' ? args.id : '';
    const read = await ports.readRoomLog(id);
    body = read.body;
    // Counts only: the id is a handle, never the body.
    ports.diag.note('room_log read', { agent: agentId, id: id.trim(), outcome: read.outcome, chars: read.chars });
  } else {
    const ctx: ToolContext = {
      agentId,
      agentName: input.agent.name,
      workDir: input.agent.workDir,
      workspaceDir: input.workspaceDir,
      language,
      runApproval: input.runApproval,
      signal: deps.signal,
      diag: ports.diag,
      round,
      ragSources: input.agent.ragSources,
      ...(ports.scan === undefined ? {} : { scan: ports.scan }),
      ...(state.helper === undefined ? {} : { helper: state.helper }),
    };
    synthetic = false;
    try {
      const outcome = await deps.tools.execute(call.name, args, ctx);
      body = outcome.body;
      ok = outcome.ok;
      reason = outcome.reason;
      if (state.compress !== undefined) body = await state.compress(call.name, round, body);
    } catch (error) {
      body = `tool execution failed: ${error instanceof Error ? error.message : String(error)}`;
      ok = false;
      reason = { kind: 'omitted' };
    }
  }

  const argsText = JSON.stringify(call.args ?? {});
  ports.emit({ type: 'toolInvoked', agentId, tool: call.name, ok, reason, args: argsText.length > TOOL_ARGS_EVENT_MAX ? argsText.slice(0, TOOL_ARGS_EVENT_MAX) : argsText });
  if (synthetic) {
    ports.diag.note('tool', {
      agent: agentId,
      round,
      name: call.name,
      ok,
      args_chars: JSON.stringify(call.args ?? {}).length,
      body_chars: body.length,
      reason: reason.kind,
      reason_chars: reasonChars(args),
    });
  }
  state.guard.record(verdict.key, body);
  return { body, blocked: false };
}
