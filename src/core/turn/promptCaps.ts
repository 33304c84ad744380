/**
 * What may go into one model request (data_contract.yaml `prompt_caps`): each prompt file (Ordinance.md, SKILL.md,
 * Construct.md, Memory.md) up to PROMPT_FILE_CAP_BYTES, the composed system prompt up to half the template's
 * `contextLength` (at 4 UTF-8 bytes a token, the estimate the budget uses), and at most MAX_TOOLS_PER_AGENT tools.
 * Over a cap the text is cut at a UTF-8 character boundary and ends with a visible marker saying what was cut;
 * over the tool cap the rule of `capTools` decides which are offered. Pure; the turn engine writes the warnings.
 */
import type { ToolSpec } from '../llm/canonical.js';
import type { Language } from '../world/types.js';
import type { PromptMaterial } from './ports.js';

/** Bytes (UTF-8) of one prompt file that are sent; the rest is cut (256 KiB). */
export const PROMPT_FILE_CAP_BYTES = 262_144;
/** Tools offered to one agent in one request. */
export const MAX_TOOLS_PER_AGENT = 128;
/** Ties named in the `plan` tool and the protocol note (the first, in roster order); a task to another tie is still carried. */
export const MAX_LISTED_TIES = 128;
/** Bytes a token is reckoned at (the budget's bytes/4 estimate). */
export const BYTES_PER_TOKEN = 4;
/** The share of `contextLength` the system prompt may take: the rest is for history, the message and the answer. */
export const SYSTEM_PROMPT_CONTEXT_SHARE = 0.5;
/** The smallest system prompt cap, whatever `contextLength` says (a 0 or tiny template still gets its rules). */
export const MIN_SYSTEM_PROMPT_CAP_BYTES = 16_384;

/** The prompt files by their file names (the marker and the warnings name them). */
export const PROMPT_FILE_NAMES = { ordinance: 'Ordinance.md', skill: 'SKILL.md', construct: 'Construct.md', memory: 'Memory.md' } as const;
export type PromptFileKey = keyof typeof PROMPT_FILE_NAMES;

/** The system prompt cap in UTF-8 bytes for a template's `contextLength` (tokens). */
export function systemPromptCapBytes(contextLength: number): number {
  return Math.max(MIN_SYSTEM_PROMPT_CAP_BYTES, Math.floor(contextLength * BYTES_PER_TOKEN * SYSTEM_PROMPT_CONTEXT_SHARE));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** UTF-8 length of `text` without allocating for short strings (a char is at most 3 bytes per UTF-16 unit). */
export function utf8Bytes(text: string): number {
  return text.length * 3 <= 1024 ? encoder.encode(text).length : Buffer.byteLength(text, 'utf8');
}

/** The marker that ends a cut text: names what was cut, its size and the cap. */
export function cutMarker(language: Language, what: string, bytes: number, capBytes: number): string {
  return language === 'ja'
    ? `\n［…${what} は ${bytes} バイトあり、先頭の約 ${capBytes} バイトだけを送りました。残りは送っていません］`
    : `\n[…${what} is ${bytes} bytes; only about the first ${capBytes} were sent, the rest was cut]`;
}

/** A text after its cap: `cut` = it was over and ends with the marker; `bytes` = its size before. */
export interface CappedText {
  text: string;
  cut: boolean;
  bytes: number;
  /** Chars of `text` before the marker (all of it when not cut). */
  headChars: number;
}

/**
 * `text` when it fits `capBytes`; else its head (cut at a character boundary) plus the marker, the whole at most
 * `capBytes` bytes (a marker longer than the cap is sent alone).
 */
export function capText(text: string, capBytes: number, language: Language, what: string): CappedText {
  const bytes = utf8Bytes(text);
  if (bytes <= capBytes) return { text, cut: false, bytes, headChars: text.length };
  const marker = cutMarker(language, what, bytes, capBytes);
  const room = Math.max(0, capBytes - utf8Bytes(marker));
  // Encode only a prefix long enough to hold `room` bytes (a UTF-16 unit is at least 1 byte).
  let head = text.slice(0, room);
  // A high surrogate whose pair was sliced off would encode as U+FFFD.
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  const raw = encoder.encode(head);
  let end = Math.min(room, raw.length);
  // Back off to the start of a UTF-8 sequence so no character is split.
  while (end > 0 && end < raw.length && ((raw[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  const kept = decoder.decode(raw.subarray(0, end));
  return { text: kept + marker, cut: true, bytes, headChars: kept.length };
}

/** Prompt material after the per-file cap, and which files were cut (with their sizes). */
export interface CappedMaterial {
  material: PromptMaterial;
  cut: { file: string; bytes: number }[];
}

/** Caps each prompt file at `capBytes` (default PROMPT_FILE_CAP_BYTES). */
export function capPromptMaterial(material: PromptMaterial, language: Language, capBytes: number = PROMPT_FILE_CAP_BYTES): CappedMaterial {
  const cut: { file: string; bytes: number }[] = [];
  const one = (key: PromptFileKey): string => {
    const capped = capText(material[key], capBytes, language, PROMPT_FILE_NAMES[key]);
    if (capped.cut) cut.push({ file: PROMPT_FILE_NAMES[key], bytes: capped.bytes });
    return capped.text;
  };
  return { material: { ordinance: one('ordinance'), construct: one('construct'), skill: one('skill'), memory: one('memory') }, cut };
}

/** Where an offered tool comes from, for the cut-off order. */
export type ToolOrigin = 'builtin' | 'tie' | 'mcp';

/** The tools of one request after the cap: `dropped` names what was left out, in the order it would have come. */
export interface CappedTools {
  offered: ToolSpec[];
  dropped: string[];
}

/** One tool before the cap; `rank` orders tools of the same origin when over the cap (default: the order given). */
export interface OfferedTool {
  spec: ToolSpec;
  origin: ToolOrigin;
  rank?: number;
}

const ORIGIN_RANK: Record<ToolOrigin, number> = { builtin: 0, tie: 1, mcp: 2 };

/**
 * The cut-off rule: built-in tools first (room_log and the bundled tools, in the order given), then the ties'
 * delegation tools by `rank` (the turn engine ranks `plan` first, then per tie in roster order its `transfer_to_*`
 * and `ask_*`), then MCP tools sorted by their `{server}__{tool}` name; the first `max` are offered, the rest
 * dropped. Under the cap every tool is offered in the order given.
 */
export function capTools(tools: readonly OfferedTool[], max: number = MAX_TOOLS_PER_AGENT): CappedTools {
  if (tools.length <= max) return { offered: tools.map((t) => t.spec), dropped: [] };
  const ordered = tools
    .map((t, index) => ({ ...t, index }))
    .sort((a, b) => {
      const rank = ORIGIN_RANK[a.origin] - ORIGIN_RANK[b.origin];
      if (rank !== 0) return rank;
      if (a.origin === 'mcp') return a.spec.name < b.spec.name ? -1 : a.spec.name > b.spec.name ? 1 : 0;
      return (a.rank ?? a.index) - (b.rank ?? b.index) || a.index - b.index;
    });
  return { offered: ordered.slice(0, max).map((t) => t.spec), dropped: ordered.slice(max).map((t) => t.spec.name) };
}
