/**
 * "Summarize and continue" over the running village (reference: the original's manual summarize). One run:
 * 1. the boundary — the last seq of the current conversation — is taken before anything is written;
 * 2. targets: the named agents (or all) that run; stopped ones are skipped and counted;
 * 3. per target with a non-empty history since its previous summary: one no-tools call on its own worker;
 * 4. a non-empty summary is stored as `summary{agentId, text, coversUpToSeq}`, the agent's history is folded and
 *    the summary rides in its prompt from the next turn on; an empty one folds nothing (WARN);
 * 5. one `summarize:` line per call, one System→User line per run.
 * Allowed while turns are in flight: a turn that ends after the boundary keeps its exchange in the history.
 * Originals are never deleted: the store and its export keep every exchange.
 */
import type { DiagSink } from '../core/diag.js';
import { isFuseforksError, toWire } from '../core/errors.js';
import { totalsOf } from '../core/billing/tokenTotals.js';
import type { SummarizeReport } from '../core/summaries/summaryReport.js';
import type { CallRecord } from '../core/sessions/records.js';
import { summaryInput } from '../core/summaries/summaryInput.js';
import { summaryNotice } from '../core/summaries/summaryVerdict.js';
import type { Supervisor } from '../actors/supervisor.js';
import type { SummaryCallRequest } from '../actors/summaryCall.js';
import type { HostSessions } from './hostSessions.js';
import type { SessionRecorder } from './sessionRecorder.js';

export type { SummarizeReport, SummaryRow } from '../core/summaries/summaryReport.js';

/** What a run needs of the host. */
export interface SummariesDeps {
  supervisor: Supervisor;
  sessions: HostSessions;
  recorder: SessionRecorder | null;
  diag: DiagSink;
}

/** Runs summaries one at a time (a second request waits for the first). */
export class Summaries {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: SummariesDeps) {}

  /** Summarizes `agentIds` (default: every agent of the world). */
  summarize(agentIds?: readonly string[]): Promise<SummarizeReport> {
    const run = this.queue.then(() => this.run(agentIds));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(agentIds: readonly string[] | undefined): Promise<SummarizeReport> {
    const { supervisor, sessions, recorder, diag } = this.deps;
    const world = supervisor.currentWorld();
    const store = sessions.store;
    const sessionId = sessions.currentId();
    // 1. The boundary, before anything is written (appends still on their way to disk count).
    const covers = store !== null && sessionId !== null ? store.lastAssignedSeq(sessionId) : null;
    const status = new Map(supervisor.statuses().map((s) => [s.agentId, s.status]));
    const wanted = agentIds ?? world.agents.map((a) => a.id);
    const running = wanted.filter((id) => status.get(id) === 'running');
    const stopped = wanted.filter((id) => status.get(id) !== 'running');
    const through = new Map(running.map((id) => [id, supervisor.summaryBoundary(id)]));

    // 2. What each target folds: from the store when there is one (every exchange since its previous summary).
    await recorder?.flush();
    const records = store !== null && sessionId !== null && covers !== null ? store.records(sessionId, 0, covers).records : null;

    const report: SummarizeReport = { sessionId, coversUpToSeq: covers, agents: [], skipped: { stopped, nothing: [], failed: [] }, tokens: totalsOf([]) };
    const calls: CallRecord[] = [];
    for (const agentId of running) {
      const input = records === null ? null : summaryInput(records, agentId);
      if (input !== null && input.history.length === 0) {
        report.skipped.nothing.push(agentId);
        continue;
      }
      const request: SummaryCallRequest = {
        history: input?.history ?? null,
        previous: input?.previous ?? null,
        throughTurnSeq: through.get(agentId) ?? 0,
      };
      let reply;
      try {
        reply = await supervisor.summarizeAgent(agentId, request);
      } catch (error) {
        // Stopped or crashed meanwhile: a skip with its reason, never a failed run.
        report.skipped.failed.push({ agentId, code: isFuseforksError(error) ? error.code : toWire(error).code });
        continue;
      }
      if (reply.kind === 'nothing') {
        report.skipped.nothing.push(agentId);
        continue;
      }
      if (reply.call !== null) calls.push(reply.call);
      if (reply.kind === 'failed') {
        report.skipped.failed.push({ agentId, code: reply.error.code });
        diag.note('summarize failed', { agent: agentId, code: reply.error.code }, 'warn');
        continue;
      }
      const warning = !reply.folded ? 'empty' : reply.text.length >= reply.foldedChars ? 'longer' : null;
      if (reply.folded && covers !== null && sessionId !== null) {
        await recorder?.appendSummary(agentId, reply.text, covers);
        sessions.noteSummary(sessionId, agentId, reply.text, covers);
      }
      diag.note(
        'summarize',
        {
          agent: agentId,
          model: reply.call.model,
          covers_up_to: covers ?? '-',
          folded_msgs: reply.foldedMsgs,
          folded_chars: reply.foldedChars,
          summary_chars: reply.text.length,
          prompt: reply.call.prompt,
          cached: reply.call.cached,
          total: reply.call.prompt + reply.call.completion,
          ...(warning === null ? {} : { warn: warning }),
          ...(reply.unread > 0 ? { unread_exchanges: reply.unread } : {}),
        },
        warning === null ? 'info' : 'warn',
      );
      report.agents.push({
        agentId,
        folded: reply.folded,
        warning,
        summaryChars: reply.text.length,
        foldedMsgs: reply.foldedMsgs,
        foldedChars: reply.foldedChars,
      });
    }
    report.tokens = totalsOf(calls);
    const nameOf = (id: string): string => world.agents.find((a) => a.id === id)?.name ?? id;
    const summarized = report.agents.filter((a) => a.folded).length;
    if (summarized > 0 || stopped.length > 0) supervisor.notice(summaryNotice(world.language, summarized, stopped.filter((id) => world.agents.some((a) => a.id === id)).map(nameOf)));
    return report;
  }
}
