/**
 * Jev's helper calls in the stats like any call (issue 14): a real host (buildHost, real workers, real LMDB) with the
 * shelf's jev.json pointing at a second loopback stub and `jev_api_token` in the secret store. The judge's verdict
 * and a compressed tool result each cost one helper call; `HostApi.stats` counts both, under the agent and the
 * helper's model, with the usage the helper stub reported (summed by hand here).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/core/events.js';
import { MemorySecretStore } from '../../src/core/secrets/secretStore.js';
import { buildHost } from '../../src/host/buildHost.js';
import type { HostApi } from '../../src/host/hostApi.js';
import { HostPaths } from '../../src/host/hostPaths.js';
import { toolResults } from '../actors/support/stubVillages.js';
import { agent, template, until, world } from '../actors/support/villageFixture.js';
import { requireDist } from '../support/childLines.js';
import { reply, startStubLlm, type StubLlm } from '../support/stubLlm.js';

let stub: StubLlm;
let helper: StubLlm;
let dir: string;
let host: HostApi | null = null;

beforeAll(async () => {
  requireDist('actors/agentWorker.js');
  [stub, helper] = await Promise.all([startStubLlm(), startStubLlm()]);
});
afterAll(async () => {
  await Promise.all([stub.close(), helper.close()]);
});
afterEach(async () => {
  await host?.close();
  host = null;
  stub.reset();
  helper.reset();
  rmSync(dir, { recursive: true, force: true });
});

const AGENT = { prompt: 700, completion: 25 };
const VERDICT = { prompt: 1000, completion: 300 };
const SUMMARY = { prompt: 4000, completion: 40 };
/** A work-folder file long enough (≥ 1,000 chars) to be compressed when read. */
const LONG = Array.from({ length: 200 }, (_, i) => `line ${i}: filler text to make the file long`).join('\n');

describe('Jev in the stats', () => {
  it('counts the judge and the compression calls with the helper stub\'s usage', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ff-jev-stats-'));
    const work = join(dir, 'work');
    mkdirSync(join(dir, 'workspace', 'agents', 'A'), { recursive: true });
    mkdirSync(work);
    writeFileSync(join(work, 'long.txt'), LONG);
    const w = world([agent('A', [], { workDir: work, modelTemplateId: 'tpl-A' })]);
    w.modelTemplates = [template({ id: 'tpl-A', model: 'm-A', baseUrl: stub.baseUrl })];
    writeFileSync(join(dir, 'workspace', 'world.json'), JSON.stringify(w));
    writeFileSync(join(dir, 'workspace', 'agents', 'A', 'judge.json'), '{"to": "referee"}');
    writeFileSync(join(dir, 'jev.json'), JSON.stringify({ baseUrl: helper.baseUrl, model: 'jev-model', pruning: { enabled: true, thresholdChars: 1000 } }));
    const secrets = new MemorySecretStore({ jev_api_token: 'jev-token-stats' });
    const h = await buildHost(new HostPaths(dir), { appVersion: 'test', secrets: 'env', secretStore: secrets, runSchedules: false, openDoor: false, env: {}, closeGraceMs: 5_000 });
    host = h;
    const events: CoreEvent[] = [];
    h.events.subscribe((e) => events.push(e));

    helper.respond((r) => (r.lastUserText.includes('line 199')
      ? reply.text('200 filler lines', { usage: SUMMARY })
      : reply.text('Verdict: fine', { usage: VERDICT })));
    stub.respond((r) => {
      switch (toolResults(r).length) {
        case 0:
          return reply.tool('judge', { question: 'Is it fine?', material: 'the plan' }, { usage: AGENT });
        case 1:
          return reply.tool('file', { op: 'read', path: 'long.txt' }, { usage: AGENT });
        default:
          return reply.text('done', { usage: AGENT });
      }
    });
    await h.startAgent('A');
    h.sendUserMessage('A', 'judge, then read');
    await until(() => events.some((e) => e.type === 'turnRecorded'), 'the turn', 30_000);

    expect(helper.count).toBe(2);
    const seen = toolResults(stub.requests.at(-1)!);
    expect(seen[0]).toContain('Verdict: fine');
    expect(seen[1]).toMatch(/^\[compressed by Jev from \d+ to \d+ chars/);

    const report = await h.stats({ kind: 'session', sessionId: h.sessionId()! });
    // By hand: three agent calls and two helper calls, five calls in all.
    expect(report.totals).toMatchObject({
      turns: 1,
      calls: 5,
      prompt: 3 * AGENT.prompt + VERDICT.prompt + SUMMARY.prompt,
      completion: 3 * AGENT.completion + VERDICT.completion + SUMMARY.completion,
    });
    const byModel = Object.fromEntries(report.byAgent.map((a) => [`${a.agentId}/${a.model}`, [a.calls, a.prompt, a.completion]]));
    expect(byModel).toEqual({
      'A/m-A': [3, 3 * AGENT.prompt, 3 * AGENT.completion],
      'A/jev-model': [2, VERDICT.prompt + SUMMARY.prompt, VERDICT.completion + SUMMARY.completion],
    });
    const all = await h.stats({ kind: 'all' });
    expect(all.totals.calls).toBe(5);
  });
});
