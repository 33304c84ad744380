/**
 * `workspace/evals/{id}.json` text → an EvalCase, or the first problem naming the file, the field (a dotted path
 * such as `expect.answer[2].regex`) and the fix (pure). Hand-written rather than a schema so every message says
 * what the field must be in words a person can act on. Keys this build does not know are ignored (and stay in the
 * file: it is never rewritten here).
 */
import { PLAN_TASK_STATES, type PlanTaskState } from '../events.js';
import { isSafeIdentifier } from '../world/identifiers.js';
import {
  EVAL_DEFAULTS,
  MAX_REPEAT,
  type AnswerExpectation,
  type ArgMatcher,
  type EvalCase,
  type EvalSetup,
  type RubricJudge,
  type RunExpectations,
  type SetupFile,
  type TextMatcher,
  type ToolCallMatcher,
} from './evalCase.js';

/** Why a case file cannot be used. */
export interface EvalCaseProblem {
  /** `workspace/evals/{name}`, relative to the data dir. */
  file: string;
  /** Dotted path of the field ("" for the file as a whole). */
  field: string;
  problem: string;
  fix: string;
}

export type EvalCaseParse = { ok: true; evalCase: EvalCase } | { ok: false; problem: EvalCaseProblem };

type Obj = Record<string, unknown>;

/** Thrown inside the parser only; turned into a problem at the top. */
class Bad {
  constructor(
    readonly field: string,
    readonly problem: string,
    readonly fix: string,
  ) {}
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(o: Obj, key: string, field: string, required: true): string;
function str(o: Obj, key: string, field: string, required: false): string | null;
function str(o: Obj, key: string, field: string, required: boolean): string | null {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw new Bad(field, 'is missing', `Add "${key}" (a text).`);
    return null;
  }
  if (typeof v !== 'string') throw new Bad(field, `must be a text, not ${typeName(v)}`, `Write "${key}" as a JSON string.`);
  return v;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function positiveInt(v: unknown, field: string, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) {
    throw new Bad(field, `must be a whole number from 1 to ${max}, not ${JSON.stringify(v)}`, `Set ${field} to a number such as 1.`);
  }
  return v;
}

function nonNegative(v: unknown, field: string, integer: boolean): number {
  const ok = typeof v === 'number' && Number.isFinite(v) && v >= 0 && (!integer || Number.isInteger(v));
  if (!ok) throw new Bad(field, `must be ${integer ? 'a whole number' : 'a number'} of 0 or more, not ${JSON.stringify(v)}`, `Set ${field} to such a number, or remove it.`);
  return v as number;
}

function list(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) throw new Bad(field, `must be a list, not ${typeName(v)}`, `Write ${field} as a JSON list [ … ].`);
  return v;
}

function regexFlags(flags: unknown, field: string): string {
  if (flags === undefined) return '';
  if (typeof flags !== 'string' || !/^[imsu]*$/.test(flags)) throw new Bad(field, `must be regex flags made of i, m, s, u, not ${JSON.stringify(flags)}`, 'Use for example "i" for a case-insensitive match.');
  return flags;
}

function checkedRegex(pattern: string, flags: string, field: string): void {
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    throw new Bad(field, `is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`, 'Correct the pattern (JSON strings need \\\\ for one backslash).');
  }
}

function textMatcher(v: unknown, field: string): TextMatcher {
  if (!isObj(v)) throw new Bad(field, `must be {"equals"|"contains"|"regex": text}, not ${typeName(v)}`, 'Write for example {"contains": "report"}.');
  if (typeof v['equals'] === 'string') return { equals: v['equals'] };
  if (typeof v['contains'] === 'string') return { contains: v['contains'] };
  if (typeof v['regex'] === 'string') {
    const flags = regexFlags(v['flags'], `${field}.flags`);
    checkedRegex(v['regex'], flags, `${field}.regex`);
    return { regex: v['regex'], flags };
  }
  throw new Bad(field, 'has none of "equals", "contains" or "regex" as a text', 'Write for example {"contains": "report"}.');
}

function answerExpectation(v: unknown, field: string): AnswerExpectation {
  if (!isObj(v)) throw new Bad(field, `must be an object such as {"contains": "…"}, not ${typeName(v)}`, 'See docs/village-format.md "Eval cases" for the kinds.');
  const ignoreCase = v['ignoreCase'] === true;
  if ('contains' in v) return { kind: 'contains', text: str(v, 'contains', `${field}.contains`, true), ignoreCase };
  if ('notContains' in v) return { kind: 'notContains', text: str(v, 'notContains', `${field}.notContains`, true), ignoreCase };
  if ('equals' in v) return { kind: 'equals', text: str(v, 'equals', `${field}.equals`, true) };
  if ('regex' in v) {
    const pattern = str(v, 'regex', `${field}.regex`, true);
    const flags = regexFlags(v['flags'], `${field}.flags`);
    checkedRegex(pattern, flags, `${field}.regex`);
    return { kind: 'regex', pattern, flags };
  }
  if ('jsonSchema' in v) {
    const schema = v['jsonSchema'];
    if (!isObj(schema)) throw new Bad(`${field}.jsonSchema`, `must be a JSON Schema object, not ${typeName(schema)}`, 'Write for example {"type": "object", "required": ["title"]}.');
    return { kind: 'jsonSchema', schema };
  }
  if ('rubric' in v) {
    const rubric = str(v, 'rubric', `${field}.rubric`, true);
    if (rubric.trim() === '') throw new Bad(`${field}.rubric`, 'is empty', 'Say what a good answer does, in a sentence or two.');
    return { kind: 'rubric', rubric, judge: judgeOf(v['judge'], `${field}.judge`) };
  }
  throw new Bad(field, `names no expectation kind (keys: ${Object.keys(v).join(', ') || 'none'})`, 'Use one of contains, notContains, regex, equals, jsonSchema, rubric.');
}

function judgeOf(v: unknown, field: string): RubricJudge {
  if (v === undefined || v === null || v === 'jev') return { kind: 'jev' };
  if (isObj(v) && typeof v['template'] === 'string' && v['template'] !== '') return { kind: 'template', templateId: v['template'] };
  throw new Bad(field, `must be "jev" or {"template": "<model template id>"}, not ${JSON.stringify(v)}`, 'Leave it out to use Jev, or name one of world.json\'s modelTemplates.');
}

function agentIds(v: unknown, field: string): string[] {
  return list(v, field).map((id, i) => {
    if (typeof id !== 'string' || !isSafeIdentifier(id)) throw new Bad(`${field}[${i}]`, `must be an agent id, not ${JSON.stringify(id)}`, 'Use the id from world.json (letters, digits, - and _).');
    return id;
  });
}

function argMatcher(v: unknown, field: string): ArgMatcher {
  if (isObj(v) && ('equals' in v || 'contains' in v || 'regex' in v)) return { kind: 'text', matcher: textMatcher(v, field) };
  return { kind: 'value', value: v };
}

function toolMatchers(v: unknown, field: string): ToolCallMatcher[] {
  return list(v, field).map((item, i) => {
    const at = `${field}[${i}]`;
    if (typeof item === 'string' && item !== '') return { tool: item, args: {} };
    if (!isObj(item)) throw new Bad(at, `must be a tool name or {"tool": name, "args": {…}}, not ${typeName(item)}`, 'Write for example {"tool": "ask_researcher"}.');
    const tool = str(item, 'tool', `${at}.tool`, true);
    const args: Record<string, ArgMatcher> = {};
    if (item['args'] !== undefined) {
      if (!isObj(item['args'])) throw new Bad(`${at}.args`, `must be an object of argument matchers, not ${typeName(item['args'])}`, 'Write for example {"path": {"contains": "notes"}}.');
      for (const [name, m] of Object.entries(item['args'])) args[name] = argMatcher(m, `${at}.args.${name}`);
    }
    return { tool, args };
  });
}

function outcomes(v: unknown, field: string): PlanTaskState[] {
  const items = typeof v === 'string' ? [v] : list(v, field);
  return items.map((s, i) => {
    if (typeof s !== 'string' || !(PLAN_TASK_STATES as readonly string[]).includes(s)) {
      throw new Bad(typeof v === 'string' ? field : `${field}[${i}]`, `must be one of ${PLAN_TASK_STATES.join(', ')}, not ${JSON.stringify(s)}`, 'Most cases expect "answered".');
    }
    return s as PlanTaskState;
  });
}

function runExpectations(v: unknown, field: string): RunExpectations {
  if (v === undefined) return {};
  if (!isObj(v)) throw new Bad(field, `must be an object, not ${typeName(v)}`, 'Write for example {"outcome": "answered"}.');
  const run: RunExpectations = {};
  if (v['outcome'] !== undefined) run.outcome = outcomes(v['outcome'], `${field}.outcome`);
  if (v['asked'] !== undefined) run.asked = agentIds(v['asked'], `${field}.asked`);
  if (v['notAsked'] !== undefined) run.notAsked = agentIds(v['notAsked'], `${field}.notAsked`);
  if (v['toolsCalled'] !== undefined) run.toolsCalled = toolMatchers(v['toolsCalled'], `${field}.toolsCalled`);
  if (v['toolsNotCalled'] !== undefined) run.toolsNotCalled = toolMatchers(v['toolsNotCalled'], `${field}.toolsNotCalled`);
  if (v['maxRounds'] !== undefined) run.maxRounds = nonNegative(v['maxRounds'], `${field}.maxRounds`, true);
  if (v['maxHops'] !== undefined) run.maxHops = nonNegative(v['maxHops'], `${field}.maxHops`, true);
  if (v['maxTokens'] !== undefined) run.maxTokens = nonNegative(v['maxTokens'], `${field}.maxTokens`, true);
  if (v['maxCostUsd'] !== undefined) run.maxCostUsd = nonNegative(v['maxCostUsd'], `${field}.maxCostUsd`, false);
  return run;
}

function relativePath(v: unknown, field: string): string {
  if (typeof v !== 'string' || v === '' || v.startsWith('/') || v.split(/[\\/]/).some((part) => part === '..' || part === '')) {
    throw new Bad(field, `must be a relative path without .. (for example "input/notes.txt"), not ${JSON.stringify(v)}`, 'Name a path inside the folder.');
  }
  return v;
}

function setupOf(v: unknown, field: string): EvalSetup | null {
  if (v === undefined || v === null) return null;
  if (!isObj(v)) throw new Bad(field, `must be an object, not ${typeName(v)}`, 'Write for example {"files": [{"path": "notes.txt", "text": "…"}]}.');
  const agent = v['agent'] === undefined ? null : agentIds([v['agent']], `${field}.agent`)[0]!;
  const files: SetupFile[] = list(v['files'] ?? [], `${field}.files`).map((item, i) => {
    const at = `${field}.files[${i}]`;
    if (!isObj(item)) throw new Bad(at, `must be {"path", "text"} or {"path", "from"}, not ${typeName(item)}`, 'Write for example {"path": "notes.txt", "text": "…"}.');
    const path = relativePath(item['path'], `${at}.path`);
    if (typeof item['text'] === 'string') return { path, source: { kind: 'text', text: item['text'] } };
    if (item['from'] !== undefined) return { path, source: { kind: 'copy', from: relativePath(item['from'], `${at}.from`) } };
    throw new Bad(at, 'has neither "text" nor "from"', 'Give the file\'s text, or "from": a file under workspace/evals/ to copy.');
  });
  return { agent, files };
}

/** Parses the text of `workspace/evals/{name}` (pure). */
export function parseEvalCase(name: string, text: string): EvalCaseParse {
  const file = `workspace/evals/${name}`;
  try {
    if (!/\.json$/.test(name) || !isSafeIdentifier(name.slice(0, -'.json'.length))) {
      throw new Bad('', 'is not named {id}.json with an id of letters, digits, - and _', 'Rename the file, for example research-basics.json.');
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      throw new Bad('', `is not valid JSON (${error instanceof Error ? error.message : String(error)})`, 'Fix the JSON syntax; the file is never rewritten by the runtime.');
    }
    if (!isObj(doc)) throw new Bad('', `must hold one JSON object, not ${typeName(doc)}`, 'Write the case as {"request": "…", "expect": {…}}.');
    const request = str(doc, 'request', 'request', true);
    if (request.trim() === '') throw new Bad('request', 'is empty', 'Write the request the village is sent.');
    const minPassRate = doc['minPassRate'] === undefined ? EVAL_DEFAULTS.minPassRate : doc['minPassRate'];
    if (typeof minPassRate !== 'number' || !(minPassRate >= 0 && minPassRate <= 1)) {
      throw new Bad('minPassRate', `must be a number from 0 to 1, not ${JSON.stringify(minPassRate)}`, 'Use for example 0.8 (four of five repeats must pass).');
    }
    const expect = doc['expect'] ?? {};
    if (!isObj(expect)) throw new Bad('expect', `must be an object, not ${typeName(expect)}`, 'Write {"answer": […], "run": {…}}.');
    const answer = list(expect['answer'] ?? [], 'expect.answer').map((e, i) => answerExpectation(e, `expect.answer[${i}]`));
    const run = runExpectations(expect['run'], 'expect.run');
    if (answer.length === 0 && Object.keys(run).length === 0) throw new Bad('expect', 'has no expectation', 'Add at least one, for example {"answer": [{"contains": "…"}]}.');
    const evalCase: EvalCase = {
      id: name.slice(0, -'.json'.length),
      file,
      description: str(doc, 'description', 'description', false),
      request,
      start: str(doc, 'start', 'start', false),
      repeat: doc['repeat'] === undefined ? EVAL_DEFAULTS.repeat : positiveInt(doc['repeat'], 'repeat', MAX_REPEAT),
      minPassRate,
      setup: setupOf(doc['setup'], 'setup'),
      answer,
      run,
    };
    return { ok: true, evalCase };
  } catch (error) {
    if (!(error instanceof Bad)) throw error;
    return { ok: false, problem: { file, field: error.field, problem: error.problem, fix: error.fix } };
  }
}

/** "workspace/evals/x.json: field repeat must be …" — the one-line form the CLI and the errors use. */
export function problemText(p: EvalCaseProblem): string {
  return p.field === '' ? `${p.file} ${p.problem}.` : `${p.file}: field ${p.field} ${p.problem}.`;
}
