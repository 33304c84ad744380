/**
 * Builds the message list of a turn: system prompt, protocol note, the history window and the folded user
 * turn. The folded string is exactly what history stores, so the next turn's prefix is byte-identical.
 */
import type { ChatMessage } from '../llm/canonical.js';
import type { Exchange, TurnInput } from './ports.js';
import { envelopeText } from './envelope.js';
import { broadcastNote, summaryBlock } from './wording.js';

/** Exchanges of history sent with each turn (8 = 16 messages). */
export const HISTORY_TURNS = 8;

/** The folded user turn and how many forged sender lines were defused in the body. */
export interface FoldedTurn {
  folded: string;
  escaped: number;
}

/**
 * `\n\n`-join of: summary block (if any) · room log (if the agent hears it) · presence notices · broadcast
 * note (≥2 co-recipients) · sender envelope.
 */
export function foldUserTurn(input: TurnInput): FoldedTurn {
  const parts: string[] = [];
  if (input.summary !== null && input.summary.trim() !== '') parts.push(summaryBlock(input.language, input.summary));
  const roomLog = input.context?.roomLog ?? null;
  if (input.agent.hearsRoomLog && roomLog !== null) parts.push(roomLog);
  const presence = input.context?.presence ?? null;
  if (presence !== null) parts.push(presence);
  const co = input.envelope.coRecipients ?? [];
  if (co.length >= 2) parts.push(broadcastNote(input.language, co));
  const env = envelopeText(input.envelope.fromLabel, input.envelope.content, input.language);
  parts.push(env.text);
  return { folded: parts.join('\n\n'), escaped: env.escaped };
}

/** The last `HISTORY_TURNS` exchanges, oldest first. */
export function historyWindow(history: Exchange[]): Exchange[] {
  return history.slice(-HISTORY_TURNS);
}

/** `[system(prompt), system(protocol note)?, ...history pairs, user(folded)]`. */
export function buildMessages(
  systemPrompt: string,
  protocolNote: string | null,
  history: Exchange[],
  folded: string,
): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt }];
  if (protocolNote !== null) messages.push({ role: 'system', content: protocolNote });
  for (const exchange of historyWindow(history)) {
    messages.push({ role: 'user', content: exchange.sent }, { role: 'assistant', content: exchange.replied });
  }
  messages.push({ role: 'user', content: folded });
  return messages;
}

/** UTF-8 bytes of what a request sends (message contents and tool-call arguments), for the bytes/4 estimate. */
export function requestText(messages: ChatMessage[]): string {
  return messages
    .map((m) => m.content + (m.toolCalls ? m.toolCalls.map((c) => c.name + JSON.stringify(c.args)).join('') : ''))
    .join('');
}
