/**
 * A message to several servants is recorded once per recipient (each copy names all of them in `coRecipients`).
 * The chat shows such a fan-out as one bubble whose recipient line collapses to "{first} +N more"; these are the
 * pure rules for both.
 */
import type { AgentMessage, Endpoint } from './types.js';

/** How a recipient line reads: the first name, and how many more are behind "+N more" (0 = none). */
export interface RecipientSummary {
  first: string;
  more: number;
}

/** The collapse rule: the first name stays visible, the rest is counted. An empty list reads as "". */
export function recipientSummary(names: readonly string[]): RecipientSummary {
  return { first: names[0] ?? '', more: Math.max(0, names.length - 1) };
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * True when `next` is another copy of the fan-out that `first` began: same sender, text, hop and recipient list
 * (of two or more), addressed to a servant of that list that `seen` does not hold yet.
 */
export function continuesFanOut(first: AgentMessage, next: AgentMessage, seen: readonly Endpoint[]): boolean {
  const co = first.coRecipients;
  if (co === undefined || co.length < 2 || !sameList(co, next.coRecipients)) return false;
  if (next.to.kind !== 'agent' || !co.includes(next.to.id)) return false;
  const nextId = next.to.id;
  if (seen.some((e) => e.kind === 'agent' && e.id === nextId)) return false;
  return JSON.stringify(first.from) === JSON.stringify(next.from) && first.content === next.content && first.hop === next.hop;
}
