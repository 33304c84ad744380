/**
 * Small text helpers shared by the built-in tools: language pick, refusals, and the char caps every tool
 * result obeys. Kept free of any dependency so it loads cheaply inside agent workers.
 */
import type { Language } from '../world/types.js';
import type { ToolReply } from './contract.js';

/** Shared cap on any tool result body, in chars (UTF-16 code units, as JS measures strings). */
export const MAX_OUTPUT_CHARS = 12_000;

/** Picks the model-facing wording for the village language. */
export function pick(language: Language, ja: string, en: string): string {
  return language === 'ja' ? ja : en;
}

/** A failure the model can act on: text for the model, `ok=false` for the record. */
export function refuse(body: string): ToolReply {
  return { body, ok: false };
}

/** Cuts `text` to `max` chars, ending with `…` when cut (the ellipsis counts toward `max`). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Cuts a whole result body to MAX_OUTPUT_CHARS and says so in the body, so the model knows it saw a part. */
export function capOutput(body: string, language: Language): string {
  if (body.length <= MAX_OUTPUT_CHARS) return body;
  const note = pick(
    language,
    `\n…（出力が長すぎるため ${MAX_OUTPUT_CHARS} 文字で切りました。全体 ${body.length} 文字）`,
    `\n… (output cut at ${MAX_OUTPUT_CHARS} chars of ${body.length}; narrow the request)`,
  );
  return body.slice(0, MAX_OUTPUT_CHARS - note.length) + note;
}

/** Reads an optional string argument; anything that is not a string counts as absent. */
export function optString(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === 'string' ? value : undefined;
}

/** Reads an optional boolean argument, accepting the strings "true"/"false" that some models send. */
export function optBool(args: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = args[key];
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return fallback;
}

/** The text for a missing required string argument. */
export function missingArg(language: Language, tool: string, key: string): ToolReply {
  return refuse(
    pick(language, `${tool}: 引数 \`${key}\`（文字列）が必要です。`, `${tool}: the \`${key}\` argument (a string) is required.`),
  );
}
