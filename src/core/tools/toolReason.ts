/**
 * The optional one-line `reason` argument the registry adds to every built-in tool (Spec 27): the model may
 * say why it calls a tool; the GUI shows it, the log keeps only its length.
 */
import type { ReasonState } from '../events.js';
import type { Language } from '../world/types.js';
import type { JsonSchema } from './contract.js';
import { pick } from './toolText.js';

/** Longest reason kept, in chars including the trailing `…`. */
export const MAX_REASON_CHARS = 60;

/** A read reason plus its pre-truncation length in chars (code points), for the `tool:` diag note. */
export interface ReadReason {
  state: ReasonState;
  chars: number;
}

/** Reads `args.reason`: trimmed empty or not a string → omitted; else written, cut to 60 chars with `…`. */
export function readReason(raw: unknown): ReadReason {
  if (typeof raw !== 'string') return { state: { kind: 'omitted' }, chars: 0 };
  const points = [...raw.trim()];
  if (points.length === 0) return { state: { kind: 'omitted' }, chars: 0 };
  const text =
    points.length <= MAX_REASON_CHARS ? points.join('') : `${points.slice(0, MAX_REASON_CHARS - 1).join('')}…`;
  return { state: { kind: 'written', text }, chars: points.length };
}

/** Returns a copy of `parameters` with an optional `reason` string property (never added to `required`). */
export function withReasonParam(parameters: JsonSchema, language: Language): JsonSchema {
  const properties = (parameters['properties'] ?? {}) as Record<string, unknown>;
  return {
    ...parameters,
    properties: {
      ...properties,
      reason: {
        type: 'string',
        description: pick(
          language,
          'この呼び出しの意図を一行で（任意、短く）。',
          'Optional: one short line saying why you call this tool.',
        ),
      },
    },
  };
}
