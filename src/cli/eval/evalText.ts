/**
 * `eval` in words (pure): one table row per case, the failed verdicts of each case that did not pass (repeat,
 * expectation, reason), the unusable case files, and one summary line last.
 */
import type { CaseResult } from '../../core/evals/caseResult.js';
import type { EvalCaseProblem } from '../../core/evals/parseEvalCase.js';
import { problemText } from '../../core/evals/parseEvalCase.js';
import type { EvalRunRecord } from '../../host/hostApi.js';

const usd = (v: number | null): string => (v === null ? '—' : `$${v.toFixed(4)}`);

function pad(cells: string[][]): string[] {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}

function caseRow(c: CaseResult): string[] {
  const tokens = c.repeats.reduce((n, r) => n + r.effectiveTokens, 0);
  const priced = c.repeats.filter((r) => r.costUsd !== null);
  const cost = priced.length === 0 ? null : priced.reduce((n, r) => n + (r.costUsd ?? 0), 0);
  return [c.id, c.status.toUpperCase(), `${c.passed}/${c.repeat}`, c.passRate.toFixed(2), c.minPassRate.toFixed(2), String(tokens), usd(cost)];
}

function details(c: CaseResult): string[] {
  if (c.status === 'passed') return [];
  const lines = [`${c.id}:`];
  if (c.skipped !== null) lines.push(`  not fully run: ${c.skipped}`);
  for (const r of c.repeats) {
    for (const v of r.verdicts.filter((x) => !x.pass)) lines.push(`  repeat ${r.repeat}: ✗ ${v.expectation} — ${v.reason}`);
  }
  return lines;
}

/** The summary line. */
export function summaryLine(record: EvalRunRecord): string {
  const s = record.summary;
  const bad = record.problems.length > 0 ? `, ${record.problems.length} unusable file${record.problems.length === 1 ? '' : 's'}` : '';
  return (
    `${s.passed}/${s.cases} case${s.cases === 1 ? '' : 's'} passed (${s.failed} failed, ${s.skipped} not fully run${bad}) · ` +
    `${s.repeats} repeat${s.repeats === 1 ? '' : 's'} · ${s.effectiveTokens} effective tokens · ${usd(s.costUsd)} · ` +
    `${(s.durationMs / 1000).toFixed(1)} s · design ${record.digest.slice(0, 19)}${record.interrupted ? ' · interrupted' : ''}`
  );
}

/** The whole human report. */
export function evalText(record: EvalRunRecord): string {
  const lines: string[] = [];
  if (record.cases.length > 0) {
    lines.push(...pad([['case', 'status', 'passed', 'rate', 'min', 'tokens', 'cost'], ...record.cases.map(caseRow)]));
    const more = record.cases.flatMap(details);
    if (more.length > 0) lines.push('', ...more);
  }
  if (record.problems.length > 0) lines.push('', 'unusable case files:', ...record.problems.map((p: EvalCaseProblem) => `  ${problemText(p)} ${p.fix}`));
  lines.push('', summaryLine(record));
  return lines.join('\n').replace(/^\n/, '');
}
