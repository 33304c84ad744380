/**
 * Every expectation kind of an eval case, passing and failing, against a hand-made trace (pure): the answer's
 * text checks, JSON Schema through a stub validator port, rubric verdicts handed in, and the run's outcome, asked
 * agents, tool calls with argument matchers, rounds, hops, tokens and cost.
 */
import { describe, expect, it } from 'vitest';
import type { EvalCase } from '../../../src/core/evals/evalCase.js';
import { answerJson, judgeRepeat, type JsonSchemaCheck, type RepeatTrace } from '../../../src/core/evals/judgeRepeat.js';
import { parseEvalCase } from '../../../src/core/evals/parseEvalCase.js';

const trace: RepeatTrace = {
  answer: 'Researcher here. The report is ready.\n```json\n{"title": "Report"}\n```',
  outcome: 'answered',
  asked: ['front', 'researcher'],
  toolCalls: [
    { agentId: 'front', tool: 'ask_researcher', ok: true, args: '{"message":"Find the report on notes"}' },
    { agentId: 'researcher', tool: 'read_file', ok: true, args: '{"path":"notes/a.txt","limit":20}' },
  ],
  maxRounds: 2,
  maxHop: 1,
  effectiveTokens: 900,
  costUsd: 0.002,
};

/** Stands in for Ajv: requires an object with the schema's `required` keys. */
const schemaCheck: JsonSchemaCheck = (schema, value) => {
  const required = (schema['required'] as string[] | undefined) ?? [];
  if (typeof value !== 'object' || value === null) return 'the JSON must be object';
  const missing = required.find((k) => !(k in value));
  return missing === undefined ? null : `the JSON must have required property '${missing}'`;
};

function caseOf(expectDoc: unknown): EvalCase {
  const r = parseEvalCase('t.json', JSON.stringify({ request: 'Find the report', expect: expectDoc }));
  if (!r.ok) throw new Error(r.problem.problem);
  return r.evalCase;
}

const verdictOf = (expectDoc: unknown, t: RepeatTrace = trace) => {
  const verdicts = judgeRepeat(caseOf(expectDoc), t, [], schemaCheck);
  expect(verdicts).toHaveLength(1);
  return verdicts[0]!;
};

describe('judgeRepeat: the answer', () => {
  it.each([
    [{ contains: 'report is ready' }, true, /found/],
    [{ contains: 'REPORT IS', ignoreCase: true }, true, /found/],
    [{ contains: 'REPORT IS' }, false, /not found/],
    [{ notContains: 'error' }, true, /absent/],
    [{ notContains: 'Researcher' }, false, /found at char 0/],
    [{ regex: '^researcher', flags: 'i' }, true, /matched "Researcher"/],
    [{ regex: '^Writer' }, false, /no match/],
    [{ equals: trace.answer }, true, /exactly/],
    [{ equals: 'Researcher here.' }, false, /differs/],
    [{ jsonSchema: { type: 'object', required: ['title'] } }, true, /validates/],
    [{ jsonSchema: { type: 'object', required: ['author'] } }, false, /required property 'author'/],
  ])('%j → pass %s', (e, pass, reason) => {
    const v = verdictOf({ answer: [e] });
    expect(v.pass).toBe(pass);
    expect(v.reason).toMatch(reason);
  });

  it('jsonSchema on an answer that is not JSON fails saying so', () => {
    const v = verdictOf({ answer: [{ jsonSchema: { type: 'object' } }] }, { ...trace, answer: 'plain words' });
    expect(v).toMatchObject({ pass: false, reason: expect.stringMatching(/not JSON/) });
  });

  it('answerJson: the whole answer, else the first ```json block, else undefined', () => {
    expect(answerJson('{"a":1}')).toEqual({ a: 1 });
    expect(answerJson('x\n```json\n[1]\n```')).toEqual([1]);
    expect(answerJson('no json')).toBeUndefined();
  });

  it('rubric verdicts are taken from the judge, in order; a missing one fails', () => {
    const c = caseOf({ answer: [{ rubric: 'A' }, { contains: 'report' }, { rubric: 'B' }] });
    const given = [{ expectation: 'rubric A', pass: true, reason: 'judge: fine' }];
    const verdicts = judgeRepeat(c, trace, given, schemaCheck);
    expect(verdicts.map((v) => v.pass)).toEqual([true, true, false]);
    expect(verdicts[2]!.reason).toMatch(/no verdict/);
  });
});

describe('judgeRepeat: the run', () => {
  it.each([
    [{ outcome: 'answered' }, true, /ended answered/],
    [{ outcome: ['handed_off', 'timed_out'] }, false, /ended answered/],
    [{ asked: ['researcher'] }, true, /received a message/],
    [{ asked: ['writer'] }, false, /never asked \(asked: front, researcher\)/],
    [{ notAsked: ['writer'] }, true, /no message/],
    [{ notAsked: ['researcher'] }, false, /was asked/],
    [{ toolsCalled: ['read_file'] }, true, /researcher called it/],
    [{ toolsCalled: [{ tool: 'read_file', args: { path: { regex: '^notes/' }, limit: 20 } }] }, true, /called it/],
    [{ toolsCalled: [{ tool: 'read_file', args: { limit: 10 } }] }, false, /no matching call \(called: ask_researcher, read_file\)/],
    [{ toolsCalled: [{ tool: 'ask_researcher', args: { message: { contains: 'notes' } } }] }, true, /front called it/],
    [{ toolsCalled: [{ tool: 'read_file', args: { missing: { contains: 'x' } } }] }, false, /no matching call/],
    [{ toolsCalled: ['run'] }, false, /no matching call/],
    [{ toolsNotCalled: ['run'] }, true, /no matching call/],
    [{ toolsNotCalled: [{ tool: 'read_file', args: { path: { contains: 'notes' } } }] }, false, /researcher called it with/],
    [{ maxRounds: 2 }, true, /2 rounds .* ≤ 2/],
    [{ maxRounds: 1 }, false, /2 rounds .* > 1/],
    [{ maxHops: 1 }, true, /1 hops ≤ 1/],
    [{ maxHops: 0 }, false, /1 hops > 0/],
    [{ maxTokens: 900 }, true, /900 effective tokens ≤ 900/],
    [{ maxTokens: 899 }, false, /> 899/],
    [{ maxCostUsd: 0.01 }, true, /\$0\.002000 ≤ \$0\.01/],
    [{ maxCostUsd: 0.001 }, false, /> \$0\.001/],
  ])('%j → pass %s', (run, pass, reason) => {
    const v = verdictOf({ run });
    expect(v.pass).toBe(pass);
    expect(v.reason).toMatch(reason);
  });

  it('maxCostUsd on an unpriced run fails: the cost cannot be shown', () => {
    const v = verdictOf({ run: { maxCostUsd: 1 } }, { ...trace, costUsd: null });
    expect(v).toMatchObject({ pass: false, reason: expect.stringMatching(/no call of the run has a price/) });
  });

  it('arguments cut in the event (not JSON) never match an argument matcher', () => {
    const cut = { ...trace, toolCalls: [{ agentId: 'a', tool: 'write_file', ok: true, args: '{"path":"x","content":"aaa' }] };
    expect(verdictOf({ run: { toolsCalled: [{ tool: 'write_file', args: { path: 'x' } }] } }, cut).pass).toBe(false);
    expect(verdictOf({ run: { toolsCalled: ['write_file'] } }, cut).pass).toBe(true);
  });
});
