/**
 * Session metadata and the pure rules around it: id format, auto-title, validation on read.
 */
import type { SessionRecordBody } from './records.js';

/** Where a forked session came from: the source id and the last copied seq (inclusive). */
export interface ForkOrigin {
  sessionId: string;
  atSeq: number;
}

/** One session's metadata. Times are epoch ms; recordCount always equals the stored records (same txn). */
export interface SessionMeta {
  id: string;
  createdAtMs: number;
  updatedAtMs: number;
  /** Filled from the first user message (whitespace collapsed, 30 characters). */
  title?: string;
  forkedFrom?: ForkOrigin;
  recordCount: number;
}

/** Title length in characters (code points, not bytes). */
export const TITLE_MAX_CHARS = 30;

/** `{epoch_ms}-{8 hex}`; order is a reading convenience only — "latest" is decided by updatedAtMs. */
export function newSessionId(nowMs: number): string {
  // The Web Crypto global (Node ≥ 19, browsers): no node: import, so the GUI client can type-check this file.
  return `${nowMs}-${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`;
}

/** Whitespace collapsed, cut to `maxChars` code points. */
export function collapseAndCut(text: string, maxChars: number): string {
  const collapsed = text.trim().replace(/\s+/g, ' ');
  return Array.from(collapsed).slice(0, maxChars).join('');
}

/** The title a record gives a still-untitled session, or null (only a non-blank user message does). */
export function titleFrom(body: SessionRecordBody): string | null {
  if (body.kind !== 'message' || body.message.from.kind !== 'user') return null;
  const title = collapseAndCut(body.message.content, TITLE_MAX_CHARS);
  return title === '' ? null : title;
}

/** Validates a stored meta value; null when it is not one (the session is then not listed). */
export function checkMeta(value: unknown): SessionMeta | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  const nums = [m.createdAtMs, m.updatedAtMs, m.recordCount];
  if (typeof m.id !== 'string' || !nums.every((n) => typeof n === 'number' && Number.isFinite(n))) return null;
  if (m.title !== undefined && typeof m.title !== 'string') return null;
  if (m.forkedFrom !== undefined) {
    const f = m.forkedFrom as Record<string, unknown> | null;
    if (typeof f !== 'object' || f === null || typeof f.sessionId !== 'string' || typeof f.atSeq !== 'number') {
      return null;
    }
  }
  return value as SessionMeta;
}
