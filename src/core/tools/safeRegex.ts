/**
 * The one way a model-chosen regular expression is compiled (grep, fd, and any later tool such as `sd`).
 *
 * A backtracking engine can take exponential time on a 41-byte line (`^(a+)+$`). V8 has a linear-time engine; with
 * `--enable-experimental-regexp-engine-on-excessive-backtracks` an ordinary RegExp runs on the fast backtracking
 * engine and switches to the linear one once an exec backtracks too much. That switch only exists for patterns
 * the linear engine can run, so a pattern is accepted only when V8 also compiles it with the linear flag `l`:
 * backreferences, lookarounds and very large counted repeats are refused with a reason instead. The flags are
 * process-wide (every thread) and set once, by the first compile: not when the module loads, because changing any V8
 * flag makes every later worker bootstrap skip Node's built-in code cache (~4 ms of CPU each), and most agents never
 * compile a regex.
 *
 * V8's linear engine has no case-insensitive mode (an `i` regex never falls back), so `i` is applied by
 * rewriting the pattern (`foldCase`: each letter becomes a class of its cases) and compiling without the flag.
 *
 * JavaScript syntax stays as the tool descriptions promise; matching runs on the shared pool besides (scan/).
 */
import { lazyBuiltin } from '../lazyBuiltin.js';

const v8 = lazyBuiltin<typeof import('node:v8')>('node:v8');

/** Longest accepted pattern, in chars. */
export const MAX_PATTERN_CHARS = 1_000;

/** Flags a caller may ask for (`u`/`v` are refused by the linear engine, `y`/`d` mean nothing here). */
const ALLOWED_FLAGS = /^[gims]*$/;

let linearEngineOn = false;

/** Turns V8's linear-time fallback on for this process (idempotent). */
export function enableLinearFallback(): void {
  if (linearEngineOn) return;
  v8().setFlagsFromString('--enable-experimental-regexp-engine');
  v8().setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  linearEngineOn = true;
}

/** Why a pattern was refused: too long, not a regex at all, or not runnable in linear time. */
export type RegexRefusal = { why: 'too_long' } | { why: 'syntax'; detail: string } | { why: 'not_linear' };

export type SafeRegex = { ok: true; regex: RegExp } | ({ ok: false } & RegexRefusal);

/** The other case of a one-code-unit letter, or null (no case, or a case that is not one unit, like ß → SS). */
function otherCase(c: string): string | null {
  const upper = c.toUpperCase();
  const lower = c.toLowerCase();
  const other = upper === c ? lower : upper;
  return other !== c && other.length === 1 && c.length === 1 ? other : null;
}

/** How many chars an escape starting at `i` (the backslash) spans, so hex digits and names are copied verbatim. */
function escapeLength(source: string, i: number): number {
  const next = source[i + 1];
  if (next === 'x') return 4;
  if (next === 'u') return 6;
  if (next === 'c') return 3;
  if (next === 'k' && source[i + 2] === '<') return source.indexOf('>', i) - i + 1 || 2;
  return 2;
}

/**
 * Rewrites `source` (non-unicode JavaScript regex syntax) so it matches case-insensitively without the `i` flag:
 * a letter becomes `[aA]`, a class gains the other case of its letters and of same-case ASCII letter ranges.
 * Escapes, group names and quantifiers are copied unchanged.
 */
export function foldCase(source: string): string {
  let out = '';
  let i = 0;
  let inClass = false;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '\\') {
      const n = Math.min(escapeLength(source, i), source.length - i);
      const escape = source.slice(i, i + n);
      // A letter written as \xHH or \uHHHH folds like the letter itself.
      const hex = /^\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4}))$/.exec(escape);
      const other = hex === null ? null : otherCase(String.fromCharCode(parseInt(hex[1] ?? hex[2] ?? '', 16)));
      if (other === null) out += escape;
      else out += inClass ? `${escape}${other}` : `[${escape}${other}]`;
      i += n;
      continue;
    }
    if (!inClass && c === '(' && source.startsWith('(?<', i) && source[i + 3] !== '=' && source[i + 3] !== '!') {
      const end = source.indexOf('>', i);
      const n = end < 0 ? source.length - i : end - i + 1;
      out += source.slice(i, i + n); // a group name is not text to match
      i += n;
      continue;
    }
    if (!inClass && c === '[') {
      inClass = true;
      out += c;
      i += 1;
      if (source[i] === '^') {
        out += '^';
        i += 1;
      }
      continue;
    }
    if (inClass && c === ']') {
      inClass = false;
      out += c;
      i += 1;
      continue;
    }
    if (inClass && source[i + 1] === '-' && source[i + 2] !== undefined && source[i + 2] !== ']' && source[i + 2] !== '\\') {
      const hi = source[i + 2] as string;
      out += `${c}-${hi}`;
      if (/[a-z]/.test(c) && /[a-z]/.test(hi)) out += `${c.toUpperCase()}-${hi.toUpperCase()}`;
      else if (/[A-Z]/.test(c) && /[A-Z]/.test(hi)) out += `${c.toLowerCase()}-${hi.toLowerCase()}`;
      i += 3;
      continue;
    }
    const other = otherCase(c);
    if (other === null) out += c;
    else out += inClass ? `${c}${other}` : `[${c}${other}]`;
    i += 1;
  }
  return out;
}

/**
 * Compiles `pattern` with `flags` (any of g, i, m, s) for matching in bounded time, or says why not.
 * The returned RegExp runs on V8's fast engine and falls back to the linear one by itself.
 */
export function compileSafeRegex(pattern: string, flags = ''): SafeRegex {
  if (!ALLOWED_FLAGS.test(flags)) throw new RangeError(`compileSafeRegex: unsupported flags "${flags}"`);
  enableLinearFallback();
  if (pattern.length > MAX_PATTERN_CHARS) return { ok: false, why: 'too_long' };
  try {
    new RegExp(pattern, flags); // the error a person would get for the pattern as written
  } catch (error) {
    return { ok: false, why: 'syntax', detail: error instanceof Error ? error.message : String(error) };
  }
  const caseless = flags.includes('i');
  const source = caseless ? foldCase(pattern) : pattern;
  const rest = flags.replace('i', '');
  let regex: RegExp;
  try {
    regex = new RegExp(source, rest);
    new RegExp(source, `${rest}l`);
  } catch {
    return { ok: false, why: 'not_linear' };
  }
  return { ok: true, regex };
}
