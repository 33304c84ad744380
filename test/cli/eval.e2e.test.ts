/**
 * `fuseforks-cli eval` through the built binary against the loopback stub LLM, with a village that delegates (desk
 * asks helper): real verdicts of a passing and a failing case, a rubric judged by the stub as the judge template,
 * a flaky case (2 of 3 repeats) against minPassRate 0.6 and 0.8, the table and summary line, `--json` as one object
 * valid against docs/schemas/eval.schema.json, JUnit XML validated against its schema (xmllint), the exit codes (0,
 * 10, 2), the budget, and the results kept on this machine (0600 under {dataDir}/eval-results, nothing under
 * workspace/).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectJsonLine } from '../support/jsonSchemas.js';
import { reply, toolResultsOf, type StubRequest } from '../support/stubLlm.js';
import { cliBudget, describeRun, makeVillage, ROOT, runCli, startCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-eval-test', FUSEFORKS_SECRET_JUDGE: 'sk-eval-judge' };

/** Final answers of the desk per request: a request containing "flaky" gets a wrong answer every third time. */
let finals = new Map<string, number>();

/** desk → ask_helper → helper answers → desk answers with the helper's fact; the judge template grades by "42". */
function scriptVillage(r: StubRequest) {
  if (r.model === 'judge-model') {
    // The judge grades "The answer states N." by whether the team's answer says "is N".
    const want = /states (\d+)/.exec(r.lastUserText)?.[1] ?? '?';
    const answer = r.lastUserText.split("The team's answer:\n")[1] ?? '';
    return answer.includes(`is ${want}`) ? reply.text(`PASS\nIt gives the answer ${want}.`) : reply.text(`FAIL\nThe answer ${want} is missing.`);
  }
  if (r.system.includes('(ID: helper)')) return reply.text('Helper found: the answer is 42.', { usage: { prompt: 50, completion: 10 } });
  if (toolResultsOf(r).length === 0) return reply.tool('ask_helper', { message: `facts for: ${r.lastUserText.slice(-40)}` }, { usage: { prompt: 80, completion: 12 } });
  const tag = /flaky (\w+)/.exec(r.lastUserText)?.[1] ?? 'steady';
  const n = (finals.get(tag) ?? 0) + 1;
  finals.set(tag, n);
  const wrong = tag !== 'steady' && n % 3 === 0;
  return reply.text(wrong ? 'The answer is 41.' : 'The answer is 42, says helper.', { usage: { prompt: 120, completion: 15 } });
}

function village(cases: Record<string, unknown>): string {
  const dir = makeVillage(temps, {
    baseUrl: stub().baseUrl,
    agents: [{ id: 'desk', connectedAgents: ['helper'] }, { id: 'helper' }, { id: 'bystander' }],
    world: {
      modelTemplates: [
        { id: 'stub', name: 'Stub', baseUrl: stub().baseUrl, model: 'stub-model', credential: 'keyring', provider: 'open_ai_compat', maxRetries: 1 },
        { id: 'judge', name: 'Judge', baseUrl: stub().baseUrl, model: 'judge-model', credential: 'keyring', provider: 'open_ai_compat', maxRetries: 1 },
      ],
    },
  });
  mkdirSync(join(dir, 'workspace/evals'));
  for (const [name, doc] of Object.entries(cases)) writeFileSync(join(dir, 'workspace/evals', name), typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2));
  return dir;
}

const passing = {
  request: 'What is the answer?',
  expect: {
    answer: [{ contains: '42' }, { regex: '^The answer' }, { notContains: '41' }, { rubric: 'The answer states 42.', judge: { template: 'judge' } }],
    run: { outcome: 'answered', asked: ['helper'], notAsked: ['bystander'], toolsCalled: [{ tool: 'ask_helper', args: { message: { contains: 'facts for' } } }], maxHops: 1, maxRounds: 2, maxTokens: 100_000 },
  },
};
const failing = {
  request: 'What is the other answer?',
  expect: {
    answer: [{ equals: 'The answer is 43.' }, { rubric: 'The answer states 43.', judge: { template: 'judge' } }],
    run: { notAsked: ['helper'], toolsNotCalled: ['ask_helper'], maxHops: 0 },
  },
};
const flaky = (rate: number, tag: string) => ({ request: `flaky ${tag}: what is the answer?`, repeat: 3, minPassRate: rate, expect: { answer: [{ contains: '42' }] } });

interface Json {
  digest: string;
  summary: { cases: number; passed: number; failed: number; skipped: number; repeats: number; effectiveTokens: number };
  cases: Array<{ id: string; status: string; passed: number; repeat: number; skipped: string | null; repeats: Array<{ pass: boolean; answer: string; verdicts: Array<{ expectation: string; pass: boolean; reason: string }>; chain: { asked: string[]; toolCalls: Array<{ tool: string }> } }> }>;
  problems: Array<{ file: string; field: string }>;
}

const evalArgs = (dir: string, extra: string[] = []): string[] => ['eval', '-d', dir, '--start', 'batch', '--secrets', 'env', '--quiet', ...extra];

beforeEach(() => {
  finals = new Map();
  stub().respond(scriptVillage);
});

describe('fuseforks-cli eval (built binary, stub LLM, a delegating village)', () => {
  it('a passing and a failing case: real verdicts, the rubric judged by the stub judge, table + summary, exit 10; JUnit validates', async () => {
    const dir = village({ 'answer-42.json': passing, 'answer-43.json': failing });
    const junit = join(dir, 'report.xml');
    const run = await runCli(evalArgs(dir, ['--junit', junit]), KEY);
    expect(run.code, describeRun(run)).toBe(10);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^case\s+status\s+passed\s+rate\s+min\s+tokens\s+cost$/);
    expect(run.stdout).toMatch(/^answer-42\s+PASSED\s+1\/1\s+1\.00\s+1\.00\s+\d+/m);
    expect(run.stdout).toMatch(/^answer-43\s+FAILED\s+0\/1\s+0\.00\s+1\.00\s+\d+/m);
    expect(run.stdout).toContain('repeat 1: ✗ equals "The answer is 43." — the answer differs ("The answer is 42, says helper.")');
    expect(run.stdout).toContain('repeat 1: ✗ rubric "The answer states 43." (judge judge) — judge: The answer 43 is missing.');
    expect(run.stdout).toContain('✗ notAsked helper — helper was asked');
    expect(run.stdout).toMatch(/✗ notCalled ask_helper — desk called it with \{"message":"facts for: /);
    expect(run.stdout).toContain('✗ maxHops 0 — 1 hops > 0');
    expect(lines.at(-1)).toMatch(/^1\/2 cases passed \(1 failed, 0 not fully run\) · 2 repeats · \d+ effective tokens · — · [\d.]+ s · design sha256:[0-9a-f]{12}$/);
    // The judge was really asked, with the rubric and the answer.
    const judged = stub().requests.filter((r) => r.model === 'judge-model');
    expect(judged).toHaveLength(2);
    expect(judged[0]!.lastUserText).toContain('The answer states 42.');
    // JUnit XML: valid against the schema, one failure, the failing verdicts in it.
    const xml = readFileSync(junit, 'utf8');
    execFileSync('xmllint', ['--noout', '--schema', join(ROOT, 'test/fixtures/evals/junit.xsd'), junit], { stdio: 'pipe' });
    expect(xml).toMatch(/<testsuites name="fuseforks evals" tests="2" failures="1" errors="0" skipped="0"/);
    expect(xml).toMatch(/<testcase classname="fuseforks.evals" name="answer-43"[^>]*>\s*<failure message="0\/1 repeats passed \(minPassRate 1\)" type="eval">/);
    expect(xml).not.toMatch(/name="answer-42"[^>]*>\s*<failure/);
    // Kept on this machine, 0600 in a 0700 folder, never in the design.
    const results = join(dir, 'eval-results');
    expect(statSync(results).mode & 0o777).toBe(0o700);
    const files = readdirSync(results);
    expect(files).toHaveLength(1);
    expect(statSync(join(results, files[0]!)).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'workspace/evals')).sort()).toEqual(['answer-42.json', 'answer-43.json']);
  }, cliBudget(1));

  it('--json: one object with the chain and every verdict; --case picks cases; all passing exits 0', async () => {
    const dir = village({ 'answer-42.json': passing, 'answer-43.json': failing });
    const run = await runCli(evalArgs(dir, ['--json', '--case', 'answer-42']), KEY);
    expect(run.code, describeRun(run)).toBe(0);
    const json = expectJsonLine('eval', run.stdout) as unknown as Json;
    expect(json).toMatchObject({ format: 1, start: 'batch', budget: null, interrupted: false, problems: [] });
    expect(Object.keys(json)[0]).toBe('format');
    expect(json.summary).toMatchObject({ cases: 1, passed: 1, failed: 0, repeats: 1 });
    expect(json.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const repeat = json.cases[0]!.repeats[0]!;
    expect(repeat.chain.asked).toEqual(['desk', 'helper']);
    expect(repeat.chain.toolCalls.map((c) => c.tool)).toEqual(['ask_helper']);
    expect(repeat.verdicts.every((v) => v.pass)).toBe(true);
    expect(repeat.verdicts.find((v) => v.expectation.startsWith('rubric'))?.reason).toBe('judge: It gives the answer 42.');
    // The stored record is the same object.
    const stored = JSON.parse(readFileSync(join(dir, 'eval-results', readdirSync(join(dir, 'eval-results'))[0]!), 'utf8')) as Json;
    expect(stored.summary).toEqual(json.summary);
  }, cliBudget(1));

  it('a flaky case passing 2 of 3 repeats: passes against minPassRate 0.6, fails against 0.8', async () => {
    const dir = village({ 'flaky-06.json': flaky(0.6, 'A'), 'flaky-08.json': flaky(0.8, 'B') });
    const run = await runCli(evalArgs(dir, ['--json']), KEY);
    expect(run.code, describeRun(run)).toBe(10);
    const json = expectJsonLine('eval', run.stdout) as unknown as Json;
    expect(json.cases.map((c) => [c.id, c.status, c.passed, c.repeat])).toEqual([
      ['flaky-06', 'passed', 2, 3],
      ['flaky-08', 'failed', 2, 3],
    ]);
    expect(json.cases[1]!.repeats.map((r) => r.pass)).toEqual([true, true, false]);
  }, cliBudget(1));

  it('--budget stops starting repeats once spent (not fully run, exit 10); --repeat overrides the case', async () => {
    const dir = village({ 'answer-42.json': { ...passing, repeat: 1 } });
    const run = await runCli(evalArgs(dir, ['--json', '--repeat', '3', '--budget', '1']), KEY);
    expect(run.code, describeRun(run)).toBe(10);
    const json = expectJsonLine('eval', run.stdout) as unknown as Json;
    expect(json.cases[0]).toMatchObject({ status: 'skipped', passed: 1, repeat: 3 });
    expect(json.cases[0]!.skipped).toMatch(/token budget of 1 effective tokens is spent/);
    expect(json.summary.repeats).toBe(1);
  }, cliBudget(1));

  it('bad case files: listed naming file and field (exit 10); --case of a bad or missing file → exit 2 naming it', async () => {
    const dir = village({ 'answer-42.json': passing, 'broken.json': { request: 'x', repeat: 0, expect: { answer: [{ contains: 'x' }] } }, 'syntax.json': '{ "request": ' });
    const all = await runCli(['eval', '-d', dir, '--start', 'batch', '--secrets', 'env', '--quiet'], KEY);
    expect(all.code, describeRun(all)).toBe(10);
    expect(all.stdout).toContain('workspace/evals/broken.json: field repeat must be a whole number from 1 to 100, not 0.');
    expect(all.stdout).toMatch(/workspace\/evals\/syntax\.json is not valid JSON/);
    expect(all.stdout).toMatch(/1\/1 case passed \(0 failed, 0 not fully run, 2 unusable files\)/);
    const asJson = await runCli(evalArgs(dir, ['--json']), KEY);
    expect(asJson.code, describeRun(asJson)).toBe(10);
    const listed = expectJsonLine('eval', asJson.stdout) as unknown as Json;
    expect(listed.problems.map((p) => [p.file, p.field])).toEqual([['workspace/evals/broken.json', 'repeat'], ['workspace/evals/syntax.json', '']]);
    const named = await runCli(evalArgs(dir, ['--case', 'broken']), KEY);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('error [EVAL_CASE_INVALID] workspace/evals/broken.json: field repeat must be a whole number');
    expect(named.stdout).toBe('');
    const missing = await runCli(evalArgs(dir, ['--case', 'nope']), KEY);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/error \[EVAL_CASE_NOT_FOUND\] No eval case "nope": there is no workspace\/evals\/nope\.json \(cases: answer-42\)/);
  }, cliBudget(4));

  it('setup files land in the agent\'s work folder before each repeat; an agent without one fails the setup verdict naming the field', async () => {
    const dir = village({
      'with-setup.json': { request: 'What is the answer?', setup: { agent: 'desk', files: [{ path: 'in/notes.txt', text: 'the notes' }, { path: 'copy.txt', from: 'fixture.txt' }] }, expect: { answer: [{ contains: '42' }] } },
      'no-folder.json': { request: 'What is the answer?', setup: { agent: 'helper', files: [{ path: 'x.txt', text: 'x' }] }, expect: { answer: [{ contains: '42' }] } },
    });
    writeFileSync(join(dir, 'workspace/evals/fixture.txt'), 'copied fixture');
    const work = temps.make('ff-eval-work-');
    const worldFile = join(dir, 'workspace/world.json');
    const world = JSON.parse(readFileSync(worldFile, 'utf8')) as { agents: Array<Record<string, unknown>> };
    world.agents[0]!['workDir'] = work;
    writeFileSync(worldFile, JSON.stringify(world));
    const run = await runCli(evalArgs(dir, ['--json']), KEY);
    expect(run.code, describeRun(run)).toBe(10);
    const json = expectJsonLine('eval', run.stdout) as unknown as Json;
    expect(json.cases.map((c) => [c.id, c.status])).toEqual([['no-folder', 'failed'], ['with-setup', 'passed']]);
    expect(json.cases[0]!.repeats[0]!.verdicts[0]).toMatchObject({ expectation: 'setup', pass: false, reason: expect.stringContaining('field setup.files needs a work folder, but agent "helper" has no workDir') });
    expect(readFileSync(join(work, 'in/notes.txt'), 'utf8')).toBe('the notes');
    expect(readFileSync(join(work, 'copy.txt'), 'utf8')).toBe('copied fixture');
  }, cliBudget(1));

  it('Ctrl+C interrupts the repeat in flight and starts no other: exit 8, what ran reported, the rest not run', async () => {
    const dir = village({ 'answer-42.json': { ...passing, repeat: 3 } });
    stub().respond((r) => (r.system.includes('(ID: helper)') ? reply.hang() : scriptVillage(r)));
    const child = startCli(evalArgs(dir, ['--json']), KEY);
    await stub().waitForCount(2); // the desk asked, the helper's call hangs
    child.child.kill('SIGINT');
    const run = await child.done;
    expect(run.code, describeRun(run)).toBe(8);
    const json = expectJsonLine('eval', run.stdout) as unknown as Json & { interrupted: boolean };
    expect(json.interrupted).toBe(true);
    expect(json.summary.repeats).toBe(1);
    // The cut repeat failed (outcome interrupted), so minPassRate 1 can no longer be reached: failed, not undecided.
    expect(json.cases[0]).toMatchObject({ status: 'failed', skipped: 'interrupted', passed: 0 });
    expect(json.cases[0]!.repeats[0]!.verdicts.find((v) => v.expectation.startsWith('outcome'))?.reason).toBe('the delivery ended interrupted');
    expect(existsSync(join(dir, 'eval-results'))).toBe(true);
  }, cliBudget(1));
});
