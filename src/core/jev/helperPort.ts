/**
 * The helper model as a turn offers it to the judge tool and to tool-result compression (types only, so tools and
 * workers import it for free). Every call through it is paid from the request's token budget and counted in the
 * turn's spend like the agent's own calls.
 */
import type { LlmBackend } from '../llm/canonical.js';
import type { JevSettings } from './jevSettings.js';

/** Why the helper cannot be called: switched off, no model named, or no `jev_api_token`. */
export type HelperUnavailable = 'disabled' | 'not_configured' | 'token_missing';

/** What one helper call came to; `reason` is a code or a short word, never a body. */
export type HelperAnswer = { ok: true; text: string } | { ok: false; reason: string };

export interface HelperPort {
  /** null when calls can be made. */
  readonly unavailable: HelperUnavailable | null;
  readonly model: string;
  /** One call: a system text and a user text; never throws. */
  ask(purpose: 'judge' | 'compress', system: string, user: string, signal: AbortSignal): Promise<HelperAnswer>;
}

/** What the driver hands a turn about Jev (absent = no Jev at all in this run). */
export interface JevDeps {
  settings: JevSettings;
  /** The helper's backend; null when unavailable. */
  backend: LlmBackend | null;
  unavailable: HelperUnavailable | null;
}

/** One tool result that reached the agent compressed: the original stays in the session record. */
export interface ToolOriginal {
  tool: string;
  /** 1-based round of the call. */
  round: number;
  original: string;
  /** Chars of what the agent saw instead. */
  compressedChars: number;
}
