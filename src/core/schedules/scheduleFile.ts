/**
 * schedules.json as text ↔ rows (reference/ops.md §2.1, SPEC §3). Pure: no file access here.
 *
 * - The original writes a JSON array. An object holding a `schedules` array (a newer shape) is also read, and its
 *   other keys are kept on rewrite, so unknown keys survive at file level as well as row level.
 * - A row that fails to read is left out of the schedules (one note naming the row) but KEPT VERBATIM in the file
 *   on rewrite: a row a newer build wrote, or a typo a person can fix, is never silently destroyed.
 * - Text that is not JSON, or JSON of another shape, is a block: the caller keeps no schedules and never writes.
 */
import { findJsonError } from '../village/jsonErrorPosition.js';
import { parseScheduleRow, serializeRow, type RowProblem } from './scheduleRow.js';
import type { ScheduledTask } from './types.js';

/** One row of the file: a schedule read from it, or a row kept as it was because it could not be read. */
export type FileRow =
  | { kind: 'task'; task: ScheduledTask; raw: Record<string, unknown> }
  | { kind: 'kept'; raw: unknown };

/** Top level of the file: the original's bare array, or an object with a `schedules` array and other keys. */
export type FileShape = { kind: 'array' } | { kind: 'object'; extras: Record<string, unknown> };

/** A row that was not loaded: 0-based index in the file, its id if readable, and what was wrong. */
export interface DroppedRow {
  index: number;
  id: string | null;
  problem: RowProblem;
}

/** Why a file is blocked: the position (1-based line:column, or 0:0 for a shape problem) and the reason. */
export interface FileBlock {
  line: number;
  column: number;
  reason: string;
}

/** Result of reading the whole text. */
export type ParsedFile =
  | { ok: true; shape: FileShape; rows: FileRow[]; dropped: DroppedRow[] }
  | { ok: false; block: FileBlock };

/** Reads the text of schedules.json. An empty or whitespace-only file reads as no schedules. */
export function parseScheduleFile(text: string): ParsedFile {
  if (text.trim() === '') return { ok: true, shape: { kind: 'array' }, rows: [], dropped: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const at = findJsonError(text);
    return {
      ok: false,
      block: at === null ? { line: 0, column: 0, reason: 'not valid JSON' } : { line: at.line, column: at.column, reason: at.reason },
    };
  }
  let shape: FileShape;
  let list: unknown;
  if (Array.isArray(value)) {
    shape = { kind: 'array' };
    list = value;
  } else if (typeof value === 'object' && value !== null && Array.isArray((value as Record<string, unknown>).schedules)) {
    // Keep the whole object: its key order and every other key come back on rewrite.
    shape = { kind: 'object', extras: value as Record<string, unknown> };
    list = (value as Record<string, unknown>).schedules;
  } else {
    return { ok: false, block: { line: 1, column: 1, reason: 'the top level must be a JSON array of schedules' } };
  }
  const rows: FileRow[] = [];
  const dropped: DroppedRow[] = [];
  const seen = new Set<string>();
  (list as unknown[]).forEach((item, index) => {
    const result = parseScheduleRow(item);
    if (!result.ok) {
      dropped.push({ index, id: result.id, problem: result.problem });
      rows.push({ kind: 'kept', raw: item });
      return;
    }
    if (seen.has(result.task.id)) {
      dropped.push({ index, id: result.task.id, problem: { field: 'id', message: 'id appears twice; the first row wins' } });
      rows.push({ kind: 'kept', raw: item });
      return;
    }
    seen.add(result.task.id);
    rows.push({ kind: 'task', task: result.task, raw: result.raw });
  });
  return { ok: true, shape, rows, dropped };
}

/** The file text for these rows: 2-space pretty JSON in the same top-level shape, no trailing newline. */
export function renderScheduleFile(shape: FileShape, rows: readonly FileRow[]): string {
  const list = rows.map((row) => (row.kind === 'task' ? serializeRow(row.task, row.raw) : row.raw));
  const top = shape.kind === 'array' ? list : { ...shape.extras, schedules: list };
  return JSON.stringify(top, null, 2);
}
