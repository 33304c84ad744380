/**
 * Issue 14: Jev, the helper model, on a second loopback stub. The judge tool returns the helper's verdict and its
 * usage lands in the turn's spend, the call records and the request's budget; a 50 KB tool result reaches the agent
 * compressed while the original stays in the session export; with the helper down the uncompressed result arrives
 * and a WARN is written. Real workers, the real turn engine, a real LMDB session store.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JevInit } from '../../src/actors/protocol.js';
import type { ExternalToolPort } from '../../src/actors/supervisor.js';
import { DEFAULT_JEV_SETTINGS, type JevSettings } from '../../src/core/jev/jevSettings.js';
import { openSessionStore } from '../../src/core/sessions/openSessionStore.js';
import { SessionRecorder } from '../../src/host/sessionRecorder.js';
import { reply, startStubLlm, type StubLlm } from '../support/stubLlm.js';
import { toolResults, useStubVillages } from './support/stubVillages.js';
import { agent } from './support/villageFixture.js';

const villages = useStubVillages();
let helper: StubLlm;
beforeAll(async () => {
  helper = await startStubLlm();
});
afterAll(async () => {
  await helper.close();
});

const TOKEN = 'jev-token-for-tests';
function jevFor(over: Partial<JevSettings> = {}, token: string | null = TOKEN, baseUrl?: string): () => Promise<JevInit> {
  const settings: JevSettings = { ...DEFAULT_JEV_SETTINGS, baseUrl: baseUrl ?? helper.baseUrl, model: 'jev-model', requestTimeoutSecs: 10, ...over };
  return () => Promise.resolve({ settings, token });
}
const AGENT_USAGE = { usage: { prompt: 700, completion: 25 } };

/** A main-thread tool that returns a 50 KB page. */
const BIG = Array.from({ length: 1000 }, (_, i) => `row ${String(i).padStart(4, '0')}: ${'lorem ipsum dolor '.repeat(2)}sit amet`).join('\n');
const pagePort: ExternalToolPort = {
  async openAgent() {},
  async closeAgent() {},
  specsFor: () => [{ name: 'web__fetch', description: '[web] fetch a page', parameters: { type: 'object', properties: {} } }],
  call: () => Promise.resolve({ body: BIG, ok: true }),
};

describe('the judge', () => {
  it('returns the helper\'s verdict; its tokens count in the turn, the call records and the budget', async () => {
    helper.reset();
    helper.respond(() => reply.text('Verdict: yes\nThe material names the deadline.', { usage: { prompt: 1000, completion: 3000 } }));
    const v = villages.make([agent('J')], { jevFor: jevFor() }, { tokenBudget: 100_000 });
    mkdirSync(join(v.dir, 'agents', 'J'), { recursive: true });
    mkdirSync(join(v.dir, 'agents', 'referee'), { recursive: true });
    writeFileSync(join(v.dir, 'agents', 'referee', 'Construct.md'), 'You are the referee of release plans.');
    writeFileSync(join(v.dir, 'agents', 'J', 'judge.json'), JSON.stringify({ to: 'referee', instructions: 'Deadlines count only when dated.' }));
    await v.sup.startAgent('J');
    const stub = villages.stub();
    stub.respond((r) =>
      toolResults(r).length === 0
        ? reply.tool('judge', { question: 'Is there a deadline?', material: 'Ship by 2026-12-24.' }, AGENT_USAGE)
        : reply.text(`judged: ${toolResults(r)[0]}`, AGENT_USAGE),
    );
    const out = await v.sup.askExternalOutcome('tester', 'check the plan');
    expect(out.state).toBe('answered');
    expect(out.answer).toBe('judged: The judge (jev-model) says:\nVerdict: yes\nThe material names the deadline.');
    expect(helper.count).toBe(1);
    const sent = helper.requests[0]!;
    expect(sent.model).toBe('jev-model');
    expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent.system).toContain('Deadlines count only when dated.');
    expect(sent.system).toContain('You are the referee of release plans.');
    expect(sent.lastUserText).toContain('Ship by 2026-12-24.');
    // The helper's 1,000 + 3,000 tokens are in the turn with the agent's two calls …
    expect(v.recorder.turns.map((t) => [t.prompt, t.completion])).toEqual([[2 * 700 + 1000, 2 * 25 + 3000]]);
    // … and one call record names it.
    const calls = v.recorder.calls.map((c) => [c.purpose, c.templateId, c.model, c.prompt, c.completion]);
    expect(calls).toContainEqual(['judge', 'jev', 'jev-model', 1000, 3000]);
    expect(JSON.stringify(v.diag.notes)).not.toContain(TOKEN);
  });

  it('draws on the request\'s budget: a costly verdict leaves no room for the next round', async () => {
    helper.reset();
    helper.respond(() => reply.text('Verdict: no', { usage: { prompt: 1000, completion: 3000 } }));
    const v = villages.make([agent('J')], { jevFor: jevFor() }, { tokenBudget: 10_000 });
    mkdirSync(join(v.dir, 'agents', 'J'), { recursive: true });
    writeFileSync(join(v.dir, 'agents', 'J', 'judge.json'), '{"to": "referee"}');
    await v.sup.startAgent('J');
    villages.stub().respond((r) => (toolResults(r).length === 0 ? reply.tool('judge', { question: 'q?', material: 'm' }, AGENT_USAGE) : reply.text('done', AGENT_USAGE)));
    // 10,000: the agent's call 800, the verdict 1,000 + 3,000×4 = 13,000 → nothing left for round two.
    const out = await v.sup.askExternalOutcome('tester', 'judge it');
    expect(out.state).toBe('budget_exhausted');
    expect(villages.stub().count).toBe(1);
  });

  it('without the token it stays shown and says what is missing; nothing reaches the helper', async () => {
    helper.reset();
    const v = villages.make([agent('J')], { jevFor: jevFor({}, null) });
    mkdirSync(join(v.dir, 'agents', 'J'), { recursive: true });
    writeFileSync(join(v.dir, 'agents', 'J', 'judge.json'), '{"enabled": true, "to": "referee"}');
    await v.sup.startAgent('J');
    const stub = villages.stub();
    stub.respond((r) => (toolResults(r).length === 0 ? reply.tool('judge', { question: 'q?', material: 'm' }) : reply.text(toolResults(r)[0] ?? '')));
    const out = await v.sup.askExternalOutcome('tester', 'judge it');
    expect(out.answer).toMatch(/^judge: the judge is unavailable because the Jev token \(jev_api_token\) is not registered/);
    expect(helper.count).toBe(0);
    const tools = (stub.requests[0]?.body?.tools ?? []) as Array<{ function: { name: string } }>;
    expect(tools.map((t) => t.function.name)).toContain('judge');
  });
});

describe('tool-result compression', () => {
  it('hands the agent a compressed 50 KB result and keeps the original in the session export', async () => {
    helper.reset();
    const SUMMARY = 'rows 0000-0999: lorem ipsum filler, nothing dated';
    helper.respond(() => reply.text(SUMMARY, { usage: { prompt: 12_000, completion: 20 } }));
    const home = villages.make([agent('C')], {}, {});
    const opened = openSessionStore({ workspaceDir: home.dir });
    const store = opened.store!;
    const session = await store.create();
    const recorder = new SessionRecorder({ store, sessionId: () => session.id, diag: home.diag, emit: () => undefined });
    const v = villages.make([agent('C')], { jevFor: jevFor({ compression: { enabled: true, thresholdChars: 8_000 } }), externalTools: pagePort, recorder });
    await v.sup.startAgent('C');
    const stub = villages.stub();
    stub.respond((r) => (toolResults(r).length === 0 ? reply.tool('web__fetch', {}) : reply.text('read it')));
    const out = await v.sup.askExternalOutcome('tester', 'fetch the page');
    expect(out.state).toBe('answered');
    expect(BIG.length).toBeGreaterThan(50_000);
    const seen = toolResults(stub.requests[1]!)[0] ?? '';
    expect(seen).toBe(`[compressed by Jev from ${BIG.length} to ${SUMMARY.length} chars; the full result is kept in the session record]\n${SUMMARY}`);
    expect(helper.requests[0]?.lastUserText).toContain('row 0999');
    await v.sup.shutdown();
    await recorder.flush();
    const exported = readFileSync(store.exportJsonl(session.id).path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const originals = exported.filter((l) => l.kind === 'toolResult');
    expect(originals).toEqual([expect.objectContaining({ agentId: 'C', tool: 'web__fetch', round: 1, original: BIG, compressedChars: seen.length })]);
    expect(exported.filter((l) => l.kind === 'call').map((l) => l.purpose)).toEqual(['turn', 'compress', 'turn']);
    await store.close();
  });

  it('with the helper down, the uncompressed result arrives and a WARN is written', async () => {
    const down = await startStubLlm();
    const deadUrl = down.baseUrl;
    await down.close();
    const v = villages.make([agent('C')], { jevFor: jevFor({ compression: { enabled: true, thresholdChars: 8_000 }, maxOutputTokens: 64 }, TOKEN, deadUrl), externalTools: pagePort });
    await v.sup.startAgent('C');
    const stub = villages.stub();
    stub.respond((r) => (toolResults(r).length === 0 ? reply.tool('web__fetch', {}) : reply.text('read it')));
    const out = await v.sup.askExternalOutcome('tester', 'fetch the page');
    expect(out.state).toBe('answered');
    expect(toolResults(stub.requests[1]!)[0]).toBe(BIG);
    const warns = v.diag.notes.filter((n) => n.kind === 'jev compress failed');
    expect(warns).toEqual([expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ agent: 'C', tool: 'web__fetch', chars: BIG.length, reason: 'LLM_HTTP' }) })]);
  });
});
