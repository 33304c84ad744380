/**
 * What the chat list shows, as pure functions: messages and thin lines merged by time, narrowed to one servant's
 * conversation when the person filters, cut at the "clear the view" mark (a device-local, view-only cut: the
 * conversation itself is untouched), and consecutive messages of one sender grouped under one header.
 */
import { continuesFanOut } from './recipients.js';
import type { AgentMessage, Endpoint } from './types.js';
import type { ChatLine } from './view.js';

/**
 * One row of the chat list; `grouped` = same sender and recipients as the message right above (no header). A
 * message row is one message, or every copy of a fan-out: `to` lists all its recipients, `tokens` sums the copies'.
 */
export type ChatRow =
  | { kind: 'message'; tsMs: number; m: AgentMessage; to: Endpoint[]; tokens: number; grouped: boolean }
  | { kind: 'line'; tsMs: number; l: ChatLine };

/** Filter value meaning "every conversation". */
export const ALL = '';

/** localStorage keys (device-local, never in the village). */
export const CLEARED_KEY = 'fuseforks.chatCleared.v1';
export const FILTER_KEY = 'fuseforks.chatFilter.v1';

function endpointKey(e: Endpoint): string {
  if (e.kind === 'agent') return `agent:${e.id}`;
  if (e.kind === 'external') return `external:${e.client}`;
  return e.kind;
}

/** True when the message was sent by, to or alongside servant `agentId`. */
export function involves(m: AgentMessage, agentId: string): boolean {
  return (
    (m.from.kind === 'agent' && m.from.id === agentId) ||
    (m.to.kind === 'agent' && m.to.id === agentId) ||
    (m.coRecipients ?? []).includes(agentId)
  );
}

/**
 * The rows to show, oldest first: only those involving `filter` (ALL = every row), only those after `clearedAt`
 * (null = nothing cleared), the copies of one fan-out folded into one row, consecutive messages with the same sender
 * and recipients marked `grouped`.
 */
export function chatRows(messages: readonly AgentMessage[], lines: readonly ChatLine[], filter: string, clearedAt: number | null): ChatRow[] {
  const visible = (tsMs: number) => clearedAt === null || tsMs > clearedAt;
  const sorted: ChatRow[] = [
    ...messages.filter((m) => visible(m.tsMs) && (filter === ALL || involves(m, filter))).map((m): ChatRow => ({ kind: 'message', tsMs: m.tsMs, m, to: [m.to], tokens: m.tokens, grouped: false })),
    ...lines.filter((l) => visible(l.tsMs) && (filter === ALL || l.agentId === filter)).map((l): ChatRow => ({ kind: 'line', tsMs: l.tsMs, l })),
  ];
  sorted.sort((a, b) => a.tsMs - b.tsMs);
  const rows: ChatRow[] = [];
  for (const row of sorted) {
    const last = rows.at(-1);
    if (row.kind === 'message' && last?.kind === 'message' && continuesFanOut(last.m, row.m, last.to)) {
      last.to.push(row.m.to);
      last.tokens += row.tokens;
    } else rows.push(row);
  }
  let previous: Extract<ChatRow, { kind: 'message' }> | null = null;
  for (const row of rows) {
    if (row.kind === 'line') {
      previous = null;
      continue;
    }
    const m = row.m;
    row.grouped = previous !== null && m.from.kind !== 'system' && endpointKey(previous.m.from) === endpointKey(m.from) && recipientsKey(previous.to) === recipientsKey(row.to);
    previous = m.from.kind === 'system' ? null : row;
  }
  return rows;
}

function recipientsKey(to: readonly Endpoint[]): string {
  return to.map(endpointKey).join('|');
}

/** How many rows the clear mark hides (for the "N hidden — Show all" line), under the same filter. */
export function hiddenCount(messages: readonly AgentMessage[], lines: readonly ChatLine[], filter: string, clearedAt: number | null): number {
  if (clearedAt === null) return 0;
  return chatRows(messages, lines, filter, null).length - chatRows(messages, lines, filter, clearedAt).length;
}

/** Clear marks per conversation (session id, or "live" before any session): a corrupt entry reads as none. */
export function parseCleared(stored: string | null): Record<string, number> {
  let value: unknown = null;
  try {
    value = stored === null ? null : JSON.parse(stored);
  } catch {
    value = null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])));
}

/** The clear mark for "hide everything shown now": the newest timestamp among the rows (null when empty). */
export function clearMark(messages: readonly AgentMessage[], lines: readonly ChatLine[]): number | null {
  let newest: number | null = null;
  for (const x of [...messages, ...lines]) if (newest === null || x.tsMs > newest) newest = x.tsMs;
  return newest;
}
