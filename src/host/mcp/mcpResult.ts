/**
 * Turns an MCP `tools/call` result into the text the model reads (reference ops.md §5.1): text blocks joined,
 * other blocks as a marker, structured content only when nothing else came back, an explicit note for an
 * empty result, and a prefix when the server flagged an error. Pure; the texts follow the village language.
 */
import type { ToolReply } from '../../core/tools/contract.js';
import type { Language } from '../../core/world/types.js';

/** The parts of a `CallToolResult` this file reads (plain data; no SDK types, so it loads without the SDK). */
export interface McpCallResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  /** Older servers answer with `toolResult` instead of `content`. */
  toolResult?: unknown;
}

const TEXTS = {
  ja: { empty: '（空の結果）', error: 'ツールはエラーを返しました: ' },
  en: { empty: '(empty result)', error: 'The tool returned an error: ' },
} as const;

/** A marker for a non-text block: its type and, where known, mime type or URI (never the data itself). */
function marker(block: Record<string, unknown>): string {
  const type = typeof block.type === 'string' ? block.type : 'unknown';
  if (type === 'resource' && typeof block.resource === 'object' && block.resource !== null) {
    const resource = block.resource as Record<string, unknown>;
    if (typeof resource.text === 'string') return resource.text;
    return `[resource: ${typeof resource.uri === 'string' ? resource.uri : '?'}]`;
  }
  if (type === 'resource_link') return `[resource_link: ${typeof block.uri === 'string' ? block.uri : '?'}]`;
  const mime = typeof block.mimeType === 'string' ? ` ${block.mimeType}` : '';
  return `[${type}${mime}]`;
}

/** The model-facing body and ok flag of one MCP call result. */
export function renderMcpResult(result: McpCallResultLike, language: Language): ToolReply {
  const t = TEXTS[language];
  const parts: string[] = [];
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  for (const raw of content) {
    if (typeof raw !== 'object' || raw === null) continue;
    const block = raw as Record<string, unknown>;
    parts.push(block.type === 'text' && typeof block.text === 'string' ? block.text : marker(block));
  }
  let body = parts.join('\n');
  if (body === '' && result.structuredContent !== undefined && result.structuredContent !== null) {
    body = JSON.stringify(result.structuredContent);
  }
  if (body === '' && result.toolResult !== undefined && result.toolResult !== null) {
    body = typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult);
  }
  if (body === '') body = t.empty;
  const isError = result.isError === true;
  return isError ? { body: `${t.error}${body}`, ok: false } : { body, ok: true };
}
