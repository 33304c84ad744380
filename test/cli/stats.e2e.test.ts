/**
 * `fuseforks-cli stats` (built binary, loopback stub): the numbers of the conversations `ask` left behind equal the
 * usage the stub reported (summed by hand here), the cost is the formula on the priced template and agrees with
 * `ask --json`; it also reads while another process holds the village; "no records" is said; bad flags exit 2.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResults } from '../actors/support/stubVillages.js';
import { reply, startStubLlm } from '../support/stubLlm.js';
import { holdVillage, makeVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const PRICES = { inputPerMtok: 3, outputPerMtok: 15, cacheReadPerMtok: 0.3, pricingAsOf: '2026-07-01' };
const USAGE = { prompt: 2000, completion: 100, cacheRead: 500 };
/** One call at USAGE, priced by hand. */
const CALL_USD = ((2000 - 500) * 3 + 500 * 0.3 + 100 * 15) / 1e6;

/** A one-agent village whose template carries `prices`. */
function village(prices: Record<string, unknown> = PRICES): string {
  const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }], credential: 'not_required' });
  const file = join(dir, 'workspace/world.json');
  const world = JSON.parse(readFileSync(file, 'utf8')) as { modelTemplates: Array<Record<string, unknown>> };
  world.modelTemplates = world.modelTemplates.map((t) => ({ ...t, ...prices }));
  writeFileSync(file, JSON.stringify(world));
  return dir;
}

async function askOnce(dir: string): Promise<{ cost: number | null; sessionId: string }> {
  const run = await runCli(['ask', '--data-dir', dir, '--start', 'reception', '--json', 'How much?']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { cost: number | null; sessionId: string };
}

describe('fuseforks-cli stats', () => {
  it('equals the usage the stub reported, per conversation and for all, with the formula cost', async () => {
    stub().respond(() => reply.text('Plenty.', { usage: USAGE }));
    const dir = village();
    const first = await askOnce(dir);
    const second = await askOnce(dir);
    expect(first.cost).toBeCloseTo(CALL_USD, 12);

    const latest = await runCli(['stats', '--data-dir', dir, '--json']);
    expect(latest.code, latest.stderr).toBe(0);
    const one = JSON.parse(latest.stdout) as { scope: { sessionId: string }; totals: Record<string, number>; cost: { usd: number; asOf: string } };
    expect(one.scope.sessionId).toBe(second.sessionId);
    expect(one.totals).toMatchObject({ turns: 1, failed: 0, calls: 1, prompt: 2000, cached: 500, completion: 100, effective: 1500 + 50 + 400 });
    expect(one.cost.usd).toBeCloseTo(CALL_USD, 12);
    expect(one.cost.asOf).toBe('2026-07-01');

    const all = JSON.parse((await runCli(['stats', '--data-dir', dir, '--all', '--json'])).stdout) as typeof one & { sessions: unknown[] };
    expect(all.sessions).toHaveLength(2);
    expect(all.totals).toMatchObject({ turns: 2, prompt: 4000, cached: 1000, completion: 200 });
    expect(all.cost.usd).toBeCloseTo(2 * CALL_USD, 12);

    const text = await runCli(['stats', '--data-dir', dir, '--session', first.sessionId]);
    expect(text.stdout).toContain(`conversation ${first.sessionId}`);
    expect(text.stdout).toMatch(/input\s+2,000 \(cache 25%\)/);
    expect(text.stdout).toContain('≈ $0.0062 (prices as of 2026-07-01), 1 of 1 calls priced (100% of tokens)');
    expect(text.stdout).toMatch(/desk\s+stub-model\s+1\s+0\s+1,950/);
  });

  it('counts a judge verdict (Jev, on a second stub) like any call, under the helper model', async () => {
    const helper = await startStubLlm();
    try {
      const VERDICT = { prompt: 900, completion: 60 };
      helper.respond(() => reply.text('Verdict: enough', { usage: VERDICT }));
      stub().respond((r) => (toolResults(r).length === 0 ? reply.tool('judge', { question: 'Enough?', material: 'the stock list' }, { usage: USAGE }) : reply.text('Enough.', { usage: USAGE })));
      const dir = village();
      mkdirSync(join(dir, 'workspace/agents/desk'), { recursive: true });
      writeFileSync(join(dir, 'workspace/agents/desk/judge.json'), '{"to": "referee"}');
      writeFileSync(join(dir, 'jev.json'), JSON.stringify({ baseUrl: helper.baseUrl, model: 'jev-model' }));
      const ask = await runCli(['ask', '--data-dir', dir, '--start', 'reception', '--secrets', 'env', '--json', 'Is it enough?'], { FUSEFORKS_SECRET_JEV_API_TOKEN: 'jev-cli-token' });
      expect(ask.code, ask.stderr).toBe(0);
      expect(helper.count).toBe(1);

      const run = await runCli(['stats', '--data-dir', dir, '--json']);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as { totals: Record<string, number>; byAgent: Array<{ agentId: string; model: string; calls: number; prompt: number; completion: number }> };
      expect(report.totals).toMatchObject({ turns: 1, calls: 3, prompt: 2 * USAGE.prompt + VERDICT.prompt, completion: 2 * USAGE.completion + VERDICT.completion });
      expect(report.byAgent.map((a) => [a.agentId, a.model, a.calls, a.prompt, a.completion])).toContainEqual(['desk', 'jev-model', 1, VERDICT.prompt, VERDICT.completion]);
      const text = await runCli(['stats', '--data-dir', dir]);
      expect(text.stdout).toMatch(/desk\s+jev-model\s+/);
    } finally {
      await helper.close();
    }
  });

  it('reads beside a process that holds the village, without waiting for it', async () => {
    stub().respond(() => reply.text('Plenty.', { usage: USAGE }));
    const dir = village();
    await askOnce(dir);
    const holder = await holdVillage(dir);
    try {
      const run = await runCli(['stats', '--data-dir', dir, '--all', '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ hasRecords: true, totals: { turns: 1, prompt: 2000 } });
    } finally {
      await holder.release();
    }
  });

  it('says "no records" and "unpriced"; refuses a bad date and an unknown conversation', async () => {
    const dir = village({ inputPerMtok: 3 });
    const empty = await runCli(['stats', '--data-dir', dir]);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toMatch(/no records/);
    stub().respond(() => reply.text('Plenty.', { usage: USAGE }));
    await askOnce(dir);
    expect((await runCli(['stats', '--data-dir', dir])).stdout).toMatch(/cost\s+unpriced/);
    const bad = await runCli(['stats', '--data-dir', dir, '--since', '2026-13-01']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('YYYY-MM-DD');
    const unknown = await runCli(['stats', '--data-dir', dir, '--session', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('SESSION_NOT_FOUND');
  });
});
