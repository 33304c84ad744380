/**
 * `ask` for cron and scripts (built binary, loopback stub LLM): `--json` prints exactly one object on stdout for
 * every outcome (0, 6, 7, 8, 9) with the turn records' tokens; `--quiet` prints nothing at all on success; without
 * an answer stdout stays empty and the notice plus the failing turn's code and reason go to stderr (a reason is
 * not a body: the sentinel key never shows); `--events jsonl` ends with one `outcome` line.
 */
import { describe, expect, it } from 'vitest';
import { expectJsonLine } from '../support/jsonSchemas.js';
import { reply } from '../support/stubLlm.js';
import { freePort, makeVillage, runCli, startCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const SENTINEL = 'sk-SENTINEL-7f3a9c2e51d04b88';
const KEY = { FUSEFORKS_SECRET_STUB: SENTINEL };

const askArgs = (dir: string, extra: string[] = []): string[] => ['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', ...extra, 'Work on it'];

interface Report {
  answer: string | null;
  outcome: string | null;
  exitCode: number;
  sessionId: string | null;
  tokens: { rows: number; prompt: number; completion: number; total: number } | null;
  cost: number | null;
}

/** stdout must be exactly one JSON line, valid against docs/schemas/ask.schema.json. */
function parseReport(stdout: string): Report {
  return expectJsonLine('ask', stdout) as unknown as Report;
}

/** A stub that calls a tool every round (different arguments, so the repeat guard never cuts), after `delayMs`. */
function toolEveryRound(delayMs = 0): void {
  let n = 0;
  stub().respond(() => {
    n += 1;
    return reply.tool('fd', { pattern: `file-${n}` }, delayMs > 0 ? { delayMs } : {});
  });
}

describe('ask --json, --quiet, --timeout and the outcome line (built binary)', () => {
  it('0 answered: --quiet --json prints one object and nothing on stderr; tokens come from the chain\'s call records', async () => {
    stub().enqueue(reply.text('All done.', { usage: { prompt: 120, completion: 30 } }));
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const run = await runCli(askArgs(dir, ['--quiet', '--json']), KEY);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const report = parseReport(run.stdout);
    expect(report).toMatchObject({ answer: 'All done.', outcome: 'answered', exitCode: 0, cost: null });
    expect(report.sessionId).toMatch(/^\d+-[0-9a-f]{8}$/);
    expect(report.tokens).toMatchObject({ rows: 1, prompt: 120, completion: 30, total: 150 });
  });

  it('--quiet without --json: the answer alone on stdout, stderr empty', async () => {
    stub().enqueue(reply.text('Quiet answer.'));
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const run = await runCli(askArgs(dir, ['--quiet']), KEY);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Quiet answer.\n');
    expect(run.stderr).toBe('');
  });

  it('6 no answer (a dead port): stdout empty, stderr names LLM_HTTP and ECONNREFUSED; --json says no_answer; the key never shows', async () => {
    const dir = makeVillage(temps, { baseUrl: `http://127.0.0.1:${await freePort()}/v1` });
    const human = await runCli(askArgs(dir), KEY);
    expect(human.code).toBe(6);
    expect(human.stdout).toBe('');
    expect(human.stderr).toMatch(/error \[LLM_HTTP\] desk: .*ECONNREFUSED/);
    expect(human.stderr).toMatch(/warn \[NO_ANSWER\]/);
    const json = await runCli(askArgs(dir, ['--json', '--quiet']), KEY);
    expect(json.code).toBe(6);
    expect(parseReport(json.stdout)).toMatchObject({ answer: null, outcome: 'no_answer', exitCode: 6 });
    expect(json.stderr).toContain('[LLM_HTTP]');
    expect(json.stderr).not.toContain('[NO_ANSWER]'); // --quiet: warnings are dropped, errors stay
    for (const run of [human, json]) expect(`${run.stdout}${run.stderr}`).not.toContain(SENTINEL);
  });

  it('7 timed out by --timeout: one object, outcome timed_out, the notice on stderr', async () => {
    stub().respond(() => reply.text('too late', { delayMs: 5_000 }));
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const run = await runCli(askArgs(dir, ['--json', '--timeout', '1']), KEY);
    expect(run.code).toBe(7);
    expect(parseReport(run.stdout)).toMatchObject({ answer: null, outcome: 'timed_out', exitCode: 7 });
    expect(run.stderr).toMatch(/warn \[TIMED_OUT\] \(No answer: the wait timed out\.\)/);
  });

  it('8 interrupted by SIGINT: one object, outcome interrupted', async () => {
    toolEveryRound(400);
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const cli = startCli(askArgs(dir, ['--json']), KEY);
    await stub().waitForCount(2);
    cli.child.kill('SIGINT');
    const run = await cli.done;
    expect(run.code).toBe(8);
    expect(parseReport(run.stdout)).toMatchObject({ answer: null, outcome: 'interrupted', exitCode: 8 });
  });

  it('9 budget exhausted: one object with the tokens spent; --events jsonl ends with the same outcome line', async () => {
    toolEveryRound();
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl, world: { tokenBudget: 2_500 } });
    const run = await runCli(askArgs(dir, ['--json', '--events', 'jsonl']), KEY);
    expect(run.code).toBe(9);
    const report = parseReport(run.stdout);
    expect(report).toMatchObject({ answer: null, outcome: 'budget_exhausted', exitCode: 9 });
    expect(report.tokens!.total).toBeGreaterThan(0);
    const lines = run.stderr.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    // The outcome line is the --json object typed, without the stdout object's format stamp.
    const { format: _format, ...fields } = report as Report & { format: number };
    expect(lines.at(-1)).toEqual({ type: 'outcome', ...fields });
  });

  it('a refused preflight still prints one object: outcome null, exit 3', async () => {
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const run = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--json', 'hi'], {});
    expect(run.code).toBe(3);
    expect(parseReport(run.stdout)).toEqual({ format: 1, answer: null, outcome: null, exitCode: 3, sessionId: null, tokens: null, cost: null });
  });
});
