/**
 * How a turn ends: the shared run state, the two early exits (interrupted, budget stop), the summary call
 * after a cut, the empty-reply fallback, and the `turn:` line. Split from the loop to keep each file small.
 */
import { effectiveTokens, estimateMilli } from '../budget/effectiveTokens.js';
import { budgetStopKind } from '../budget/budgetPool.js';
import { turnStopLabel, type TurnStop } from '../events.js';
import type { ChatMessage, ChatRequest, ToolSpec } from '../llm/canonical.js';
import type { TurnDeps, TurnInput, TurnResult } from './ports.js';
import { absorbCall, failedOutcome, reportUnpaid } from './callMeter.js';
import { callOptions, type ResponseNotes } from './responseNotes.js';
import type { SpendLedger } from './turnSpend.js';
import { budgetHistoryNote, budgetNotice, interruptedHistoryNote, interruptedNotice, summarizeInstruction } from './wording.js';

/** Mutable state of one running turn. */
export interface TurnRun {
  input: TurnInput;
  deps: TurnDeps;
  startedMs: number;
  folded: string;
  cap: number;
  ledger: SpendLedger;
  rounds: number;
  waves: number;
  /** Milli effective tokens of the latest call (the next estimate). */
  lastCallMilli: number;
  /** Grounding and thinking of the answers so far. */
  notes: ResponseNotes;
  /** Originals of tool results that were compressed this turn (kept whatever way the turn ends). */
  originals: import('../jev/helperPort.js').ToolOriginal[];
}

/** The `turn:` line (completed / repeat / tool_limit / failed; cap `-` for failed). */
export function noteTurnLine(run: TurnRun, stop: TurnStop): void {
  const { input, deps, ledger } = run;
  const spend = ledger.snapshot();
  deps.ports.diag.note('turn', {
    agent: input.agent.id,
    hop: input.envelope.hop,
    rounds: `${run.rounds}/${stop.kind === 'failed' ? '-' : run.cap}`,
    waves: run.waves,
    stop: turnStopLabel(stop),
    prompt: spend.prompt,
    cached: spend.cached,
    total: ledger.total,
    reasoning: spend.reasoning,
    backend: deps.backend.name,
    model: input.template.model,
  });
}

function baseResult(run: TurnRun, replied: string): Omit<TurnResult, 'outcome' | 'replyState' | 'replyText' | 'stop'> {
  return {
    exchange: { sent: run.folded, replied },
    rounds: run.rounds,
    waves: run.waves,
    spend: run.ledger.snapshot(),
    lastCallMilli: run.lastCallMilli,
    elapsedMs: run.deps.now() - run.startedMs,
    ...run.notes.result(),
    ...(run.originals.length > 0 ? { toolOriginals: run.originals } : {}),
  };
}

/** The turn was cancelled at a round boundary: recorded, not failed. */
export function finishInterrupted(run: TurnRun): TurnResult {
  const { input, deps, ledger } = run;
  const note = interruptedHistoryNote(input.language);
  const elapsedMs = deps.now() - run.startedMs;
  deps.ports.emit({ type: 'turnInterrupted', agentId: input.agent.id, turnSeq: input.turnSeq });
  deps.ports.notice(interruptedNotice(input.language, input.agent.name, elapsedMs / 1000));
  deps.ports.diag.note('turn interrupted', {
    agent: input.agent.id,
    seq: input.turnSeq,
    hop: input.envelope.hop,
    rounds: run.rounds,
    elapsed_ms: elapsedMs,
    prompt: ledger.snapshot().prompt,
    cached: ledger.snapshot().cached,
    total: ledger.total,
    model: input.template.model,
  });
  return {
    ...baseResult(run, note),
    outcome: { kind: 'finish', text: note },
    replyState: 'interrupted',
    replyText: note,
    stop: { kind: 'interrupted' },
  };
}

/** A reservation failed: stop the turn; the first stopped turn of the root writes the one notice. */
export function finishBudget(run: TurnRun, estimate: number): TurnResult {
  const { input, deps, ledger } = run;
  const budget = deps.budget!;
  const remaining = budget.remainingMilli();
  const kind = budgetStopKind(remaining);
  const ceiling = effectiveTokens(budget.ceilingMilli);
  deps.ports.diag.note(
    'budget stop',
    {
      agent: input.agent.id,
      ceiling,
      remaining: effectiveTokens(remaining),
      estimate: effectiveTokens(estimate),
      reason: kind === 'budget_exhausted' ? 'exhausted' : 'reserve_short',
    },
    'warn',
  );
  if (budget.noteExhausted()) deps.ports.notice(budgetNotice(input.language, ceiling));
  const spend = ledger.snapshot();
  deps.ports.diag.note('turn budget exhausted', {
    agent: input.agent.id,
    hop: input.envelope.hop,
    rounds: run.rounds,
    ceiling,
    spent: effectiveTokens(spend.effectiveMilli),
    prompt: spend.prompt,
    cached: spend.cached,
    total: ledger.total,
    model: input.template.model,
  });
  const note = budgetHistoryNote(input.language);
  return {
    ...baseResult(run, note),
    outcome: { kind: 'finish', text: note },
    replyState: 'budget_exhausted',
    replyText: note,
    stop: { kind },
  };
}

/** Builds a request with the template's settings. */
export function chatRequest(run: TurnRun, messages: ChatMessage[], tools: ToolSpec[], stableLen: number, summarize = false): ChatRequest {
  const t = run.input.template;
  return {
    model: t.model,
    messages,
    tools,
    toolChoice: tools.length === 0 || summarize ? 'none' : 'auto',
    temperature: t.temperature,
    maxTokens: t.maxOutputTokens,
    effort: t.effort,
    cacheablePrefixLen: stableLen,
  };
}

/**
 * One extra call after a cut with no text: tools stay defined (cache prefix) but tool choice is none.
 * Not a round. Any failure — including no budget — just leaves the text blank (the fallback follows).
 */
export async function summaryCall(run: TurnRun, messages: ChatMessage[], tools: ToolSpec[], stableLen: number): Promise<string> {
  const { deps, input } = run;
  let reservation = null;
  if (deps.budget !== null) {
    reservation = deps.budget.tryReserve(estimateMilli(run.lastCallMilli, deps.budget.ceilingMilli));
    if (reservation === null) return '';
  }
  const request = chatRequest(run, [...messages, { role: 'system', content: summarizeInstruction(input.language) }], tools, stableLen, true);
  const stamp = { purpose: 'wrap_up' as const, startedMs: deps.now() };
  try {
    const response = await deps.backend.chat(request, callOptions(deps, run.rounds + 1));
    const text = response.text ?? '';
    const milli = absorbCall(run, request, response.usage, text, stamp, { kind: 'ok' });
    reservation?.commit(milli);
    return text;
  } catch (error) {
    reservation?.refund();
    const outcome = failedOutcome(error, deps.signal.aborted);
    reportUnpaid(run, stamp, outcome);
    deps.ports.diag.note('summary failed', { agent: input.agent.id, code: outcome.kind === 'failed' ? outcome.code : 'INTERRUPTED' }, 'warn');
    return '';
  }
}

/** 64-bit FNV-1a of a string as 16 hex digits: a cheap fingerprint to spot a moving system prefix in logs. */
export function digest16(text: string): string {
  // 64-bit FNV-1a over UTF-16 code units, in four 16-bit limbs (a BigInt per character cost ~30 µs a call). The
  // prime is 2^40 + 0x1b3: each round multiplies by 0x1b3 and adds the value shifted by 40 bits (limb 2 += h0<<8…).
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < text.length; i += 1) {
    h0 ^= text.charCodeAt(i);
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + h0 * 0x100 + (t1 >>> 16);
    const t3 = h3 * 0x1b3 + h1 * 0x100 + (t2 >>> 16);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  const hex = (n: number): string => n.toString(16).padStart(4, '0');
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}

/** The last system text digested and its digest: an agent's system prompt is the same round after round. */
let lastDigest = { text: '', digest: digest16('') };

/** digest16 of `text`, computed again only when the text changed since the last call (one agent per worker). */
function systemDigest(text: string): string {
  if (text !== lastDigest.text) lastDigest = { text, digest: digest16(text) };
  return lastDigest.digest;
}

/** The `cache:` line of one round: what the provider reused, and the shape of what was sent. */
export function noteCacheLine(run: TurnRun, round: number, messages: ChatMessage[], stableLen: number, usage: { prompt: number; cacheRead: number; cacheWrite: number }): void {
  const systems = messages.filter((m) => m.role === 'system');
  const systemText = systems.map((m) => m.content).join('\n\n');
  const historyMsgs = Math.min(run.input.history.length, 8) * 2;
  run.deps.ports.diag.note('cache', {
    agent: run.input.agent.id,
    model: run.input.template.model,
    round,
    prompt: usage.prompt,
    cached: usage.cacheRead,
    system_chars: systemText.length,
    stable_chars: stableLen,
    system_blocks: systems.length,
    history_msgs: `${historyMsgs}/16`,
    system_digest: systemDigest(systemText),
    cache_write: usage.cacheWrite,
  });
}
