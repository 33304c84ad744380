/**
 * The host's diagnostic log seam: `fuseforks.log` in the workspace plus the stderr mirror the caller chose
 * (`none` | `human` | `jsonl`). Opened only AFTER the village lock is held, so a refused start never writes a line
 * into the holder's log.
 *
 * Interim writer until `src/core/log.ts` (pino) lands: one JSON object per line in the file
 * (`time`, `level`, `msg` = the note kind, the flat fields, and `line` = the rendered `kind: k=v` text for grep
 * parity), synchronous appends, rotation to `fuseforks.log.old` at 8 MiB. The host only ever talks to `HostLog`,
 * so swapping the writer is one function.
 */
import { appendFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { renderDiagLine, type DiagFields, type DiagLevel, type DiagSink } from '../core/diag.js';

/** How log notes are mirrored on stderr: not at all, `[fuseforks] line`, or `{"type":"log","message":…}`. */
export type LogStderrMode = 'none' | 'human' | 'jsonl';

/** Rotation threshold of fuseforks.log (bytes). */
export const LOG_ROTATE_BYTES = 8 * 1024 * 1024;

/** An open diagnostic log. */
export interface HostLog extends DiagSink {
  /** Absolute path of fuseforks.log. */
  readonly path: string;
  /** Stops writing (later notes are dropped). Idempotent. */
  close(): void;
}

/** Where stderr lines go (process.stderr in the binary). */
export type StderrWrite = (text: string) => void;

/** Opens `{workspace}/fuseforks.log`. Write failures are swallowed: a log must never take the village down. */
export function openHostLog(workspaceDir: string, stderrMode: LogStderrMode, stderr: StderrWrite = (t) => void process.stderr.write(t)): HostLog {
  const path = join(workspaceDir, 'fuseforks.log');
  let open = true;
  const write = (kind: string, fields: DiagFields, level: DiagLevel): void => {
    if (!open) return;
    const line = renderDiagLine(kind, fields);
    try {
      if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) >= LOG_ROTATE_BYTES) renameSync(path, `${path}.old`);
    } catch {
      // rotation is best effort
    }
    try {
      appendFileSync(path, `${JSON.stringify({ time: Date.now(), level, msg: kind, ...fields, line })}\n`);
    } catch {
      // swallowed on purpose (reference core.md §5)
    }
    if (stderrMode === 'human') stderr(`[fuseforks] ${level === 'info' ? '' : `${level.toUpperCase()} `}${line}\n`);
    else if (stderrMode === 'jsonl') stderr(`${JSON.stringify({ type: 'log', message: line })}\n`);
  };
  return {
    path,
    note(kind: string, fields: DiagFields = {}, level: DiagLevel = 'info'): void {
      write(kind, fields, level);
    },
    close(): void {
      open = false;
    },
  };
}
