/**
 * The eval case format as a table: every field's good shape parses into the case the runner uses, every bad one is
 * a problem naming the file, the dotted field and a fix; unknown keys are ignored (the file is never rewritten).
 */
import { describe, expect, it } from 'vitest';
import { parseEvalCase, problemText } from '../../../src/core/evals/parseEvalCase.js';

const parse = (doc: unknown, name = 'basics.json') => parseEvalCase(name, JSON.stringify(doc));

describe('parseEvalCase', () => {
  it('a full case: defaults, every answer kind, every run expectation, setup, unknown keys ignored', () => {
    const r = parse({
      request: 'Summarise the notes',
      start: 'batch',
      repeat: 3,
      minPassRate: 0.6,
      futureKey: { kept: true },
      setup: { agent: 'front', files: [{ path: 'in/notes.txt', text: 'hello' }, { path: 'b.txt', from: 'fixtures/b.txt' }] },
      expect: {
        answer: [
          { contains: 'notes', ignoreCase: true },
          { notContains: 'error' },
          { regex: '^S', flags: 'i' },
          { equals: 'exact' },
          { jsonSchema: { type: 'object' } },
          { rubric: 'Names the notes', judge: { template: 'judge' } },
          { rubric: 'Polite' },
        ],
        run: {
          outcome: 'answered',
          asked: ['researcher'],
          notAsked: ['writer'],
          toolsCalled: ['read_file', { tool: 'ask_researcher', args: { message: { contains: 'notes' }, n: 2 } }],
          toolsNotCalled: [{ tool: 'run' }],
          maxRounds: 4,
          maxHops: 2,
          maxTokens: 5000,
          maxCostUsd: 0.01,
        },
      },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const c = r.evalCase;
    expect(c).toMatchObject({ id: 'basics', file: 'workspace/evals/basics.json', request: 'Summarise the notes', start: 'batch', repeat: 3, minPassRate: 0.6 });
    expect(c.answer.map((a) => a.kind)).toEqual(['contains', 'notContains', 'regex', 'equals', 'jsonSchema', 'rubric', 'rubric']);
    expect(c.answer[5]).toMatchObject({ judge: { kind: 'template', templateId: 'judge' } });
    expect(c.answer[6]).toMatchObject({ judge: { kind: 'jev' } });
    expect(c.run.outcome).toEqual(['answered']);
    expect(c.run.toolsCalled).toEqual([
      { tool: 'read_file', args: {} },
      { tool: 'ask_researcher', args: { message: { kind: 'text', matcher: { contains: 'notes' } }, n: { kind: 'value', value: 2 } } },
    ]);
    expect(c.setup?.files[1]).toEqual({ path: 'b.txt', source: { kind: 'copy', from: 'fixtures/b.txt' } });
    expect(JSON.stringify(c)).not.toContain('futureKey');
  });

  it('defaults: repeat 1, minPassRate 1, no start, no setup', () => {
    const r = parse({ request: 'hi', expect: { answer: [{ contains: 'x' }] } });
    expect(r.ok && r.evalCase).toMatchObject({ repeat: 1, minPassRate: 1, start: null, setup: null, description: null });
  });

  it.each([
    ['not JSON', null, '', /is not valid JSON/],
    ['an array', [], '', /must hold one JSON object/],
    ['request missing', { expect: { answer: [{ contains: 'x' }] } }, 'request', /is missing/],
    ['request empty', { request: ' ', expect: { answer: [{ contains: 'x' }] } }, 'request', /is empty/],
    ['repeat 0', { request: 'r', repeat: 0, expect: { answer: [{ contains: 'x' }] } }, 'repeat', /whole number from 1 to 100/],
    ['repeat 1.5', { request: 'r', repeat: 1.5, expect: { answer: [{ contains: 'x' }] } }, 'repeat', /whole number/],
    ['minPassRate 2', { request: 'r', minPassRate: 2, expect: { answer: [{ contains: 'x' }] } }, 'minPassRate', /from 0 to 1/],
    ['no expectation', { request: 'r' }, 'expect', /has no expectation/],
    ['answer not a list', { request: 'r', expect: { answer: { contains: 'x' } } }, 'expect.answer', /must be a list/],
    ['unknown kind', { request: 'r', expect: { answer: [{ similar: 'x' }] } }, 'expect.answer[0]', /names no expectation kind/],
    ['contains a number', { request: 'r', expect: { answer: [{ contains: 3 }] } }, 'expect.answer[0].contains', /must be a text/],
    ['bad regex', { request: 'r', expect: { answer: [{ contains: 'a' }, { regex: '(' }] } }, 'expect.answer[1].regex', /not a valid regular expression/],
    ['bad flags', { request: 'r', expect: { answer: [{ regex: 'a', flags: 'g' }] } }, 'expect.answer[0].flags', /regex flags/],
    ['schema not an object', { request: 'r', expect: { answer: [{ jsonSchema: 'object' }] } }, 'expect.answer[0].jsonSchema', /JSON Schema object/],
    ['empty rubric', { request: 'r', expect: { answer: [{ rubric: '' }] } }, 'expect.answer[0].rubric', /is empty/],
    ['bad judge', { request: 'r', expect: { answer: [{ rubric: 'ok', judge: 'gpt' }] } }, 'expect.answer[0].judge', /"jev" or \{"template"/],
    ['bad outcome', { request: 'r', expect: { run: { outcome: 'done' } } }, 'expect.run.outcome', /must be one of running, answered/],
    ['bad asked id', { request: 'r', expect: { run: { asked: ['a b'] } } }, 'expect.run.asked[0]', /must be an agent id/],
    ['tool matcher a number', { request: 'r', expect: { run: { toolsCalled: [3] } } }, 'expect.run.toolsCalled[0]', /tool name or/],
    ['args not an object', { request: 'r', expect: { run: { toolsCalled: [{ tool: 'x', args: [] }] } } }, 'expect.run.toolsCalled[0].args', /argument matchers/],
    ['bad arg regex', { request: 'r', expect: { run: { toolsCalled: [{ tool: 'x', args: { p: { regex: '[' } } }] } } }, 'expect.run.toolsCalled[0].args.p.regex', /not a valid regular expression/],
    ['negative maxHops', { request: 'r', expect: { run: { maxHops: -1 } } }, 'expect.run.maxHops', /of 0 or more/],
    ['maxTokens 1.5', { request: 'r', expect: { run: { maxTokens: 1.5 } } }, 'expect.run.maxTokens', /whole number/],
    ['setup path escapes', { request: 'r', setup: { files: [{ path: '../x', text: '' }] }, expect: { run: { maxHops: 1 } } }, 'setup.files[0].path', /without \.\./],
    ['setup absolute path', { request: 'r', setup: { files: [{ path: '/etc/x', text: '' }] }, expect: { run: { maxHops: 1 } } }, 'setup.files[0].path', /relative path/],
    ['setup without body', { request: 'r', setup: { files: [{ path: 'x' }] }, expect: { run: { maxHops: 1 } } }, 'setup.files[0]', /neither "text" nor "from"/],
  ])('%s → a problem naming the field', (_label, doc, field, problem) => {
    const r = doc === null ? parseEvalCase('basics.json', '{ nope') : parse(doc);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problem.file).toBe('workspace/evals/basics.json');
    expect(r.problem.field).toBe(field);
    expect(r.problem.problem).toMatch(problem);
    expect(r.problem.fix.length).toBeGreaterThan(5);
    expect(problemText(r.problem)).toContain('workspace/evals/basics.json');
    if (field !== '') expect(problemText(r.problem)).toContain(`field ${field} `);
  });

  it('a file name that is no safe id is refused as the file', () => {
    const r = parseEvalCase('bad name.json', '{}');
    expect(r.ok === false && r.problem).toMatchObject({ field: '', problem: expect.stringMatching(/is not named \{id\}\.json/) });
  });
});
