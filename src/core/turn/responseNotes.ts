/**
 * What a turn's answers said besides the text: the provider-side search (queries and sources, deduplicated across
 * rounds) and the model's thinking summaries. They ride on the turn's first outgoing message, so a person sees
 * the sources and the thinking next to the reply — never inside it. Also builds the per-call stream options.
 */
import type { ChatOptions, ChatResponse, Grounding } from '../llm/canonical.js';
import type { TurnDeps } from './ports.js';

/** Accumulates grounding and thinking over the rounds of one turn. */
export class ResponseNotes {
  private grounding: Grounding | null = null;
  private readonly thinking: string[] = [];

  /** Takes what one response carried. */
  absorb(response: ChatResponse): void {
    for (const piece of response.reasoningSummary ?? []) if (piece !== '') this.thinking.push(piece);
    const g = response.grounding;
    if (g === undefined) return;
    // The first search decides the engine: one turn has one provider.
    const into = (this.grounding ??= { queries: [], sources: [], engine: g.engine });
    for (const q of g.queries) if (!into.queries.includes(q)) into.queries.push(q);
    for (const s of g.sources) if (!into.sources.some((x) => x.uri === s.uri)) into.sources.push(s);
  }

  /** The fields for the TurnResult (absent when nothing came). */
  result(): { grounding?: Grounding; reasoningSummary?: string[] } {
    return {
      ...(this.grounding === null ? {} : { grounding: this.grounding }),
      ...(this.thinking.length === 0 ? {} : { reasoningSummary: [...this.thinking] }),
    };
  }
}

/** The options of one call: the interrupt signal, and the stream sink tagged with its round when a viewer listens. */
export function callOptions(deps: TurnDeps, round: number): ChatOptions {
  const sink = deps.ports.streamDelta;
  return sink === undefined ? { signal: deps.signal } : { signal: deps.signal, onDelta: (delta) => sink(round, delta) };
}
