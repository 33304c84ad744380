/**
 * Key paths of `yq`: `a.b[0].c`, with `["odd.key"]` or `"odd.key"` for names that hold dots, brackets or
 * spaces. Parsing and walking are pure, so the JSON and TOML editors share one meaning of a path.
 */

/** One step: an object key or an array index. */
export type KeyStep = string | number;

/** Parses `key`, or returns why it cannot be read. */
export function parseKeyPath(key: string): KeyStep[] | { error: string } {
  const steps: KeyStep[] = [];
  let i = 0;
  const fail = (why: string): { error: string } => ({ error: `${why} at position ${i + 1} of ${JSON.stringify(key)}` });
  if (key.trim() === '') return { error: 'the key path is empty' };
  let expectName = true;
  while (i < key.length) {
    const ch = key[i];
    if (ch === '[') {
      const close = key.indexOf(']', i);
      if (close < 0) return fail('an unclosed [');
      const inner = key.slice(i + 1, close).trim();
      if (/^[0-9]+$/.test(inner)) steps.push(Number(inner));
      else if (/^"(?:[^"\\]|\\.)*"$/.test(inner)) steps.push(JSON.parse(inner) as string);
      else return fail('[…] must hold an index like [0] or a quoted key like ["a.b"]');
      i = close + 1;
      expectName = false;
      continue;
    }
    if (ch === '.') {
      if (expectName) return fail('an empty key');
      i += 1;
      expectName = true;
      continue;
    }
    if (!expectName) return fail('a key must follow a dot');
    if (ch === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/.exec(key.slice(i));
      if (m === null) return fail('an unclosed quote');
      steps.push(JSON.parse(m[0]) as string);
      i += m[0].length;
    } else {
      const m = /^[^.[\]"]+/.exec(key.slice(i));
      if (m === null) return fail('an unexpected character');
      steps.push(m[0].trim());
      i += m[0].length;
    }
    expectName = false;
  }
  if (expectName) return fail('a trailing dot');
  return steps;
}

/** The path written back in the canonical form (for messages). */
export function showKeyPath(steps: readonly KeyStep[]): string {
  let out = '';
  for (const step of steps) {
    if (typeof step === 'number') out += `[${step}]`;
    else if (/^[A-Za-z0-9_-]+$/.test(step)) out += out === '' ? step : `.${step}`;
    else out += `[${JSON.stringify(step)}]`;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** What a path finds in a parsed document. */
export type Located =
  | { kind: 'found'; value: unknown }
  | { kind: 'missing'; depth: number }
  | { kind: 'mismatch'; depth: number; expected: 'table' | 'array' };

/** Walks `steps` through `root`; `depth` = index of the step that failed. */
export function locate(root: unknown, steps: readonly KeyStep[]): Located {
  let here: unknown = root;
  for (let depth = 0; depth < steps.length; depth += 1) {
    const step = steps[depth] as KeyStep;
    if (typeof step === 'number') {
      if (!Array.isArray(here)) return { kind: 'mismatch', depth, expected: 'array' };
      if (step >= here.length) return { kind: 'missing', depth };
      here = here[step];
    } else {
      if (!isRecord(here)) return { kind: 'mismatch', depth, expected: 'table' };
      if (!Object.prototype.hasOwnProperty.call(here, step)) return { kind: 'missing', depth };
      here = here[step];
    }
  }
  return { kind: 'found', value: here };
}

/**
 * Whether `set` may write at `steps`: every step must exist except that the last one may be new (a key, or the
 * index one past the end of an array), and missing keys on the way may be created as tables; a missing array
 * element on the way is never invented.
 */
export function settable(root: unknown, steps: readonly KeyStep[]): Located {
  const found = locate(root, steps);
  if (found.kind !== 'missing') return found;
  const parent = locate(root, steps.slice(0, found.depth));
  const step = steps[found.depth] as KeyStep;
  if (typeof step === 'number') {
    const arr = parent.kind === 'found' ? parent.value : null;
    if (found.depth === steps.length - 1 && Array.isArray(arr) && step === arr.length) return { kind: 'found', value: undefined };
    return found;
  }
  // A missing key: the rest may only be keys (new tables), never indexes into arrays that do not exist.
  return steps.slice(found.depth + 1).every((s) => typeof s === 'string') ? { kind: 'found', value: undefined } : found;
}

/** Structural equality for JSON-like values (dates compare by time). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (isRecord(a) || isRecord(b)) {
    if (!isRecord(a) || !isRecord(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue(a[k], b[k]));
  }
  return typeof a === 'bigint' || typeof b === 'bigint' ? String(a) === String(b) : Object.is(a, b) || a === b;
}
