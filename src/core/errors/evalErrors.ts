/**
 * Eval cases (`workspace/evals/*.json`): a case file that cannot be used (EVAL_CASE_INVALID, naming the file, the
 * field and the fix) and a `--case` that names no case file (EVAL_CASE_NOT_FOUND). The file is never rewritten.
 */
import type { EvalCaseProblem } from '../evals/parseEvalCase.js';
import { problemText } from '../evals/parseEvalCase.js';
import { errorFactory } from './errorFactory.js';

/** A case file that cannot be used. */
export const evalCaseInvalid = errorFactory('EVAL_CASE_INVALID', (p: EvalCaseProblem) => ({
  message: problemText(p),
  fix: p.fix,
  details: { file: p.file, field: p.field },
}));

/** `--case ID` names no `workspace/evals/{ID}.json`. */
export const evalCaseNotFound = errorFactory('EVAL_CASE_NOT_FOUND', (id: string, known: readonly string[]) => ({
  message: `No eval case "${id}": there is no workspace/evals/${id}.json${known.length > 0 ? ` (cases: ${known.join(', ')})` : ' (the village has no eval cases)'}.`,
  fix: 'Name a case by its file name without .json, or add the file.',
  details: { field: '--case' },
}));
