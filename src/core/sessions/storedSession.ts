/**
 * One stored conversation as the management faces show it (pure, apart from reading through the store): its meta,
 * every readable record, and the digest `sessions show` prints. The same function reads through the owner's store
 * (`HostApi.readSession`) and through a read-only reader beside a running owner, so both answer the same thing.
 */
import type { AgentMessage, Endpoint } from '../events.js';
import type { SeqRecord, SkipCounts } from './records.js';
import type { SessionMeta } from './sessionMeta.js';
import type { SessionStore } from './sessionStore.js';

/** A conversation's meta and every record that could be read, oldest first. */
export interface StoredSession {
  meta: SessionMeta;
  records: SeqRecord[];
  /** Records left out because they are from a newer build or damaged. */
  skipped: SkipCounts;
}

/** What `sessions show` prints: the meta, record counts, the messages and the summaries, each with its seq. */
export interface SessionShow {
  session: SessionMeta;
  counts: { records: number; messages: number; exchanges: number; summaries: number; turns: number; calls: number };
  skipped: SkipCounts;
  /** Fork points: `sessions fork ID --at SEQ` copies every record up to that seq. */
  lastSeq: number | null;
  messages: Array<AgentMessage & { seq: number }>;
  summaries: Array<{ seq: number; agentId: string; coversUpToSeq: number; text: string }>;
}

/** Reads `id` (SESSION_NOT_FOUND from the store). */
export function readStoredSession(store: Pick<SessionStore, 'open' | 'records'>, id: string): StoredSession {
  const meta = store.open(id);
  const { records, skipped } = store.records(id);
  return { meta, records, skipped };
}

/** The digest of a stored conversation. */
export function showOf(stored: StoredSession): SessionShow {
  const counts = { records: stored.records.length, messages: 0, exchanges: 0, summaries: 0, turns: 0, calls: 0 };
  const messages: SessionShow['messages'] = [];
  const summaries: SessionShow['summaries'] = [];
  for (const record of stored.records) {
    switch (record.kind) {
      case 'message':
        counts.messages += 1;
        messages.push({ ...record.message, seq: record.seq });
        break;
      case 'summary':
        counts.summaries += 1;
        summaries.push({ seq: record.seq, agentId: record.agentId, coversUpToSeq: record.coversUpToSeq, text: record.text });
        break;
      case 'exchange':
        counts.exchanges += 1;
        break;
      case 'turn':
        counts.turns += 1;
        break;
      case 'call':
        counts.calls += 1;
        break;
    }
  }
  const last = stored.records.at(-1);
  return { session: stored.meta, counts, skipped: stored.skipped, lastSeq: last === undefined ? null : last.seq, messages, summaries };
}

/** A message end for people: `user`, `system`, the agent id, or `external:{client}`. */
export function endpointLabel(endpoint: Endpoint): string {
  switch (endpoint.kind) {
    case 'agent':
      return endpoint.id;
    case 'external':
      return `external:${endpoint.client}`;
    default:
      return endpoint.kind;
  }
}

/** SESSION_STORE_FAILED: the village opened without its session store (the factory is in the error catalogue). */
export { noSessionStore } from '../errors/sessionErrors.js';
