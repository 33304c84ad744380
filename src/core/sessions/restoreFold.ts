/**
 * Restore as a pure fold over a session's records (oldest first): the message tail for the log ring, each
 * agent's history window, and each agent's newest summary. Histories come from `exchange` records only,
 * never from messages: the stored `sent` is the exact folded string the model saw, which no message holds.
 */
import type { AgentMessage } from '../events.js';
import type { Exchange } from '../turn/ports.js';
import type { SeqRecord, SkipCounts } from './records.js';

/** Log ring capacity (messages) and history window (exchanges per agent), as the original's defaults. */
export const DEFAULT_LOG_CAPACITY = 5000;
export const DEFAULT_HISTORY_TURNS = 8;

export interface RestoreLimits {
  logCapacity: number;
  historyTurns: number;
}

/** An agent's newest summary; exchanges with seq ≤ coversUpToSeq are folded into it. */
export interface RestoredSummary {
  text: string;
  coversUpToSeq: number;
}

export interface RestoreCounts {
  /** Messages in logTail. */
  messages: number;
  /** Agents with a non-empty history. */
  histories: number;
  /** Agents with a summary. */
  summaries: number;
  /** Turn records seen (never restored into anything). */
  turns: number;
  skipped: SkipCounts;
}

export interface RestoredSession {
  logTail: AgentMessage[];
  histories: Map<string, Exchange[]>;
  summaries: Map<string, RestoredSummary>;
  counts: RestoreCounts;
}

/** Folds records (ascending seq) into what a village needs to resume. `skipped` is passed through. */
export function foldRestore(records: Iterable<SeqRecord>, limits: RestoreLimits, skipped: SkipCounts): RestoredSession {
  const logTail: AgentMessage[] = [];
  const exchanges = new Map<string, { seq: number; exchange: Exchange }[]>();
  const summaries = new Map<string, RestoredSummary & { seq: number }>();
  let turns = 0;
  for (const record of records) {
    switch (record.kind) {
      case 'message':
        logTail.push(record.message);
        // Trim in chunks so a long session stays linear rather than shifting on every push.
        if (logTail.length > limits.logCapacity * 2) logTail.splice(0, logTail.length - limits.logCapacity);
        break;
      case 'exchange': {
        const list = exchanges.get(record.agentId) ?? [];
        list.push({ seq: record.seq, exchange: { sent: record.sent, replied: record.replied } });
        if (list.length > limits.historyTurns * 4) list.splice(0, list.length - limits.historyTurns);
        exchanges.set(record.agentId, list);
        break;
      }
      case 'summary': {
        const prev = summaries.get(record.agentId);
        if (prev === undefined || record.seq > prev.seq) {
          summaries.set(record.agentId, { seq: record.seq, text: record.text, coversUpToSeq: record.coversUpToSeq });
        }
        break;
      }
      case 'turn':
        turns += 1;
        break;
      case 'call':
        break;
    }
  }
  if (logTail.length > limits.logCapacity) logTail.splice(0, logTail.length - limits.logCapacity);

  const histories = new Map<string, Exchange[]>();
  for (const [agentId, list] of exchanges) {
    const covers = summaries.get(agentId)?.coversUpToSeq ?? -1;
    const kept = list.filter((e) => e.seq > covers);
    const window = limits.historyTurns <= 0 ? [] : kept.slice(-limits.historyTurns);
    // A zero window is legal (history off): keep only agents that actually have turns.
    if (window.length > 0) histories.set(agentId, window.map((e) => e.exchange));
  }
  const plainSummaries = new Map<string, RestoredSummary>();
  for (const [agentId, s] of summaries) plainSummaries.set(agentId, { text: s.text, coversUpToSeq: s.coversUpToSeq });

  return {
    logTail,
    histories,
    summaries: plainSummaries,
    counts: {
      messages: logTail.length,
      histories: histories.size,
      summaries: plainSummaries.size,
      turns,
      skipped,
    },
  };
}
