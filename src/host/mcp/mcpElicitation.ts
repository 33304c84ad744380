/**
 * A server's question (MCP `elicitation/create`) and the answer a headless run gives it. Pure: the entry's
 * `elicitation` setting decides (`decline`, the default, or `accept-defaults`, which the SDK fills from the schema's
 * defaults); a URL-mode question, or a schema with a required field without a default, is declined with the reason.
 * Declining is an answer, not an error: the server's tool goes on and says what it does without the answer.
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpElicitationAnswer } from './mcpConfig.js';

/** One question as it reaches whoever answers it. */
export interface McpElicitQuestion {
  server: string;
  params: ElicitRequest['params'];
}

/** The answer sent back (accept with content, decline, or cancel). */
export type McpElicitAnswer = ElicitResult;

/** Fields the schema requires that have no default (accept-defaults cannot answer those). */
function requiredWithoutDefault(params: ElicitRequest['params']): string[] {
  if (params.mode === 'url') return [];
  const schema = params.requestedSchema;
  const props = schema.properties as Record<string, { default?: unknown }>;
  return (schema.required ?? []).filter((name) => props[name]?.default === undefined);
}

/** The headless answer to a question, and the reason logged for it. */
export function headlessElicitAnswer(setting: McpElicitationAnswer | undefined, params: ElicitRequest['params']): { answer: McpElicitAnswer; reason: string } {
  if (params.mode === 'url') {
    return { answer: { action: 'decline' }, reason: 'a URL-mode question needs a person with a browser; nobody is there in this run' };
  }
  if (setting !== 'accept-defaults') {
    return { answer: { action: 'decline' }, reason: 'nobody is there to answer in this run (headless); the entry can pre-answer with "elicitation": "accept-defaults"' };
  }
  const missing = requiredWithoutDefault(params);
  if (missing.length > 0) {
    return { answer: { action: 'decline' }, reason: `"accept-defaults" cannot answer required field(s) without a default: ${missing.join(', ')}` };
  }
  return { answer: { action: 'accept', content: {} }, reason: 'answered with the schema\'s defaults ("elicitation": "accept-defaults")' };
}
