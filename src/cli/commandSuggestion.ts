/**
 * "Did you mean …?" for a mistyped command, also outside a terminal (oclif's not-found plugin only asks at one):
 * the registered command nearest to the words typed, by edit distance (fast-levenshtein, the plugin's own
 * measure). Pure.
 */
import levenshtein from 'fast-levenshtein';

/** The command words at the start of argv (up to the first flag), as oclif joins them into an id. */
export function typedCommand(argv: readonly string[]): string {
  const words: string[] = [];
  for (const word of argv) {
    if (word.startsWith('-')) break;
    words.push(word);
  }
  return words.join(':');
}

/**
 * The registered id (spaces for colons) nearest to `typed`, or null when nothing is near: at most a third of the
 * longer string may differ (so `agents lsit` finds `agents list`, `hello` finds nothing).
 */
export function suggestCommand(typed: string, ids: readonly string[]): string | null {
  if (typed === '') return null;
  let best: { id: string; distance: number } | null = null;
  for (const id of ids) {
    // Compare with as many words as were typed, so `agents lsit extra` still weighs `agents list`.
    const distance = levenshtein.get(typed, id);
    if (best === null || distance < best.distance) best = { id, distance };
  }
  if (best === null || best.distance > Math.max(2, Math.floor(Math.max(typed.length, best.id.length) / 3))) return null;
  return best.id.split(':').join(' ');
}
