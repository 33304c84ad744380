/** Jev as the settings page shows it (types only: the host builds it, the GUI client reads it). */
import type { JevSettings } from './jevSettings.js';

/** One agent's judge. */
export interface JudgeView {
  agentId: string;
  declared: boolean;
  enabled: boolean;
  to: string | null;
  problem: string | null;
}

/** Settings, token presence (never the token), the file's state, and every agent's judge. */
export interface JevView {
  settings: JevSettings;
  tokenPresent: boolean;
  /** jev.json exists but cannot be used: it is shown read-only and never overwritten. */
  problem: string | null;
  judges: JudgeView[];
  /** Revisions of jev.json and of every agent's judge.json: the base of a save or a switch made from this view. */
  revisions: Record<string, string>;
}

/** The answer of a test call: reply head or the error code and message (never the token). */
export interface JevTestResult {
  ok: boolean;
  model: string;
  elapsedMs: number;
  reply?: string;
  code?: string;
  message?: string;
}
