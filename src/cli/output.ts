/**
 * The one renderer of fuseforks-cli (STYLE 11): stdout carries only the answer (`ask`) or the findings
 * (`check`); stderr carries notes, as human text or — under `--events jsonl` — one JSON object per line of
 * exactly three kinds: a CoreEvent, `{"type":"cli",level,code,message,fix?,fault?}`, `{"type":"log",message,source?}`.
 */
import { faultOf, type ErrorFault } from '../core/errorFaults.js';
import { isErrorCode } from '../core/errors.js';
import type { CoreEvent } from '../core/events.js';
import type { AskReport } from './ask/askReport.js';
import type { Finding } from '../core/preflight/finding.js';
import type { Language } from '../core/world/types.js';
import { jsonText } from './jsonFormat.js';
import { processReply } from './replyLedger.js';

/** The last stderr line of `ask --events jsonl`: how the request ended (the `ask --json` object, typed). */
export type OutcomeLine = { type: 'outcome' } & AskReport;

/** How stderr is written. */
export type StderrMode = 'human' | 'jsonl';

/** Where the renderer writes; `process.stdout` / `process.stderr` in the binary, arrays in tests. */
export interface OutputStreams {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** A CLI note on stderr: an error, a warning or a plain piece of information. */
export interface CliNote {
  level: 'error' | 'warn' | 'info';
  /** An error code, a finding code, or a short CLI code such as `ARGUMENT`. */
  code: string;
  message: string;
  fix?: string;
}

/** Who is at fault for a note's code: an error code's row in ERROR_FAULTS, the person for ARGUMENT, else none. */
export function noteFault(code: string): ErrorFault | undefined {
  if (isErrorCode(code)) return faultOf(code);
  return code === 'ARGUMENT' ? 'user' : undefined;
}

/** The JSON form of a CLI note (`{"type":"cli",…}`); `fix` only when present, `fault` only for an error code. */
export function cliLine(note: CliNote): string {
  const line: Record<string, string> = { type: 'cli', level: note.level, code: note.code, message: note.message };
  if (note.fix !== undefined && note.fix !== '') line.fix = note.fix;
  const fault = noteFault(note.code);
  if (fault !== undefined) line.fault = fault;
  return JSON.stringify(line);
}

/** The JSON form of a log line (`{"type":"log",…}`), e.g. a diag note or an MCP child's stderr line. */
export function logLine(message: string, source?: string): string {
  return JSON.stringify(source === undefined ? { type: 'log', message } : { type: 'log', message, source });
}

/** The human form of a CLI note: `error [CODE] message` and an indented fix line. */
export function humanNote(note: CliNote): string {
  const head = `${note.level} [${note.code}] ${note.message}`;
  return note.fix ? `${head}\n  fix: ${note.fix}` : head;
}

/** `check --json`: exactly one line `{"format":1,"findings":[…],"start":[ids]}`. */
export function renderFindingsJson(findings: readonly Finding[], start: readonly string[]): string {
  return jsonText({
    findings: findings.map((f) => ({ level: f.level, code: f.code, message: f.message, fix: f.fix })),
    start: [...start],
  });
}

const LEVEL_WORD: Record<Language, Record<Finding['level'], string>> = {
  ja: { reject: '拒否', warn: '警告', info: '情報' },
  en: { reject: 'reject', warn: 'warn', info: 'info' },
};

/** `check` for people: two lines per finding, then one count line, in the village language. */
export function renderFindingsHuman(findings: readonly Finding[], language: Language): string {
  const words = LEVEL_WORD[language];
  const lines: string[] = [];
  for (const f of findings) {
    lines.push(`[${words[f.level]}] ${f.code}: ${f.message}`);
    lines.push(`  → ${f.fix}`);
  }
  const count = (level: Finding['level']): number => findings.filter((f) => f.level === level).length;
  lines.push(
    language === 'ja'
      ? `拒否 ${count('reject')} 件・警告 ${count('warn')} 件・情報 ${count('info')} 件`
      : `${count('reject')} reject, ${count('warn')} warn, ${count('info')} info`,
  );
  return lines.join('\n');
}

/** The default streams: the process's own. Only the CLI layer may write to stdout. */
export const processStreams: OutputStreams = {
  stdout: (text) => {
    processReply.stdoutWritten = true;
    process.stdout.write(text);
  },
  stderr: (text) => void process.stderr.write(text),
};

/** Levels of stderr notes, lowest first (`--log-level`; `--quiet` = error). */
export const NOTE_LEVELS = ['info', 'warn', 'error'] as const;
export type NoteLevel = (typeof NOTE_LEVELS)[number];

/** The stderr level the output flags ask for (`--quiet` wins). */
export function noteLevelOf(flags: { quiet: boolean; 'log-level': NoteLevel }): NoteLevel {
  return flags.quiet ? 'error' : flags['log-level'];
}

/** Writes notes, logs and events in the chosen stderr mode, and answers / findings on stdout. */
export class CliOutput {
  constructor(
    readonly mode: StderrMode,
    private readonly streams: OutputStreams = processStreams,
    /** Notes and log lines below this level are not written (core events under jsonl always are). */
    readonly minLevel: NoteLevel = 'info',
  ) {}

  /** A CLI note on stderr (dropped below `minLevel`). */
  note(note: CliNote): void {
    // The process's last error note is what a failed `--json` run reports on stdout (jsonReply.ts).
    if (note.level === 'error' && this.streams === processStreams) processReply.lastError = note;
    if (!this.shows(note.level)) return;
    this.streams.stderr(`${this.mode === 'jsonl' ? cliLine(note) : humanNote(note)}\n`);
  }

  /** The same output, writing nothing below `level` (never lower than this one's own threshold). */
  atLeast(level: NoteLevel): CliOutput {
    return this.shows(level) ? new CliOutput(this.mode, this.streams, level) : this;
  }

  /** True when a note at `level` is written. */
  shows(level: NoteLevel): boolean {
    return NOTE_LEVELS.indexOf(level) >= NOTE_LEVELS.indexOf(this.minLevel);
  }

  /** A log line on stderr at info level (multi-line text stays one JSON object in jsonl mode). */
  log(message: string, source?: string): void {
    if (!this.shows('info')) return;
    if (this.mode === 'jsonl') this.streams.stderr(`${logLine(message, source)}\n`);
    else this.streams.stderr(`${source === undefined ? '' : `[${source}] `}${message}\n`);
  }

  /** A core event: streamed only under `--events jsonl` (in human mode per-second stats would bury the answer). */
  event(event: CoreEvent | OutcomeLine): void {
    if (this.mode === 'jsonl') this.streams.stderr(`${JSON.stringify(event)}\n`);
  }

  /** stdout: the text as is, plus one newline. */
  stdout(text: string): void {
    this.streams.stdout(`${text}\n`);
  }
}
