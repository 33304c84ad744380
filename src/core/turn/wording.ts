/**
 * Every model-facing and person-facing sentence the turn engine writes, in Japanese and English
 * (the village language picks one). Kept in one place so wording changes never touch the loop.
 */
import type { Language } from '../world/types.js';

type Pick2 = (language: Language, ja: string, en: string) => string;
const t: Pick2 = (language, ja, en) => (language === 'ja' ? ja : en);

/** Gates that change the protocol note's rules. */
export interface ProtocolGates {
  useHandoffTools: boolean;
  offerTransfer: boolean;
  awaitingReply: boolean;
  /** `plan` is offered (two or more connections): only then does the note mention it. */
  planOffered: boolean;
}

/** The system block that tells an agent with connections how to reach them. */
export function protocolNote(language: Language, names: string[], gates: ProtocolGates): string {
  const who = names.join(language === 'ja' ? '、' : ', ');
  if (!gates.useHandoffTools) {
    const first = names[0] ?? '';
    return t(
      language,
      `## やり取りの決まり\nここにいる仲間: ${who}。返答を人間に返して終えるときは、最後に [[END]] と書いてください。` +
        `[[END]] がない返答は、全文が ${first} に渡されます。`,
      `## How to work with others\nOthers here: ${who}. When your reply is for the person and you are done, end it ` +
        `with [[END]]. A reply without [[END]] is passed in full to ${first}.`,
    );
  }
  const lines: string[] = [
    t(language, `## やり取りの決まり\nここにいる仲間: ${who}。`, `## How to work with others\nOthers here: ${who}.`),
    gates.planOffered
      ? t(
          language,
          '- ask_* で仲間に質問すると、答えが返るまで待ちます。plan は複数の仲間に同時に頼み、答えをまとめて受け取ります。',
          '- ask_* asks one of them and waits for the answer; plan asks several at once and returns all answers together.',
        )
      : t(language, '- ask_* で仲間に質問すると、答えが返るまで待ちます。', '- ask_* asks one of them and waits for the answer.'),
  ];
  if (gates.offerTransfer) {
    lines.push(
      t(
        language,
        '- transfer_to_* は会話をその仲間に引き継ぎます。引き継いだら、あなたの番は終わりです。',
        '- transfer_to_* hands the conversation to that agent; once you transfer, your turn is over.',
      ),
    );
  }
  lines.push(
    gates.awaitingReply
      ? t(
          language,
          '- いまの依頼には相手が答えを待っています。あなたの最終的な返答がそのまま相手に返ります。',
          '- Someone is waiting for your answer to this request; your final reply goes straight back to them.',
        )
      : t(
          language,
          '- あなたの最終的な返答は人間に届きます。',
          '- Your final reply goes to the person.',
        ),
  );
  return lines.join('\n');
}

/** Tool description of `transfer_to_{id}`. */
export const transferDescription = (language: Language, name: string): string =>
  t(language, `会話を ${name} に引き継ぎます。`, `Hand the conversation over to ${name}.`);
/** Tool description of `ask_{id}`. */
export const askDescription = (language: Language, name: string): string =>
  t(language, `${name} に質問し、答えを待ちます。`, `Ask ${name} and wait for the answer.`);
/** Description of the `message` argument. */
export const messageArgDescription = (language: Language): string =>
  t(language, '相手に渡す本文', 'The message to pass on');
/** Tool description of `plan` (lists `id = name`). */
export const planDescription = (language: Language, entries: string[]): string =>
  t(
    language,
    `複数の仲間に同時に依頼し、全員の答えをまとめて受け取ります。宛先: ${entries.join(', ')}`,
    `Ask several agents at once and get all answers back together. Recipients: ${entries.join(', ')}`,
  );

/** Body for a tool name that was not offered. */
export const noSuchTool = (language: Language, name: string): string =>
  t(language, `そのようなツールはありません: ${name}`, `No such tool: ${name}`);
/** Body for a call stopped by the repeat guard. */
export const repeatBlockedBody = (language: Language, name: string): string =>
  t(
    language,
    `${name} を同じ引数で呼ぶのは止めました。同じ結果がすでに2回返っています。その結果を使うか、別のやり方を試してください。`,
    `Stopped calling ${name} with the same arguments: it already returned the same result twice. ` +
      'Use that result or try something else.',
  );
/** Body when a delegation would exceed the hop limit. */
export const hopLimitRefusal = (language: Language, maxHops: number): string =>
  t(
    language,
    `依頼の連鎖が上限（${maxHops} 段）に達したため、これ以上は頼めません。手元の情報で答えてください。`,
    `The chain of requests reached its limit (${maxHops} hops); nothing more can be delegated. ` +
      'Answer with what you have.',
  );
/** Body of a plan call that failed static validation (nothing was sent). */
export const planInvalid = (language: Language, problem: string): string =>
  t(language, `plan は送られませんでした: ${problem}`, `The plan was not sent: ${problem}`);
/** Body of an interrupted plan wave. */
export const planInterrupted = (language: Language): string =>
  t(language, 'plan は中断されました。答えは集まっていません。', 'The plan was interrupted; no answers were collected.');

/** Body of a plan a person rejected in review (nothing was sent). */
export const planRejected = (language: Language, note: string | null): string =>
  t(
    language,
    `この plan は人の確認で却下されました（何も送っていません）。${note ? `理由: ${note}。` : ''}` +
      '同じ plan を出し直さず、手元の情報で答えるか、やり方を変えてください。',
    `A person rejected this plan in review; nothing was sent.${note ? ` Reason: ${note}.` : ''} ` +
      'Do not send the same plan again: answer with what you have, or change the approach.',
  );
/** Body of a plan that needs a person's review when nobody can review it (and no bypass was given). */
export const planReviewUnavailable = (language: Language): string =>
  t(
    language,
    'この個体の plan は人の確認が必要ですが、確認できる人がいません。plan を使わずに答えてください。',
    "This agent's plans need a person's review, and no reviewer is attached; answer without a plan.",
  );

/** What a waiting asker receives when the asked agent handed the conversation on. */
export const handedOffReply = (language: Language, names: string[]): string =>
  t(
    language,
    `この依頼は ${names.join('、')} に引き継がれました。ここに答えは返ってきません。`,
    `This request was passed to ${names.join(', ')}; no answer will come back here.`,
  );
/** History reply of an interrupted turn. */
export const interruptedHistoryNote = (language: Language): string =>
  t(language, '（この番は中断されました）', '(This turn was interrupted.)');
/** System→User notice of an interruption. */
export const interruptedNotice = (language: Language, agentName: string, seconds: number): string =>
  t(
    language,
    `${agentName} の番を中断しました（開始から ${seconds.toFixed(1)} 秒）。`,
    `${agentName}'s turn was interrupted (${seconds.toFixed(1)}s after it started).`,
  );
/** History reply of a turn stopped by the budget. */
export const budgetHistoryNote = (language: Language): string =>
  t(language, '（トークン予算が足りず、この番は止まりました）', '(This turn stopped: the token budget ran out.)');
/** The one System→User notice per causal root when the budget stops a turn. */
export const budgetNotice = (language: Language, ceilingTokens: number): string =>
  t(
    language,
    `トークン予算（1 件あたり ${ceilingTokens} 実効トークン）を使い切ったため、次の呼び出しを確保できませんでした。新しい依頼として送り直してください。`,
    `The next call could not be reserved: this request used up its token budget (${ceilingTokens} effective ` +
      'tokens). Send a new request to continue.',
  );
/** System instruction of the summary call. */
export const summarizeInstruction = (language: Language): string =>
  t(
    language,
    'ツールはもう使えません。ここまでに分かったことと、まだ分からないことを、依頼した相手に向けて簡潔にまとめてください。',
    'No more tools can be used. Summarize for the requester what you found so far and what is still open, briefly.',
  );

/** Why a finished reply had no body. */
export type EmptyReason = { kind: 'repeat' } | { kind: 'tool_limit'; cap: number } | { kind: 'length' } | { kind: 'blank' };

/** The parenthesized explanation that replaces an empty reply (an empty reply is never stored). */
export function emptyFallback(language: Language, reason: EmptyReason): string {
  switch (reason.kind) {
    case 'repeat':
      return t(language, '（同じツール呼び出しの繰り返しを止めたため、返答はありません）', '(No reply: a repeated tool call was stopped.)');
    case 'tool_limit':
      return t(
        language,
        `（ツールの使用回数の上限 ${reason.cap} 回に達したため、返答はありません）`,
        `(No reply: the tool-round limit of ${reason.cap} was reached.)`,
      );
    case 'length':
      return t(language, '（出力トークンを使い切り、本文がありません）', '(No reply: the output tokens ran out before any text.)');
    case 'blank':
      return t(language, '（返答の本文がありませんでした）', '(The reply had no text.)');
  }
}

/** The folded summary block of older history. */
export const summaryBlock = (language: Language, summary: string): string =>
  t(language, `## これまでの要約\n${summary}`, `## Summary so far\n${summary}`);
/** The broadcast note when the same message went to several agents. */
export const broadcastNote = (language: Language, recipients: string[]): string =>
  t(
    language,
    `（このメッセージは ${recipients.join('、')} に同時に送られています）`,
    `(This message was sent to ${recipients.join(', ')} at the same time.)`,
  );
