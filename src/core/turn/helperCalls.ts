/**
 * Calls to the helper model (Jev) inside a turn: the judge tool's question and tool-result compression. Each call
 * reserves from the causal root's budget pool first, is absorbed into the turn's spend ledger (so the `turn:` line,
 * the turn record and the stats count it), and writes one `jev call:` line with counts only. A failed or refused
 * compression hands back the uncompressed result with a WARN: a tool result is never lost.
 */
import { accountableUsage, effectiveMilli, usageTotal, utf8Bytes } from '../budget/effectiveTokens.js';
import { jevTemplate } from '../jev/jevSettings.js';
import { ZERO_USAGE } from '../llm/canonical.js';
import { callRecord, failedOutcome } from './callMeter.js';
import type { HelperAnswer, HelperPort, JevDeps, ToolOriginal } from '../jev/helperPort.js';
import type { ChatRequest } from '../llm/canonical.js';
import type { Language } from '../world/types.js';
import type { TurnRun } from './turnEnding.js';
import { pick } from '../tools/toolText.js';

/** Chars of the request text a compression sees as its basis (what the result must still answer). */
export const COMPRESS_BASIS_CHARS = 2_000;

function codeOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : 'UNKNOWN';
}

/** The helper port of one turn, accounted against `run`. */
export function helperPort(run: TurnRun, jev: JevDeps): HelperPort {
  const { deps, input } = run;
  return {
    unavailable: jev.unavailable,
    model: jev.settings.model,
    async ask(purpose, system, user, signal): Promise<HelperAnswer> {
      const backend = jev.backend;
      if (jev.unavailable !== null || backend === null) return { ok: false, reason: jev.unavailable ?? 'unavailable' };
      // The call record names the helper: template `jev`, its model and backend, this purpose.
      const who = { agent: input.agent, template: { ...jevTemplate(jev.settings), id: 'jev' } };
      const stamp = { purpose, startedMs: deps.now() };
      // Reserve what the call can cost at most: its input (bytes/4) and a full output, at the output weight.
      const estimate = Math.ceil(utf8Bytes(system + user) / 4) * 1000 + jev.settings.maxOutputTokens * 4000;
      let reservation = null;
      if (deps.budget !== null) {
        reservation = deps.budget.tryReserve(Math.min(estimate, deps.budget.ceilingMilli));
        if (reservation === null) {
          deps.ports.diag.note('jev call', { agent: input.agent.id, purpose, ok: false, reason: 'budget' }, 'warn');
          return { ok: false, reason: 'budget' };
        }
      }
      const request: ChatRequest = {
        model: jev.settings.model,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        tools: [],
        toolChoice: 'none',
        temperature: null,
        maxTokens: jev.settings.maxOutputTokens,
        effort: null,
        cacheablePrefixLen: system.length,
      };
      try {
        const response = await backend.chat(request, { signal });
        const text = response.text ?? '';
        const usage = accountableUsage(response.usage, utf8Bytes(system + user), utf8Bytes(text));
        const milli = effectiveMilli(usage);
        run.ledger.absorb(usage, milli);
        reservation?.commit(milli);
        deps.ports.reportCall?.(callRecord(who, backend.name, stamp, deps.now(), usage, usageTotal(response.usage) === 0, { kind: 'ok' }));
        deps.ports.diag.note('jev call', {
          agent: input.agent.id,
          purpose,
          ok: text.trim() !== '',
          prompt: usage.prompt,
          cached: usage.cacheRead,
          completion: usage.completion,
          model: jev.settings.model,
          backend: backend.name,
        });
        return text.trim() === '' ? { ok: false, reason: 'empty' } : { ok: true, text };
      } catch (error) {
        reservation?.refund();
        deps.ports.reportCall?.(callRecord(who, backend.name, stamp, deps.now(), ZERO_USAGE, false, failedOutcome(error, signal.aborted)));
        deps.ports.diag.note('jev call', { agent: input.agent.id, purpose, ok: false, code: codeOf(error) }, 'warn');
        return { ok: false, reason: codeOf(error) };
      }
    },
  };
}

function compressInstruction(language: Language, limit: number): string {
  return pick(
    language,
    `あなたはエージェントのためにツールの結果を圧縮します。依頼に答えるのに役立ちうる事実・数値・名前・パス・行番号・エラーはすべて残し、定型文と繰り返しを落としてください。圧縮した本文だけを ${limit} 文字以内で返してください。`,
    `You compress a tool result for an agent. Keep every fact, number, name, path, line reference and error that could matter for the request; drop boilerplate and repetition. Answer with the compressed text only, at most ${limit} characters.`,
  );
}

/**
 * The body the agent sees for a tool result over the threshold: Jev's summary with a one-line header, or — when
 * the helper is unavailable, fails, or returns nothing shorter — the result itself (plus one WARN line).
 */
export async function compressToolResult(
  run: TurnRun,
  port: HelperPort,
  call: { tool: string; round: number; body: string },
  signal: AbortSignal,
): Promise<{ body: string; original: ToolOriginal | null }> {
  const { input, deps } = run;
  const lang = input.language;
  const limit = Math.max(500, Math.floor(call.body.length / 4));
  const user = pick(lang, '依頼', 'Request') + `:\n${run.folded.slice(-COMPRESS_BASIS_CHARS)}\n\n` +
    pick(lang, `ツール ${call.tool} の結果（${call.body.length} 文字）`, `Result of tool ${call.tool} (${call.body.length} chars)`) + `:\n${call.body}`;
  const answer = await port.ask('compress', compressInstruction(lang, limit), user, signal);
  const summary = answer.ok ? answer.text.trim() : '';
  if (!answer.ok || summary.length >= call.body.length) {
    deps.ports.diag.note(
      'jev compress failed',
      { agent: input.agent.id, tool: call.tool, round: call.round, chars: call.body.length, reason: answer.ok ? 'not_shorter' : answer.reason },
      'warn',
    );
    return { body: call.body, original: null };
  }
  const head = pick(
    lang,
    `[Jev が ${call.body.length} 文字を ${summary.length} 文字に圧縮しました。元の結果は会話の記録に残っています]`,
    `[compressed by Jev from ${call.body.length} to ${summary.length} chars; the full result is kept in the session record]`,
  );
  const body = `${head}\n${summary}`;
  deps.ports.diag.note('jev compress', { agent: input.agent.id, tool: call.tool, round: call.round, chars: call.body.length, compressed_chars: body.length });
  return { body, original: { tool: call.tool, round: call.round, original: call.body, compressedChars: body.length } };
}

/** What the dispatcher calls after a tool of the box returned: the body the agent will see. */
export type ToolResultFilter = (tool: string, round: number, body: string) => Promise<string>;

/**
 * The compression step of this turn, or undefined when compression is off (no Jev, switched off, or pruning off).
 * Results at or under the threshold, and the judge's own answers, pass unchanged.
 */
export function toolResultCompressor(run: TurnRun, port: HelperPort | undefined): ToolResultFilter | undefined {
  const jev = run.deps.jev;
  if (jev === undefined || port === undefined || !jev.settings.enabled || !jev.settings.compression.enabled) return undefined;
  return async (tool, round, body) => {
    if (tool === 'judge' || body.length <= jev.settings.compression.thresholdChars) return body;
    const done = await compressToolResult(run, port, { tool, round, body }, run.deps.signal);
    if (done.original !== null) run.originals.push(done.original);
    return done.body;
  };
}
