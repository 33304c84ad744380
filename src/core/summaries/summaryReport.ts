/**
 * What a "summarize and continue" run reports (types only): the host answers it, the GUI and the CLI show it.
 */
import type { TokenTotals } from '../billing/tokenTotals.js';

/** One summarized agent. */
export interface SummaryRow {
  agentId: string;
  /** False for an empty summary (nothing folded). */
  folded: boolean;
  /** `longer`: the summary is at least as long as what it folds; `empty`: nothing was folded. */
  warning: 'empty' | 'longer' | null;
  summaryChars: number;
  foldedMsgs: number;
  foldedChars: number;
}

/** What a run did. */
export interface SummarizeReport {
  /** The conversation summarized (null: this village runs without a session store). */
  sessionId: string | null;
  /** The boundary: the summaries cover records up to this seq (null: no store, or nothing recorded yet). */
  coversUpToSeq: number | null;
  agents: SummaryRow[];
  /** Not running (not summarized), with nothing to fold, or whose call failed (with the code). */
  skipped: { stopped: string[]; nothing: string[]; failed: Array<{ agentId: string; code: string }> };
  /** Every summary call of the run (they also count in each agent's counters and in the stats). */
  tokens: TokenTotals;
}
