/**
 * The verdicts of one repeat (pure): every expectation of a case against what the repeat showed — its answer and
 * its trace (outcome, who was asked, which tools ran with which arguments, rounds, hops, tokens, cost). A rubric's
 * verdict comes from a model; the host asks it (rubricJudge.ts builds the prompt and reads the reply) and hands the
 * verdicts in, in the order of the case's rubrics. JSON Schema validation is a port for the same reason: the
 * validator library lives in the host, so this file stays free of it (and importable from a worker).
 */
import type { PlanTaskState } from '../events.js';
import type { AnswerExpectation, ArgMatcher, EvalCase, TextMatcher, ToolCallMatcher } from './evalCase.js';

/** One tool call as the run showed it; `args` is the arguments' JSON text (possibly cut, see `argsCut`). */
export interface TracedToolCall {
  agentId: string;
  tool: string;
  ok: boolean;
  args: string;
}

/** What one repeat showed, gathered from the conversation's records and the events of the run. */
export interface RepeatTrace {
  answer: string;
  outcome: PlanTaskState;
  /** Agents that received a message in the conversation, in first-asked order. */
  asked: string[];
  toolCalls: TracedToolCall[];
  /** The most model rounds any one turn took (0 when no turn was recorded). */
  maxRounds: number;
  /** The deepest hop reached (0 = only the reception worked). */
  maxHop: number;
  effectiveTokens: number;
  /** USD from the templates' prices; null when no call was priced. */
  costUsd: number | null;
}

/** One expectation's verdict, with the reason a person reads. */
export interface Verdict {
  /** A short label: the kind and its operand (`contains "report"`, `maxHops 2`). */
  expectation: string;
  pass: boolean;
  reason: string;
}

/** Validates `value` against `schema`: null when valid, else the validator's first complaint. */
export type JsonSchemaCheck = (schema: Record<string, unknown>, value: unknown) => string | null;

const quote = (text: string, max = 60): string => JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Text matching as a case file describes it. */
export function matchText(matcher: TextMatcher, text: string): boolean {
  if ('equals' in matcher) return text === matcher.equals;
  if ('contains' in matcher) return text.includes(matcher.contains);
  return new RegExp(matcher.regex, matcher.flags).test(text);
}

function matcherLabel(matcher: TextMatcher): string {
  if ('equals' in matcher) return `equals ${quote(matcher.equals)}`;
  if ('contains' in matcher) return `contains ${quote(matcher.contains)}`;
  return `regex /${matcher.regex}/${matcher.flags}`;
}

/** The answer's JSON: the whole text, else the first fenced ```json block; undefined when neither parses. */
export function answerJson(answer: string): unknown {
  const candidates = [answer.trim(), /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(answer)?.[1]?.trim()];
  for (const text of candidates) {
    if (text === undefined || text === '') continue;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

/** An answer expectation's label. */
export function answerLabel(e: AnswerExpectation): string {
  switch (e.kind) {
    case 'contains':
      return `contains ${quote(e.text)}${e.ignoreCase ? ' (any case)' : ''}`;
    case 'notContains':
      return `notContains ${quote(e.text)}${e.ignoreCase ? ' (any case)' : ''}`;
    case 'regex':
      return `regex /${e.pattern}/${e.flags}`;
    case 'equals':
      return `equals ${quote(e.text)}`;
    case 'jsonSchema':
      return 'jsonSchema';
    case 'rubric':
      return `rubric ${quote(e.rubric)} (judge ${e.judge.kind === 'jev' ? 'jev' : e.judge.templateId})`;
  }
}

/** One non-rubric answer expectation's verdict. */
export function checkAnswer(e: Exclude<AnswerExpectation, { kind: 'rubric' }>, answer: string, validate: JsonSchemaCheck): Verdict {
  const expectation = answerLabel(e);
  const fold = (s: string, ignore: boolean): string => (ignore ? s.toLowerCase() : s);
  switch (e.kind) {
    case 'contains': {
      const pass = fold(answer, e.ignoreCase).includes(fold(e.text, e.ignoreCase));
      return { expectation, pass, reason: pass ? 'found in the answer' : `not found in the answer (${answer.length} chars)` };
    }
    case 'notContains': {
      const at = fold(answer, e.ignoreCase).indexOf(fold(e.text, e.ignoreCase));
      return { expectation, pass: at < 0, reason: at < 0 ? 'absent from the answer' : `found at char ${at}` };
    }
    case 'regex': {
      const m = new RegExp(e.pattern, e.flags).exec(answer);
      return { expectation, pass: m !== null, reason: m === null ? 'no match in the answer' : `matched ${quote(m[0])}` };
    }
    case 'equals': {
      const pass = answer === e.text;
      return { expectation, pass, reason: pass ? 'the answer is exactly this' : `the answer differs (${quote(answer)})` };
    }
    case 'jsonSchema': {
      const value = answerJson(answer);
      if (value === undefined) return { expectation, pass: false, reason: 'the answer is not JSON (nor has a ```json block)' };
      const complaint = validate(e.schema, value);
      return { expectation, pass: complaint === null, reason: complaint ?? 'the answer\'s JSON validates' };
    }
  }
}

function argsOf(call: TracedToolCall): Record<string, unknown> | null {
  try {
    const parsed = JSON.parse(call.args) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return null;
  }
}

function argMatches(m: ArgMatcher, value: unknown): boolean {
  if (m.kind === 'value') return JSON.stringify(value) === JSON.stringify(m.value);
  if (value === undefined) return false;
  return matchText(m.matcher, typeof value === 'string' ? value : JSON.stringify(value));
}

/** True when `call` is the tool named by `m` and every argument matcher matches. */
export function callMatches(m: ToolCallMatcher, call: TracedToolCall): boolean {
  if (call.tool !== m.tool) return false;
  const names = Object.keys(m.args);
  if (names.length === 0) return true;
  const args = argsOf(call);
  if (args === null) return false;
  return names.every((name) => argMatches(m.args[name]!, args[name]));
}

function toolLabel(prefix: string, m: ToolCallMatcher): string {
  const args = Object.entries(m.args).map(([k, a]) => `${k} ${a.kind === 'value' ? `= ${JSON.stringify(a.value)}` : matcherLabel(a.matcher)}`);
  return `${prefix} ${m.tool}${args.length > 0 ? ` (${args.join(', ')})` : ''}`;
}

function callsSeen(trace: RepeatTrace): string {
  const names = [...new Set(trace.toolCalls.map((c) => c.tool))];
  return names.length === 0 ? 'no tool was called' : `called: ${names.join(', ')}`;
}

function limit(expectation: string, actual: number, max: number, unit: string): Verdict {
  return { expectation, pass: actual <= max, reason: `${actual} ${unit}${actual <= max ? ' ≤ ' : ' > '}${max}` };
}

/** The run expectations' verdicts, in the order the format lists them. */
export function checkRun(c: Pick<EvalCase, 'run'>, trace: RepeatTrace): Verdict[] {
  const r = c.run;
  const out: Verdict[] = [];
  if (r.outcome !== undefined) {
    const pass = r.outcome.includes(trace.outcome);
    out.push({ expectation: `outcome ${r.outcome.join(' | ')}`, pass, reason: `the delivery ended ${trace.outcome}` });
  }
  for (const id of r.asked ?? []) {
    const pass = trace.asked.includes(id);
    out.push({ expectation: `asked ${id}`, pass, reason: pass ? `${id} received a message` : `${id} was never asked (asked: ${trace.asked.join(', ') || 'nobody'})` });
  }
  for (const id of r.notAsked ?? []) {
    const pass = !trace.asked.includes(id);
    out.push({ expectation: `notAsked ${id}`, pass, reason: pass ? `${id} received no message` : `${id} was asked` });
  }
  for (const m of r.toolsCalled ?? []) {
    const hit = trace.toolCalls.find((call) => callMatches(m, call));
    out.push({ expectation: toolLabel('called', m), pass: hit !== undefined, reason: hit !== undefined ? `${hit.agentId} called it` : `no matching call (${callsSeen(trace)})` });
  }
  for (const m of r.toolsNotCalled ?? []) {
    const hit = trace.toolCalls.find((call) => callMatches(m, call));
    out.push({ expectation: toolLabel('notCalled', m), pass: hit === undefined, reason: hit === undefined ? 'no matching call' : `${hit.agentId} called it with ${hit.args}` });
  }
  if (r.maxRounds !== undefined) out.push(limit(`maxRounds ${r.maxRounds}`, trace.maxRounds, r.maxRounds, 'rounds (most in one turn)'));
  if (r.maxHops !== undefined) out.push(limit(`maxHops ${r.maxHops}`, trace.maxHop, r.maxHops, 'hops'));
  if (r.maxTokens !== undefined) out.push(limit(`maxTokens ${r.maxTokens}`, trace.effectiveTokens, r.maxTokens, 'effective tokens'));
  if (r.maxCostUsd !== undefined) {
    const max = r.maxCostUsd;
    out.push(
      trace.costUsd === null
        ? { expectation: `maxCostUsd ${max}`, pass: false, reason: 'no call of the run has a price (set the templates\' prices)' }
        : { expectation: `maxCostUsd ${max}`, pass: trace.costUsd <= max, reason: `$${trace.costUsd.toFixed(6)}${trace.costUsd <= max ? ' ≤ ' : ' > '}$${max}` },
    );
  }
  return out;
}

/**
 * Every verdict of one repeat: the answer's (rubric verdicts taken from `rubrics`, in order) then the run's.
 * A repeat passes when every verdict does.
 */
export function judgeRepeat(c: Pick<EvalCase, 'answer' | 'run'>, trace: RepeatTrace, rubrics: readonly Verdict[], validate: JsonSchemaCheck): Verdict[] {
  const out: Verdict[] = [];
  let nextRubric = 0;
  for (const e of c.answer) {
    if (e.kind === 'rubric') {
      out.push(rubrics[nextRubric] ?? { expectation: answerLabel(e), pass: false, reason: 'the judge gave no verdict' });
      nextRubric += 1;
    } else out.push(checkAnswer(e, trace.answer, validate));
  }
  return [...out, ...checkRun(c, trace)];
}
