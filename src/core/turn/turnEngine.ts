/**
 * The turn engine: one incoming message → prompt → tool loop → an outcome (core.md §2.5, SPEC §4).
 * Runs inside the agent's worker; reaches other agents only through `TurnPorts` and never routes or
 * records its own reply — the driver does that with the returned `TurnResult`.
 */
import { estimateMilli } from '../budget/effectiveTokens.js';
import type { TurnStop } from '../events.js';
import type { ChatResponse, ToolCall } from '../llm/canonical.js';
import { buildDelegationTools, decide, delegationGates, spokenText, type DelegationTools } from './delegationTools.js';
import { endpointLogLabel } from './envelope.js';
import type { TurnDeps, TurnInput, TurnOutcome, TurnResult } from './ports.js';
import { RepeatGuard } from './repeatGuard.js';
import { roomLogSpec } from './roomLog.js';
import { composeSystemPrompt, type ComposedPrompt } from './systemPrompt.js';
import { capPromptMaterial, capText, capTools, MAX_LISTED_TIES, MAX_TOOLS_PER_AGENT, type OfferedTool, PROMPT_FILE_CAP_BYTES, systemPromptCapBytes } from './promptCaps.js';
import { KNOWN_TOOL_NAMES } from '../tools/registry.js';
import type { Language } from '../world/types.js';
import { helperPort, toolResultCompressor } from './helperCalls.js';
import { dispatchToolCall, type DispatchState } from './toolDispatch.js';
import { absorbCall, failedOutcome, reportUnpaid } from './callMeter.js';
import {
  chatRequest,
  finishBudget,
  finishInterrupted,
  noteCacheLine,
  noteTurnLine,
  summaryCall,
  type TurnRun,
} from './turnEnding.js';
import { buildMessages, foldUserTurn } from './turnMessages.js';
import { paidUsage, receivedBeforeCut, SpendLedger } from './turnSpend.js';
import { callOptions, ResponseNotes } from './responseNotes.js';
import { emptyFallback, handedOffReply, protocolNote, type EmptyReason } from './wording.js';

/** Default tool-round cap when the agent sets none. */
export const DEFAULT_MAX_TOOL_ITERATIONS = 12;

/** Plan ids when the driver gives no allocator: from 1, per thread (one engine per agent worker). */
let threadPlanId = 0;
const threadPlanIds = (): number => ++threadPlanId;

function receivedText(response: ChatResponse): string {
  return (response.text ?? '') + response.toolCalls.map((c: ToolCall) => c.name + JSON.stringify(c.args)).join('');
}

/** The composed prompt cut to the system prompt cap of `contextLength` (`onCut` hears the size and the cap). */
function cappedSystemPrompt(prompt: ComposedPrompt, contextLength: number, language: Language, onCut: (bytes: number, cap: number) => void): ComposedPrompt {
  const cap = systemPromptCapBytes(contextLength);
  const capped = capText(prompt.text, cap, language, language === 'ja' ? 'システムプロンプト' : 'the system prompt');
  if (!capped.cut) return prompt;
  onCut(capped.bytes, cap);
  return { text: capped.text, stableLen: Math.min(prompt.stableLen, capped.headChars) };
}

/** Over the tool cap: `plan` first (it reaches every tie), then per tie in roster order transfer_to_*, ask_*. */
function tieRank(name: string, delegation: DelegationTools, tieIndex: ReadonlyMap<string, number>): number {
  const transfer = delegation.transferTargets.get(name);
  if (transfer !== undefined) return 1 + 2 * (tieIndex.get(transfer) ?? 0);
  const ask = delegation.askTargets.get(name);
  if (ask !== undefined) return 2 + 2 * (tieIndex.get(ask) ?? 0);
  return 0;
}

/** Runs one turn. Throws only the LLM error of a failed call (the driver marks the turn failed). */
export async function runTurn(input: TurnInput, deps: TurnDeps): Promise<TurnResult> {
  const { agent, template, language, envelope, roster } = input;
  const { ports } = deps;
  const startedMs = deps.now();
  ports.diag.note('turn start', {
    agent: agent.id,
    hop: envelope.hop,
    from: endpointLogLabel(envelope.from),
    chars: envelope.content.length,
  });

  const capped = capPromptMaterial(input.material, language);
  for (const c of capped.cut) {
    ports.diag.note('prompt file cut', { agent: agent.id, file: c.file, bytes: c.bytes, cap: PROMPT_FILE_CAP_BYTES }, 'warn');
  }
  const prompt = cappedSystemPrompt(composeSystemPrompt(capped.material, {
    agentId: agent.id,
    agentName: agent.name,
    workDir: agent.workDir,
    language,
    roster,
    summary: input.summary,
  }), template.contextLength, language, (bytes, cap) => ports.diag.note('system prompt cut', { agent: agent.id, bytes, cap }, 'warn'));
  const gates = delegationGates(template.useTools, roster.length, agent.allowHandoff, envelope.awaitingReply);
  const boxSpecs = deps.tools.specs();
  const delegation = buildDelegationTools(roster, gates, language, new Set(boxSpecs.map((s) => s.name)));
  // After the delegation tools, before the box (reference order); outside enabledTools by design.
  const roomLogOffered = agent.hearsRoomLog && ports.readRoomLog !== undefined;
  const tieIndex = new Map(roster.map((r, i) => [r.id, i]));
  const all: OfferedTool[] = [
    ...delegation.specs.map((spec) => ({ spec, origin: 'tie' as const, rank: tieRank(spec.name, delegation, tieIndex) })),
    ...(roomLogOffered ? [{ spec: roomLogSpec(language), origin: 'builtin' as const }] : []),
    ...boxSpecs.map((spec) => ({ spec, origin: KNOWN_TOOL_NAMES.includes(spec.name) ? ('builtin' as const) : ('mcp' as const) })),
  ];
  const { offered: specs, dropped } = capTools(all);
  if (dropped.length > 0) {
    ports.diag.note('tools cut', { agent: agent.id, offered: specs.length, dropped: dropped.length, first_dropped: dropped[0] ?? '', cap: MAX_TOOLS_PER_AGENT }, 'warn');
  }
  const useTools = specs.length > 0 && template.useTools;
  const tools = useTools ? specs : [];

  const { folded, escaped } = foldUserTurn(input);
  if (escaped > 0) ports.diag.note('sender envelope escaped', { from: envelope.from.kind, count: escaped }, 'warn');
  const note =
    roster.length > 0
      ? protocolNote(
          language,
          roster.slice(0, MAX_LISTED_TIES).map((r) => r.name),
          { ...gates, awaitingReply: envelope.awaitingReply, planOffered: delegation.planOffered },
        )
      : null;
  const messages = buildMessages(prompt.text, note, input.history, folded, envelope.attachments);

  const run: TurnRun = {
    input,
    deps,
    startedMs,
    folded,
    cap: Math.max(1, agent.maxToolIterations ?? DEFAULT_MAX_TOOL_ITERATIONS),
    ledger: new SpendLedger(),
    rounds: 0,
    waves: 0,
    lastCallMilli: input.lastCallMilli,
    notes: new ResponseNotes(),
    originals: [],
  };
  const helper = deps.jev === undefined ? undefined : helperPort(run, deps.jev);
  const compress = toolResultCompressor(run, helper);
  const dispatch: DispatchState = {
    ...(helper === undefined ? {} : { helper }),
    ...(compress === undefined ? {} : { compress }),
    input,
    deps,
    delegation,
    roomLogOffered,
    offered: new Set(tools.map((s) => s.name)),
    guard: new RepeatGuard(),
    allocatePlanId: deps.allocatePlanId ?? threadPlanIds,
    waves: 0,
  };

  let outcome: TurnOutcome = { kind: 'finish', text: '' };
  let stop: TurnStop = { kind: 'completed' };
  let lengthCut = false;
  for (let iteration = 0; iteration < run.cap; iteration += 1) {
    // Boundary precedence: cancel > budget > repeat guard > rounds.
    if (deps.signal.aborted) return finishInterrupted(run);
    let reservation = null;
    let estimate = 0;
    if (deps.budget !== null) {
      estimate = estimateMilli(run.lastCallMilli, deps.budget.ceilingMilli);
      reservation = deps.budget.tryReserve(estimate);
      if (reservation === null) return finishBudget(run, estimate);
    }

    const request = chatRequest(run, messages, tools, prompt.stableLen);
    const stamp = { purpose: 'turn' as const, startedMs: deps.now() };
    let response: ChatResponse;
    try {
      response = await deps.backend.chat(request, callOptions(deps, run.rounds + 1));
    } catch (error) {
      const paid = paidUsage(error);
      const failed = failedOutcome(error, deps.signal.aborted);
      if (paid !== null) {
        run.rounds += 1;
        // Computed first: `reservation?.commit(f())` would skip f() when there is no budget.
        const paidMilli = absorbCall(run, request, paid, receivedBeforeCut(error), stamp, failed);
        reservation?.commit(paidMilli);
      } else {
        reservation?.refund();
        reportUnpaid(run, stamp, failed);
      }
      // The signal also aborts the in-flight HTTP call: a failure caused by the cancel is an interruption.
      if (deps.signal.aborted) return finishInterrupted(run);
      const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : 'BUG';
      noteTurnLine(run, { kind: 'failed', code });
      throw error;
    }
    run.rounds += 1;
    noteCacheLine(run, run.rounds, messages, prompt.stableLen, response.usage);
    const milli = absorbCall(run, request, response.usage, () => receivedText(response), stamp, { kind: 'ok' });
    reservation?.commit(milli);
    run.notes.absorb(response);

    const decision = decide(response, {
      useTools,
      offerTransfer: gates.offerTransfer,
      connectionIds: roster.map((r) => r.id),
      transferTargets: delegation.transferTargets,
    });
    // A handoff ends the turn at once; other calls of the same response are not run.
    if (decision.kind === 'handoff' || response.toolCalls.length === 0 || !useTools) {
      outcome = decision;
      lengthCut = response.finish === 'length';
      break;
    }

    messages.push({ role: 'assistant', content: response.text ?? '', toolCalls: response.toolCalls });
    let blocked = 0;
    let blockedTool = '';
    for (const call of response.toolCalls) {
      const result = await dispatchToolCall(call, run.rounds, dispatch);
      run.waves = dispatch.waves;
      if (result.blocked) {
        blocked += 1;
        blockedTool = call.name;
      }
      messages.push({ role: 'tool', content: result.body, toolCallId: call.id, toolName: call.name });
    }
    if (blocked === response.toolCalls.length) {
      ports.diag.note('turn cut', { agent: agent.id, round: run.rounds, reason: 'repeat', tool: blockedTool }, 'warn');
      stop = { kind: 'repeat', tool: blockedTool };
      break;
    }
    if (iteration + 1 === run.cap) {
      ports.emit({ type: 'toolLimitReached', agentId: agent.id, maxIterations: run.cap });
      stop = { kind: 'tool_limit' };
    }
  }

  if (outcome.kind === 'finish' && outcome.text.trim() === '') {
    let text = '';
    if (stop.kind === 'repeat' || stop.kind === 'tool_limit') {
      // A cancel that arrived during the last round still wins over the summary call.
      if (deps.signal.aborted) return finishInterrupted(run);
      text = await summaryCall(run, messages, tools, prompt.stableLen);
    }
    if (text.trim() === '') {
      const reason: EmptyReason =
        stop.kind === 'repeat'
          ? { kind: 'repeat' }
          : stop.kind === 'tool_limit'
            ? { kind: 'tool_limit', cap: run.cap }
            : lengthCut
              ? { kind: 'length' }
              : { kind: 'blank' };
      text = emptyFallback(language, reason);
    }
    outcome = { kind: 'finish', text };
  }

  noteTurnLine(run, stop);
  const spoken = spokenText(outcome);
  const handedOff = outcome.kind === 'handoff';
  const names = outcome.kind === 'handoff' ? outcome.targets.map((id) => roster.find((r) => r.id === id)?.name ?? id) : [];
  return {
    outcome,
    replyState: handedOff ? 'handed_off' : 'answered',
    replyText: handedOff ? handedOffReply(language, names) : spoken,
    stop,
    exchange: { sent: folded, replied: spoken },
    rounds: run.rounds,
    waves: run.waves,
    spend: run.ledger.snapshot(),
    lastCallMilli: run.lastCallMilli,
    elapsedMs: deps.now() - startedMs,
    ...run.notes.result(),
    ...(run.originals.length > 0 ? { toolOriginals: run.originals } : {}),
  };
}
