/**
 * An eval case (`workspace/evals/{id}.json`): one request to the village, how often to send it, and what its answer
 * and its run must show. The types only; `parseEvalCase.ts` turns a file's text into one (or an error naming the
 * file and the field). Keys this build does not know are left in the file: nothing here ever rewrites it.
 */
import type { PlanTaskState } from '../events.js';

/** How a text is matched: the whole text, a substring, or a regular expression. */
export type TextMatcher = { equals: string } | { contains: string } | { regex: string; flags: string };

/** One expectation on the answer text. */
export type AnswerExpectation =
  | { kind: 'contains'; text: string; ignoreCase: boolean }
  | { kind: 'notContains'; text: string; ignoreCase: boolean }
  | { kind: 'regex'; pattern: string; flags: string }
  | { kind: 'equals'; text: string }
  /** The answer parses as JSON (a fenced ```json block is taken when the whole answer is not JSON) and validates. */
  | { kind: 'jsonSchema'; schema: Record<string, unknown> }
  /** A model reads the request, the answer and the rubric and answers PASS or FAIL with a reason. */
  | { kind: 'rubric'; rubric: string; judge: RubricJudge };

/** Who judges a rubric: Jev (the shelf's helper model) or one of the village's model templates. */
export type RubricJudge = { kind: 'jev' } | { kind: 'template'; templateId: string };

/** A tool call the run must (or must not) show; `args` matches named arguments (all must match). */
export interface ToolCallMatcher {
  tool: string;
  args: Record<string, ArgMatcher>;
}

/** One argument: a plain JSON value must equal it; a matcher object matches its text form. */
export type ArgMatcher = { kind: 'value'; value: unknown } | { kind: 'text'; matcher: TextMatcher };

/** Expectations on how the run went. Absent fields are not checked. */
export interface RunExpectations {
  /** The delivery must end in one of these. */
  outcome?: PlanTaskState[];
  /** Agents that must receive a message in the conversation (from outside or from another agent). */
  asked?: string[];
  notAsked?: string[];
  toolsCalled?: ToolCallMatcher[];
  toolsNotCalled?: ToolCallMatcher[];
  /** The most model rounds any one turn of the chain may take. */
  maxRounds?: number;
  /** The deepest delegation hop the chain may reach (0 = the reception alone). */
  maxHops?: number;
  /** Effective tokens of the whole chain (the budget's weights). */
  maxTokens?: number;
  /** USD of the whole chain from the templates' prices; an unpriced run fails this expectation (it cannot be shown). */
  maxCostUsd?: number;
}

/** A file the run needs, written into the work folder before each repeat. */
export interface SetupFile {
  /** Relative path inside the work folder. */
  path: string;
  /** The file's text, or (with `from`) a file under `workspace/evals/` to copy. */
  source: { kind: 'text'; text: string } | { kind: 'copy'; from: string };
}

/** What is prepared before each repeat. */
export interface EvalSetup {
  /** The agent whose work folder receives the files (default: the reception). */
  agent: string | null;
  files: SetupFile[];
}

/** A parsed eval case. */
export interface EvalCase {
  /** The file name without `.json`. */
  id: string;
  /** `workspace/evals/{id}.json`, relative to the data dir. */
  file: string;
  description: string | null;
  request: string;
  /** The start set of this case (`--start` syntax); null = the command's `--start`. */
  start: string | null;
  repeat: number;
  /** Share of repeats (0–1) that must pass for the case to pass. */
  minPassRate: number;
  setup: EvalSetup | null;
  answer: AnswerExpectation[];
  run: RunExpectations;
}

/** Defaults of a case that leaves them out. */
export const EVAL_DEFAULTS = { repeat: 1, minPassRate: 1 } as const;

/** The most repeats one case may ask for (a typo like 1000 would spend a budget in one go). */
export const MAX_REPEAT = 100;
