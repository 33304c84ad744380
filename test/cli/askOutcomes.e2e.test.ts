/**
 * `ask` outcomes that are not an answer, and signals (SPEC §6.3–§6.4): timeout → 7, a budget ceiling reached by a
 * multi-round turn → 9, SIGINT during a multi-round turn → 8 with the `turn interrupted` record, SIGINT during boot
 * → 8 with nothing sent. stdout only ever holds an answer: each fixed notice goes to stderr.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../support/stubLlm.js';
import { logRecords, makeVillage, runCli, startCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };

const askArgs = (dir: string, extra: string[] = []): string[] => ['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', ...extra, 'Work on it'];

/** A stub that calls a tool every round (different arguments, so the repeat guard never cuts), after `delayMs`. */
function toolEveryRound(delayMs = 0): void {
  let n = 0;
  stub().respond(() => {
    n += 1;
    return reply.tool('fd', { pattern: `file-${n}` }, delayMs > 0 ? { delayMs } : {});
  });
}

describe('ask outcomes (built binary)', () => {
  it('timed out (askTimeoutSecs 1, the stub answers late) → 7 with the fixed notice on stderr, stdout empty', async () => {
    stub().respond(() => reply.text('too late', { delayMs: 5_000 }));
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl, world: { askTimeoutSecs: 1 } });
    const run = await runCli(askArgs(dir), KEY);
    expect(run.code).toBe(7);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('warn [TIMED_OUT] (No answer: the wait timed out.)');
  });

  it('budget ceiling reached by a multi-round turn (small tokenBudget, a tool every round) → 9', async () => {
    toolEveryRound();
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl, world: { tokenBudget: 2_500 } });
    const run = await runCli(askArgs(dir), KEY);
    expect(run.code).toBe(9);
    expect(stub().count).toBeGreaterThan(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('warn [BUDGET_EXHAUSTED]');
  });

  it('SIGINT during a multi-round turn → interrupt_all, keep waiting → 8, with the turn interrupted record', async () => {
    toolEveryRound(400);
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    const cli = startCli(askArgs(dir), KEY);
    await stub().waitForCount(2);
    cli.child.kill('SIGINT');
    const run = await cli.done;
    expect(run.code).toBe(8);
    // The engine's fixed notice for a cut turn is not an answer: stdout stays empty, the notice is on stderr.
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/warn \[INTERRUPTED\] \([^\n]*interrupted[^\n]*\)/);
    const records = logRecords(dir);
    expect(records.some((r) => r.msg === 'turn interrupted' && r.agent === 'desk')).toBe(true);
    expect(records.filter((r) => r.msg === 'agent stopped').length).toBe(2);
  });

  it('SIGINT during boot → 8, nothing sent: the stub saw no request', async () => {
    toolEveryRound();
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl });
    // A boot that lasts: the reception's own MCP server never answers and goes away after 1.5 s, so its start waits
    // that long after the first status event (workers are spawned ahead, so the rest of a boot takes milliseconds).
    const slowServer = { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 1500)'] };
    mkdirSync(join(dir, 'workspace/agents/desk'), { recursive: true });
    writeFileSync(join(dir, 'workspace/agents/desk/mcp.json'), JSON.stringify({ mcpServers: { slow: slowServer } }));
    const cli = startCli(askArgs(dir, ['--events', 'jsonl']), KEY);
    await cli.stderrLine((line) => line.includes('"agentStatusChanged"'));
    cli.child.kill('SIGINT');
    const run = await cli.done;
    expect(run.code).toBe(8);
    expect(run.stdout).toBe('');
    expect(stub().count).toBe(0);
    expect(run.stderr).toContain('"code":"INTERRUPTED"');
    expect(logRecords(dir).some((r) => r.msg === 'turn start')).toBe(false);
  });
});
