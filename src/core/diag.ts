/**
 * The diagnostic-note sink the core writes to. Implemented by the pino log on the main thread
 * (`log.ts`) and by a forwarding sink inside agent workers, so the core never imports pino.
 *
 * A note is a short kind (`turn`, `tool`, `reply`, `agent started`, …) plus flat structured fields, in the
 * original's field order. Never a message body, a prompt, a tool result or a secret: counts and markers only.
 */
/**
 * A sentence this code wrote on purpose — the reason a file or a connection failed, its fix, a file path — made with
 * `diagText`. The log guard keeps it as text (flattened, capped, keys redacted); a bare string with spaces is still
 * treated as a possible body and replaced by its size. A plain object, so it crosses the worker boundary.
 */
export interface DiagText {
  readonly diagText: string;
}

/** Marks `text` as a reason, fix or path to be kept in the log (never pass a message body, a prompt or a result). */
export function diagText(text: string): DiagText {
  return { diagText: text };
}

export type DiagValue = string | number | boolean | null | DiagText;
export type DiagFields = Record<string, DiagValue>;
export type DiagLevel = 'info' | 'warn' | 'error';

export interface DiagNote {
  kind: string;
  fields: DiagFields;
  level: DiagLevel;
}

export interface DiagSink {
  note(kind: string, fields?: DiagFields, level?: DiagLevel): void;
}

/** Renders a note as the original's single line: `kind: k=v k=v`. Used for stderr and grep parity. */
export function renderDiagLine(kind: string, fields: DiagFields = {}): string {
  const parts = Object.entries(fields).map(([k, v]) => `${k}=${v === null ? '-' : typeof v === 'object' ? v.diagText : String(v)}`);
  return parts.length === 0 ? kind : `${kind}: ${parts.join(' ')}`;
}

/** A sink that keeps notes in memory (tests, and workers batching to the main thread). */
export class MemoryDiagSink implements DiagSink {
  readonly notes: DiagNote[] = [];
  note(kind: string, fields: DiagFields = {}, level: DiagLevel = 'info'): void {
    this.notes.push({ kind, fields, level });
  }
}

export const nullDiagSink: DiagSink = { note() {} };
