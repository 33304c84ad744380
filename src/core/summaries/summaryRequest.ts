/**
 * The "summarize and continue" call of one agent (pure): previous summary + the history being folded + the
 * instruction, with no tools. The model writes one summary that replaces the previous one; the exchanges it
 * covers leave the agent's context (they stay in the session store and its export).
 */
import type { ChatMessage, ChatRequest } from '../llm/canonical.js';
import type { Exchange } from '../turn/ports.js';
import type { Language, ModelTemplate } from '../world/types.js';

/** Chars of history read per 1 token of the template's context (≈ 3 chars a token, a third kept free). */
const HISTORY_CHARS_PER_CONTEXT_TOKEN = 2;
/** Read at least this much history even on a tiny context. */
const MIN_HISTORY_CHARS = 8_000;

/** What one summary call folds and reads. */
export interface SummaryPlan {
  request: ChatRequest;
  /** Messages folded (2 per exchange), and their chars: what the summary replaces. */
  foldedMsgs: number;
  foldedChars: number;
  /** Oldest exchanges left out of the request because they did not fit the template's context (still folded). */
  unread: number;
}

const WORDS = {
  en: {
    system:
      'You keep a running summary of a conversation so it can go on without its full history. Keep what was asked, ' +
      'decided and done, what is still open, and the names, numbers, file paths and promises that matter. Leave out ' +
      'greetings and repetition.',
    previous: (text: string) => `## Summary so far\n${text}`,
    ack: 'Understood.',
    instruction:
      'Write one new summary of everything above, including the summary so far: it replaces that summary. ' +
      'Write in English. Output only the summary.',
  },
  ja: {
    system:
      'あなたは会話の要約係です。会話の全文がなくても続けられるように、頼まれたこと・決まったこと・済んだこと・残っていること、' +
      'そして大事な名前・数字・ファイルの場所・約束を残してください。挨拶や繰り返しは省きます。',
    previous: (text: string) => `## これまでの要約\n${text}`,
    ack: '承知しました。',
    instruction: 'ここまでの内容（これまでの要約を含む）を、新しい要約 1 つにまとめてください。これまでの要約を置き換えます。日本語で、要約だけを出力してください。',
  },
} as const;

/** Chars of history the request may carry for `contextLength` tokens. */
export function historyCharBudget(contextLength: number): number {
  return Math.max(MIN_HISTORY_CHARS, Math.floor(contextLength * HISTORY_CHARS_PER_CONTEXT_TOKEN));
}

/**
 * Plans the summary call over `history` (oldest first); null when there is nothing to fold. The newest exchanges
 * that fit the template's context are read; older ones that do not are still folded and counted in `unread`
 * (the log says so: their text leaves the agent's context, and stays in the session store and its export).
 */
export function planSummary(template: ModelTemplate, language: Language, previous: string | null, history: readonly Exchange[]): SummaryPlan | null {
  if (history.length === 0) return null;
  const words = WORDS[language];
  const budget = historyCharBudget(template.contextLength) - (previous?.length ?? 0);
  let used = 0;
  let first = history.length;
  while (first > 0) {
    const e = history[first - 1]!;
    const size = e.sent.length + e.replied.length;
    if (first < history.length && used + size > budget) break;
    used += size;
    first -= 1;
  }
  const messages: ChatMessage[] = [{ role: 'system', content: words.system }];
  if (previous !== null && previous.trim() !== '') {
    messages.push({ role: 'user', content: words.previous(previous.trim()) }, { role: 'assistant', content: words.ack });
  }
  for (const e of history.slice(first)) messages.push({ role: 'user', content: e.sent }, { role: 'assistant', content: e.replied });
  messages.push({ role: 'user', content: words.instruction });
  return {
    request: {
      model: template.model,
      messages,
      tools: [],
      toolChoice: 'none',
      temperature: template.temperature,
      maxTokens: template.maxOutputTokens,
      effort: template.effort,
      cacheablePrefixLen: 0,
    },
    foldedMsgs: history.length * 2,
    foldedChars: history.reduce((n, e) => n + e.sent.length + e.replied.length, 0),
    unread: first,
  };
}
