/**
 * Stats of a village read from its session store: the usage records of the conversations in scope, folded by the
 * pure `aggregateStats` and priced with the village's templates. Shared by the running host (GUI, library) and
 * `fuseforks-cli stats`, which reads beside a running owner.
 */
import { priceBook } from '../../core/billing/pricing.js';
import type { CallRecord, TurnRecord } from '../../core/sessions/records.js';
import type { SessionReader } from '../../core/sessions/openSessionReader.js';
import type { SessionMeta } from '../../core/sessions/sessionMeta.js';
import { aggregateStats, type SessionUsage } from '../../core/stats/aggregateStats.js';
import type { StatsReport, StatsScope } from '../../core/stats/statsReport.js';
import type { ModelTemplate } from '../../core/world/types.js';

/** The turn and call records of one conversation (SESSION_NOT_FOUND for an unknown id). */
function usageOf(reader: SessionReader, meta: SessionMeta): SessionUsage {
  const turns: TurnRecord[] = [];
  const calls: CallRecord[] = [];
  for (const r of reader.records(meta.id).records) {
    if (r.kind === 'turn') turns.push(r);
    else if (r.kind === 'call') calls.push(r);
  }
  return { meta, turns, calls };
}

/** The report of `scope`; without a store (`reader` null) every scope has "no records". */
export function readStats(reader: SessionReader | null, scope: StatsScope, templates: readonly ModelTemplate[]): StatsReport {
  const usage: SessionUsage[] = [];
  if (reader !== null) {
    const metas = reader.list();
    const chosen = scope.kind === 'session' ? metas.filter((m) => m.id === scope.sessionId) : metas;
    // An unknown id reads through the store, which names it (SESSION_NOT_FOUND).
    if (scope.kind === 'session' && chosen.length === 0) reader.records(scope.sessionId);
    for (const meta of chosen) usage.push(usageOf(reader, meta));
  }
  return aggregateStats(usage, scope, priceBook(templates));
}
