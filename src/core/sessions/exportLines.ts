/**
 * The JSONL export format (pure): line 1 `{"session":{"id":…,"meta":{…}}}`, then one line per record,
 * `{"seq":N,"kind":…,<record fields>}`. The schema version `v` is kept so an export says what it is.
 */
import type { SeqRecord } from './records.js';
import type { SessionMeta } from './sessionMeta.js';

/** Renders the whole export file (UTF-8 text, `\n` after every line). */
export function exportLines(meta: SessionMeta, records: readonly SeqRecord[]): string {
  const { id, ...rest } = meta;
  const lines = [JSON.stringify({ session: { id, meta: rest } })];
  for (const record of records) {
    const { seq, kind, ...fields } = record;
    lines.push(JSON.stringify({ seq, kind, ...fields }));
  }
  return `${lines.join('\n')}\n`;
}
