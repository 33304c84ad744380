/**
 * The diagnostic log, `workspace/fuseforks.log` — the only pino import in core. One JSON object per line:
 * `level` (label), `time` (epoch ms), `msg` = the note kind (`"msg":"turn"`), the note's fields flat and in
 * order, and `line` = the rendered `kind: k=v …` text (with a `WARN `/`ERROR ` prefix) so a grep for the
 * original's line format still works. Writes are synchronous (a crash loses nothing already noted).
 * Rotation: before a write, when the file has reached the threshold (8 MiB), it is renamed to
 * `fuseforks.log.old` (one generation) and a fresh file is started. Write failures are swallowed: the log
 * must never take the village down. Every field passes `guardDiagFields` first (no bodies, no secrets).
 *
 * The first line of every open is `started` (pid); the rest of the startup band is `startupBand.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { renderDiagLine, type DiagFields, type DiagLevel, type DiagSink } from './diag.js';
import { guardDiagFields } from './logGuard.js';
import { makePrivateDirSync, PRIVATE_FILE_MODE } from './privateFiles.js';

/** How notes are mirrored on stderr: not at all, `[fuseforks] <line>`, or `{"type":"log","message":<line>}`. */
export type LogStderrMode = 'none' | 'human' | 'jsonl';

/** Default rotation threshold (bytes). */
export const LOG_ROTATE_BYTES = 8 * 1024 * 1024;
export const LOG_FILE = 'fuseforks.log';
export const LOG_OLD_FILE = 'fuseforks.log.old';

export interface OpenDiagLogOptions {
  workspaceDir: string;
  stderrMode: LogStderrMode;
  /** Lowest level mirrored on stderr (default info: every note); the file always gets every note. */
  stderrLevel?: DiagLevel;
  /** Rotation threshold in bytes (tests use a small one). */
  rotateBytes?: number;
  /** Where stderr lines go; defaults to process.stderr. */
  stderr?: (text: string) => void;
}

/** An open diagnostic log: a DiagSink plus its path and close(). */
export interface DiagLog extends DiagSink {
  readonly path: string;
  /** Closes the file; later notes are dropped. Idempotent. */
  close(): void;
}

const LEVEL_RANK: Record<DiagLevel, number> = { info: 0, warn: 1, error: 2 };

/** True when a note at `level` passes a `min` threshold. Pure. */
export function atLeast(level: DiagLevel, min: DiagLevel): boolean {
  return LEVEL_RANK[level] >= LEVEL_RANK[min];
}

/** The `line` text of a note: the original's format, with the level in front when it is not info. */
export function renderLogLine(kind: string, fields: DiagFields, level: DiagLevel): string {
  const line = renderDiagLine(kind, fields);
  return level === 'info' ? line : `${level.toUpperCase()} ${line}`;
}

/** A synchronous append-only file that rotates to `.old` once it has reached `rotateBytes`. */
class RotatingFile {
  private fd: number | null;
  private size: number;

  constructor(
    private readonly file: string,
    private readonly rotateBytes: number,
  ) {
    makePrivateDirSync(path.dirname(file));
    this.fd = fs.openSync(file, 'a', PRIVATE_FILE_MODE);
    this.size = fs.fstatSync(this.fd).size;
  }

  write(chunk: string): void {
    if (this.fd === null) return;
    try {
      if (this.size >= this.rotateBytes) this.rotate();
      const bytes = Buffer.from(chunk, 'utf8');
      fs.writeSync(this.fd, bytes);
      this.size += bytes.length;
    } catch {
      // Swallowed by design (disk full, file removed under us): diagnostics never stop the village.
    }
  }

  close(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
  }

  private rotate(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
    fs.renameSync(this.file, path.join(path.dirname(this.file), LOG_OLD_FILE));
    this.fd = fs.openSync(this.file, 'a', PRIVATE_FILE_MODE);
    this.size = 0;
  }
}

/** Opens `workspace/fuseforks.log` and writes the `started` line. Call only after the village lock is held. */
export function openDiagLog(options: OpenDiagLogOptions): DiagLog {
  const file = path.join(options.workspaceDir, LOG_FILE);
  const sink = new RotatingFile(file, options.rotateBytes ?? LOG_ROTATE_BYTES);
  const stderr = options.stderr ?? ((text: string) => void process.stderr.write(text));
  const logger: Logger = pino(
    {
      base: null,
      level: 'info',
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: (chunk: string) => sink.write(chunk) },
  );
  let open = true;

  const log: DiagLog = {
    path: file,
    note(kind: string, fields: DiagFields = {}, level: DiagLevel = 'info'): void {
      if (!open) return;
      const safe = guardDiagFields(fields);
      const line = renderLogLine(kind, safe, level);
      logger[level]({ ...safe, line }, kind);
      if (!atLeast(level, options.stderrLevel ?? 'info')) return;
      if (options.stderrMode === 'human') stderr(`[fuseforks] ${line}\n`);
      else if (options.stderrMode === 'jsonl') stderr(`${JSON.stringify({ type: 'log', message: line })}\n`);
    },
    close(): void {
      if (!open) return;
      open = false;
      sink.close();
    },
  };
  log.note('started', { pid: process.pid });
  return log;
}
