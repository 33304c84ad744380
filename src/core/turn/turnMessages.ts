/**
 * Builds the message list of a turn: system prompt, protocol note, the history window and the folded user
 * turn. The folded string is exactly what history stores, so the next turn's prefix is byte-identical.
 */
import { attachmentKind } from '../attachments/attachmentFormat.js';
import type { AttachmentKind, ChatMessage, PromptAttachment } from '../llm/canonical.js';
import type { Language } from '../world/types.js';
import type { Exchange, TurnInput } from './ports.js';
import { envelopeText } from './envelope.js';
import { broadcastNote } from './wording.js';

/** Exchanges of history sent with each turn (8 = 16 messages). */
export const HISTORY_TURNS = 8;

/** The folded user turn and how many forged sender lines were defused in the body. */
export interface FoldedTurn {
  folded: string;
  escaped: number;
}

/**
 * `\n\n`-join of: room log (if the agent hears it) · presence notices · broadcast note (≥2 co-recipients) ·
 * attachment note · sender envelope. (The summary lives in the system prompt's volatile part, so stored exchanges
 * never repeat it.)
 */
export function foldUserTurn(input: TurnInput): FoldedTurn {
  const parts: string[] = [];
  const roomLog = input.context?.roomLog ?? null;
  if (input.agent.hearsRoomLog && roomLog !== null) parts.push(roomLog);
  const presence = input.context?.presence ?? null;
  if (presence !== null) parts.push(presence);
  const co = input.envelope.coRecipients ?? [];
  if (co.length >= 2) parts.push(broadcastNote(input.language, co));
  const attached = input.envelope.attachments ?? [];
  if (attached.length > 0) parts.push(attachmentNote(input.language, attached));
  const env = envelopeText(input.envelope.fromLabel, input.envelope.content, input.language);
  parts.push(env.text);
  return { folded: parts.join('\n\n'), escaped: env.escaped };
}

const KIND_JA: Record<AttachmentKind, string> = { image: '画像', audio: '音声', video: '動画', pdf: 'PDF' };

/**
 * Names the files of this message in the folded text: the bytes ride only on this request, so the history (and
 * every later turn) keeps knowing that a file was there and what it was called.
 */
export function attachmentNote(language: Language, attachments: PromptAttachment[]): string {
  const names = attachments.map((a) => {
    const kind = attachmentKind(a.mediaType);
    return language === 'ja' ? `${a.fileName}（${KIND_JA[kind]}）` : `${a.fileName} (${kind})`;
  });
  return language === 'ja' ? `【添付: ${names.join('、')}】` : `[Attached: ${names.join(', ')}]`;
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
  attachments: PromptAttachment[] = [],
): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt }];
  if (protocolNote !== null) messages.push({ role: 'system', content: protocolNote });
  for (const exchange of historyWindow(history)) {
    messages.push({ role: 'user', content: exchange.sent }, { role: 'assistant', content: exchange.replied });
  }
  messages.push(attachments.length === 0 ? { role: 'user', content: folded } : { role: 'user', content: folded, attachments });
  return messages;
}

/** UTF-8 bytes of what a request sends (message contents and tool-call arguments), for the bytes/4 estimate. */
export function requestText(messages: ChatMessage[]): string {
  return messages
    .map((m) => m.content + (m.toolCalls ? m.toolCalls.map((c) => c.name + JSON.stringify(c.args)).join('') : ''))
    .join('');
}
