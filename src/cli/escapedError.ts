/**
 * What escaped a command becomes: one stderr note and an exit code (SPEC §6.4). Shared by the oclif CLI (main.ts)
 * and ask's fast path (ask/askFromArgv.ts), which never loads oclif.
 */
import { isFuseforksError } from '../core/errors.js';
import { EXIT, exitForArgumentError, type ExitCode } from './exitCodes.js';
import type { CliOutput } from './output.js';

interface OclifLikeError {
  message: string;
  code?: string;
  oclif?: { exit?: number };
}

/** Maps an error that escaped a command to one stderr note and an exit code. */
export function reportEscaped(error: unknown, output: CliOutput): ExitCode | number {
  const e = error as OclifLikeError;
  if (e?.code === 'EEXIT' && typeof e.oclif?.exit === 'number') return e.oclif.exit; // this.exit(n): already reported
  if (isFuseforksError(error)) {
    output.note({ level: 'error', code: error.code, message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
    return EXIT.coreError;
  }
  if (e && typeof e === 'object' && 'oclif' in e) {
    // oclif parse failures and unknown commands: keep the reason lines; the help hint becomes the fix.
    const message = oclifReason(String(e.message ?? ''));
    output.note({ level: 'error', code: 'ARGUMENT', message, fix: 'See fuseforks-cli --help or fuseforks-cli <command> --help.' });
    return exitForArgumentError();
  }
  const message = error instanceof Error ? error.message : String(error);
  output.note({ level: 'error', code: 'BUG', message });
  return EXIT.coreError;
}

/**
 * The reason of an oclif message as one clean sentence, without its preamble and its "--help" hint: a line ending
 * in ":" runs on into the next ("Missing 1 required arg: text (The request text…)"), other lines join with "; ".
 */
export function oclifReason(message: string): string {
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== 'The following error occurred:' && !line.startsWith('See more help with'))
    // An argument listed with its description ("text  The request text") reads as "text (The request text)".
    .map((line) => line.replace(/^(\S+)\s{2,}(.+)$/, '$1 ($2)'));
  if (lines.length === 0) return 'invalid arguments';
  return lines.reduce((text, line) => (text.endsWith(':') ? `${text} ${line}` : `${text}; ${line}`));
}
