/**
 * `fuseforks-cli sessions …` for people (pure): the conversation list as a table, one conversation as numbered
 * lines (the numbers are the seqs `sessions fork --at` takes), the fork and summarize results as one line each.
 */
import type { SessionMeta } from '../../core/sessions/sessionMeta.js';
import { endpointLabel, type SessionShow } from '../../core/sessions/storedSession.js';
import type { SummarizeReport } from '../../core/summaries/summaryReport.js';

/** `2026-12-03 02:41` in UTC, so two machines print the same line for the same record. */
function when(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

function forkNote(meta: SessionMeta): string {
  return meta.forkedFrom === undefined ? '' : `forked from ${meta.forkedFrom.sessionId} at #${meta.forkedFrom.atSeq}`;
}

/** The list, newest first: id, last update (UTC), records, title, fork origin. */
export function sessionListText(metas: readonly SessionMeta[]): string {
  if (metas.length === 0) return 'no conversations yet (the first ask or GUI message starts one)';
  const rows = [['id', 'updated (UTC)', 'records', 'title'], ...metas.map((m) => [m.id, when(m.updatedAtMs), String(m.recordCount), [m.title ?? '', forkNote(m)].filter(Boolean).join(' · ')])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

/** Continuation lines of a multi-line text, indented under its first line. */
function indent(text: string, width: number): string {
  return text.split('\n').join(`\n${' '.repeat(width)}`);
}

/** One conversation: a header, then messages and summaries in seq order. */
export function sessionShowText(show: SessionShow): string {
  const s = show.session;
  const c = show.counts;
  const lines = [
    `conversation ${s.id}${s.title === undefined ? '' : ` "${s.title}"`}`,
    `created ${when(s.createdAtMs)} UTC, updated ${when(s.updatedAtMs)} UTC${s.forkedFrom === undefined ? '' : `, ${forkNote(s)}`}`,
    `${c.records} records: ${c.messages} messages, ${c.exchanges} exchanges, ${c.summaries} summaries, ${c.turns} turns, ${c.calls} calls` +
      (show.skipped.futureVersion + show.skipped.malformed > 0 ? ` (${show.skipped.futureVersion + show.skipped.malformed} unreadable, left out)` : ''),
  ];
  const entries: Array<{ seq: number; line: string }> = [];
  for (const m of show.messages) {
    const head = `#${m.seq}  ${when(m.tsMs)}  ${endpointLabel(m.from)} → ${endpointLabel(m.to)}: `;
    entries.push({ seq: m.seq, line: `${head}${indent(m.content, head.length)}` });
  }
  for (const sum of show.summaries) {
    const head = `#${sum.seq}  summary of ${sum.agentId} (covers up to #${sum.coversUpToSeq}): `;
    entries.push({ seq: sum.seq, line: `${head}${indent(sum.text, head.length)}` });
  }
  entries.sort((a, b) => a.seq - b.seq);
  if (entries.length > 0) lines.push('', ...entries.map((e) => e.line));
  return lines.join('\n');
}

/** The new conversation a fork made. */
export function forkLine(meta: SessionMeta): string {
  const from = meta.forkedFrom;
  return `${meta.id} (${meta.recordCount} records${from === undefined ? '' : `, copied from ${from.sessionId} up to #${from.atSeq}`})`;
}

/** What a summarize run did, one line per agent. */
export function summarizeText(report: SummarizeReport): string {
  const lines = [`conversation ${report.sessionId ?? '(no session store)'}, up to #${report.coversUpToSeq ?? '-'}`];
  for (const a of report.agents) {
    const what = a.folded ? `folded ${a.foldedMsgs} messages (${a.foldedChars} chars) into a ${a.summaryChars}-char summary` : 'empty summary, nothing folded';
    lines.push(`${a.agentId}: ${what}${a.warning === 'longer' ? ' (the summary is not shorter than what it folds)' : ''}`);
  }
  for (const id of report.skipped.nothing) lines.push(`${id}: nothing new to fold`);
  for (const id of report.skipped.stopped) lines.push(`${id}: not running, skipped`);
  for (const f of report.skipped.failed) lines.push(`${f.agentId}: failed (${f.code})`);
  lines.push(`tokens: ${report.tokens.prompt} in, ${report.tokens.completion} out`);
  return lines.join('\n');
}
