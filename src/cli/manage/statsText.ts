/**
 * `fuseforks-cli stats` for people (pure): the tiles, the table per agent × model, how turns ended and the ≈ cost,
 * as plain aligned text. "No records" is said, never a page of zeros.
 */
import type { StatsReport, StatsSlice } from '../../core/stats/statsReport.js';

const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const pct = (r: number | null): string => (r === null ? '-' : `${Math.round(r * 100)}%`);
const secs = (ms: number | null): string => (ms === null ? '-' : `${(ms / 1000).toFixed(1)} s`);

/** USD with enough digits to be readable for small bills. */
export function usd(value: number): string {
  return value >= 1 ? `$${value.toFixed(2)}` : `$${value.toPrecision(2)}`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 || i === 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd());
}

const LABEL = 18;
const row = (label: string, value: string): string => `${label.padEnd(LABEL)}${value}`;

function tiles(t: StatsSlice): string[] {
  return [
    row('turns', `${int(t.turns)}${t.failed > 0 ? ` (${int(t.failed)} failed)` : ''}`),
    row('effective tokens', int(t.effective)),
    row('input', `${int(t.prompt)} (cache ${pct(t.cacheRate)})`),
    row('output', `${int(t.completion)}${t.reasoning > 0 ? ` (thinking ${int(t.reasoning)})` : ''}`),
    row('per turn', t.avgEffectivePerTurn === null ? '-' : `${int(t.avgEffectivePerTurn)} effective (output ${pct(t.outputShare)})`),
    row('latency', secs(t.avgLatencyMs)),
  ];
}

/** The whole human report. `title` names the scope ("conversation X", "all conversations since …"). */
export function statsText(report: StatsReport, title: string): string {
  if (!report.hasRecords) return `${title}: no records (usage is recorded from this build on).`;
  const lines = [title, ...tiles(report.totals)];
  const c = report.cost;
  lines.push(
    c === null || c.usd === null
      ? row('cost', 'unpriced (no template in use has input and output prices)')
      : row('cost', `≈ ${usd(c.usd)}${c.asOf === null ? '' : ` (prices as of ${c.asOf})`}, ${c.pricedRows} of ${c.totalRows} calls priced (${pct(c.totalTokens === 0 ? null : c.pricedTokens / c.totalTokens)} of tokens)`),
  );
  lines.push('');
  lines.push(
    ...table([
      ['agent', 'model', 'turns', 'failed', 'effective', 'avg/turn', 'cache', 'output', 'latency'],
      ...report.byAgent.map((r) => [r.agentId, r.model, int(r.turns), int(r.failed), int(r.effective), r.avgEffectivePerTurn === null ? '-' : int(r.avgEffectivePerTurn), pct(r.cacheRate), pct(r.outputShare), secs(r.avgLatencyMs)]),
    ]),
  );
  if (report.byStop.length > 0) {
    lines.push('', `how turns ended: ${report.byStop.map((s) => `${s.stop === 'completed' ? 'completed' : s.code === null ? s.stop : `${s.stop}:${s.code}`} ${s.count}`).join(' · ')}`);
  }
  return lines.join('\n');
}
