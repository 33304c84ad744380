/**
 * The repeat guard: a model that calls the same tool with the same arguments and keeps getting the same
 * result is looping. After two identical results, the third identical call is not run (core.md §2.5 step 7).
 */

/** JSON with object keys sorted at every level, so argument order never hides a repeat. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The guard's verdict on a call about to run. */
export type RepeatVerdict = { blocked: false; key: string } | { blocked: true; key: string; repeats: number };

/** Identical results before a call is blocked. */
const SAME_RESULTS_ALLOWED = 2;

/** Per-turn memory of (tool, canonical args incl. `reason`) → last body and how often it came back. */
export class RepeatGuard {
  private readonly seen = new Map<string, { body: string; count: number }>();

  /** Checks a call before it runs. */
  check(name: string, args: unknown): RepeatVerdict {
    const key = `${name}\u0000${canonicalJson(args)}`;
    const entry = this.seen.get(key);
    if (entry !== undefined && entry.count >= SAME_RESULTS_ALLOWED) {
      return { blocked: true, key, repeats: entry.count + 1 };
    }
    return { blocked: false, key };
  }

  /** Records what a call returned; a different body starts the count again. */
  record(key: string, body: string): void {
    const entry = this.seen.get(key);
    if (entry !== undefined && entry.body === body) entry.count += 1;
    else this.seen.set(key, { body, count: 1 });
  }
}
