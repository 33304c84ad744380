/**
 * A rubric judged by a model (pure): the prompt the judge is sent and how its reply becomes a verdict. The judge is
 * told to answer on its first line `PASS` or `FAIL`, then one line of reason; anything else is a FAIL that says the
 * judge did not answer in that form (a verdict is never guessed from prose).
 */
import type { Verdict } from './judgeRepeat.js';

/** The system text of every rubric call. */
export const RUBRIC_SYSTEM =
  'You grade one answer of an AI agent team against a rubric. Reply with exactly two lines: the first is PASS or ' +
  'FAIL, the second is one short sentence saying why. Judge only by the rubric.';

/** The user text of one rubric call. */
export function rubricPrompt(rubric: string, request: string, answer: string): string {
  return `Rubric:\n${rubric}\n\nRequest the team was sent:\n${request}\n\nThe team's answer:\n${answer}`;
}

/** The judge's reply → a verdict for `expectation`. */
export function rubricVerdict(expectation: string, reply: string): Verdict {
  const lines = reply.trim().split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  const head = /^\**\s*(PASS|FAIL)\b[\s*:.\-–—]*(.*)$/i.exec(lines[0] ?? '');
  if (head === null) {
    const seen = reply.trim().slice(0, 80);
    return { expectation, pass: false, reason: `the judge did not answer PASS or FAIL (it said ${JSON.stringify(seen)})` };
  }
  const reason = [head[2]?.trim() ?? '', ...lines.slice(1)].filter((l) => l !== '').join(' ').slice(0, 300);
  return { expectation, pass: head[1]!.toUpperCase() === 'PASS', reason: `judge: ${reason === '' ? '(no reason given)' : reason}` };
}
