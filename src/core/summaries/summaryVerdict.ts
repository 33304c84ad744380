/**
 * What to do with a summary the model wrote (pure): an empty one folds nothing; one at least as long as what it
 * folds still folds, with a warning (it saves nothing); the System→User line that reports a run.
 */
import type { Language } from '../world/types.js';

/** Fold or not, and what to warn about. */
export type SummaryVerdict =
  | { fold: false; warning: 'empty' }
  | { fold: true; warning: 'longer' | null };

/** Judges `text` against the chars of history it replaces. */
export function judgeSummary(text: string, foldedChars: number): SummaryVerdict {
  if (text.trim() === '') return { fold: false, warning: 'empty' };
  return { fold: true, warning: text.length >= foldedChars ? 'longer' : null };
}

/** The one System→User line after a run: how many agents were summarized, and who was skipped because stopped. */
export function summaryNotice(language: Language, summarized: number, stoppedNames: readonly string[]): string {
  if (language === 'ja') {
    const skipped = stoppedNames.length === 0 ? '' : `（停止中のため対象外: ${stoppedNames.join('、')}）`;
    return `${summarized} 体の会話を要約して続きを軽くしました${skipped}。元の発言はこの会話に残っています。`;
  }
  const who = summarized === 1 ? '1 agent' : `${summarized} agents`;
  const skipped = stoppedNames.length === 0 ? '' : ` (skipped, not running: ${stoppedNames.join(', ')})`;
  return `Summarized the conversation of ${who} and continued${skipped}. The original messages stay in this conversation.`;
}
