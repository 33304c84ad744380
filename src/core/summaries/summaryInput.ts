/**
 * What a summary folds for one agent (pure): its newest summary up to the boundary, and the exchanges after that
 * summary's bound up to the boundary — every one of them, not only the last history window, so nothing the agent
 * said since its previous summary is lost from the new one.
 */
import type { SeqRecord } from '../sessions/records.js';
import type { Exchange } from '../turn/ports.js';

/** One agent's input to a summary call. */
export interface SummaryInput {
  previous: string | null;
  history: Exchange[];
}

/** The previous summary and the unsummarized exchanges of `agentId` among `records` (ascending seq, ≤ boundary). */
export function summaryInput(records: readonly SeqRecord[], agentId: string): SummaryInput {
  let previous: { text: string; covers: number; seq: number } | null = null;
  for (const r of records) {
    if (r.kind === 'summary' && r.agentId === agentId && (previous === null || r.seq > previous.seq)) {
      previous = { text: r.text, covers: r.coversUpToSeq, seq: r.seq };
    }
  }
  const after = previous?.covers ?? -1;
  const history: Exchange[] = [];
  for (const r of records) {
    if (r.kind === 'exchange' && r.agentId === agentId && r.seq > after) history.push({ sent: r.sent, replied: r.replied });
  }
  return { previous: previous?.text ?? null, history };
}
