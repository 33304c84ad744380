/**
 * How a pre-check's stdout decides a firing (reference/ops.md §2.5). Pure.
 *
 * Only line 1 counts: it must equal the expected signal once both are trimmed (a `\r` before the newline goes
 * too). The exit code is never part of the decision. Lines 2+ become the appendix attached to the request,
 * kept verbatim except trailing whitespace, at most 4,000 chars with a note saying how much was cut.
 */
import type { ScheduleLanguage } from './scheduleText.js';

/** Every outcome of one probe run. */
export type ProbeOutcome = 'match' | 'no_match' | 'error' | 'timeout' | 'unapproved';

/** Set only for `error`. */
export type ProbeErrorReason = 'not_found' | 'spawn_failed' | 'cwd_missing' | 'signal_truncated' | 'sandbox_unavailable';

/** stdout captured per run, in chars (UTF-16 code units); the rest is read and dropped. */
export const PROBE_STDOUT_CAP_CHARS = 65_536;

/** Longest appendix attached to the request, in chars. */
export const PROBE_APPENDIX_MAX_CHARS = 4_000;

/** The verdict on captured stdout. `appendix` is absent when lines 2+ are empty. */
export type ProbeJudgement =
  | { outcome: 'match'; appendix?: string }
  | { outcome: 'no_match' }
  | { outcome: 'error'; reason: 'signal_truncated' };

function cutNote(totalChars: number, capped: boolean, language: ScheduleLanguage): string {
  const total = capped ? `${PROBE_STDOUT_CAP_CHARS}+` : String(totalChars);
  return language === 'ja'
    ? `（出力 ${capped ? `${PROBE_STDOUT_CAP_CHARS} 字以上` : `${totalChars} 字`}のうち、先頭の ${PROBE_APPENDIX_MAX_CHARS} 字だけを載せています）`
    : `(only the first ${PROBE_APPENDIX_MAX_CHARS} of ${total} characters are shown)`;
}

/**
 * Judges captured stdout. `capped` = the capture limit was hit (more output existed); if that cut falls inside
 * line 1 the signal cannot be trusted → `error/signal_truncated`.
 */
export function judgeProbe(
  stdout: string,
  capped: boolean,
  expect: string,
  language: ScheduleLanguage,
): ProbeJudgement {
  const newline = stdout.indexOf('\n');
  if (newline === -1 && capped) return { outcome: 'error', reason: 'signal_truncated' };
  const first = newline === -1 ? stdout : stdout.slice(0, newline);
  if (first.trim() !== expect.trim()) return { outcome: 'no_match' };
  const rest = newline === -1 ? '' : stdout.slice(newline + 1).trimEnd();
  if (rest === '') return { outcome: 'match' };
  if (rest.length <= PROBE_APPENDIX_MAX_CHARS && !capped) return { outcome: 'match', appendix: rest };
  // Cut here, or cut earlier by the capture limit: either way say so.
  const head = rest.slice(0, PROBE_APPENDIX_MAX_CHARS);
  return { outcome: 'match', appendix: `${head}\n${cutNote(stdout.length, capped, language)}` };
}
