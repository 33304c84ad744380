/**
 * One `ask` that crosses every model wire the product speaks, streamed and whole, through whichever shipped CLI it
 * is handed. The reception (OpenAI-compatible, streamed) sends one `plan` wave to an agent per wire and mode; each
 * calls the `file` tool on its own wire (a tool call in that provider's framing, streamed or not), gets the file's
 * text back in that wire's tool-result framing, and answers with it; the echo agent answers offline. Checked: each
 * request came on its wire with its auth header and stream flag, each tool result reached its model in its wire's
 * framing, every answer reached the reception, and `ask --json` counts the tokens each provider reported by its own
 * accounting (xAI's reasoning outside the completion count included).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { describeRun, makeVillage, type Temps } from '../../cli/support/cliProcess.js';
import { reply, toolResultsOf, type StubLlm, type StubRequest, type StubUsage, type StubWire } from '../../support/stubLlm.js';
import type { ShippedCli } from './shippedCli.js';

/** One agent of the tour: its template's provider, whether it streams, the wire the stub sees, its usage. */
interface WireLeg {
  id: string;
  provider: string;
  stream: boolean;
  wire: StubWire | null;
  /** How the request authenticates (header name → value prefix). */
  auth: [header: string, prefix: string] | null;
  usage: StubUsage;
}

/** Reasoning outside completion (xAI's accounting) on both of xAI's wires; inside on the others. */
export const LEGS: WireLeg[] = [
  { id: 'compat_whole', provider: 'open_ai_compat', stream: false, wire: 'openai', auth: ['authorization', 'Bearer '], usage: { prompt: 101, completion: 11, reasoning: 3 } },
  { id: 'grok_compat', provider: 'open_ai_compat', stream: true, wire: 'openai', auth: ['authorization', 'Bearer '], usage: { prompt: 102, completion: 281, reasoning: 255, reasoningOutside: true } },
  { id: 'claude_stream', provider: 'anthropic', stream: true, wire: 'anthropic', auth: ['x-api-key', ''], usage: { prompt: 103, completion: 13, cacheRead: 40 } },
  { id: 'claude_whole', provider: 'anthropic', stream: false, wire: 'anthropic', auth: ['x-api-key', ''], usage: { prompt: 104, completion: 14, cacheWrite: 20 } },
  { id: 'gemini_stream', provider: 'gemini', stream: true, wire: 'gemini', auth: ['x-goog-api-key', ''], usage: { prompt: 105, completion: 15, reasoning: 5 } },
  { id: 'gemini_whole', provider: 'gemini', stream: false, wire: 'gemini', auth: ['x-goog-api-key', ''], usage: { prompt: 106, completion: 16 } },
  { id: 'openai_resp_stream', provider: 'open_ai_responses', stream: true, wire: 'responses', auth: ['authorization', 'Bearer '], usage: { prompt: 107, completion: 17, reasoning: 7 } },
  { id: 'openai_resp_whole', provider: 'open_ai_responses', stream: false, wire: 'responses', auth: ['authorization', 'Bearer '], usage: { prompt: 108, completion: 18 } },
  { id: 'xai_stream', provider: 'xai_responses', stream: true, wire: 'responses', auth: ['authorization', 'Bearer '], usage: { prompt: 109, completion: 119, reasoning: 100, reasoningOutside: true } },
  { id: 'xai_whole', provider: 'xai_responses', stream: false, wire: 'responses', auth: ['authorization', 'Bearer '], usage: { prompt: 110, completion: 20 } },
  { id: 'meta_stream', provider: 'meta_responses', stream: true, wire: 'responses', auth: ['authorization', 'Bearer '], usage: { prompt: 111, completion: 21 } },
  { id: 'meta_whole', provider: 'meta_responses', stream: false, wire: 'responses', auth: ['authorization', 'Bearer '], usage: { prompt: 112, completion: 22 } },
  { id: 'echo_offline', provider: 'echo', stream: false, wire: null, auth: null, usage: {} },
];

const DESK_USAGE: StubUsage = { prompt: 500, completion: 50 };
/** The one priced template (USD per million tokens): its cost shows whether xAI's reasoning is billed as output. */
const GROK_PRICES = { inputPerMtok: 2, outputPerMtok: 10, pricingAsOf: '2026-12-01' };
const FINAL = 'Every wire answered.';
const keyOf = (templateId: string): string => `key-${templateId}`;
const textOf = (leg: WireLeg): string => `The tide table on ${leg.provider}, ${leg.stream ? 'streamed' : 'whole'}.`;
const answerOf = (leg: WireLeg, content: string): string => `${leg.id} read: ${content.trim()}`;

/** What `ask --json` prints (the fields checked here). */
interface AskJson {
  answer: string;
  outcome: string;
  sessionId: string;
  tokens: { rows: number; prompt: number; cached: number; cacheWrite: number; completion: number; reasoning: number; total: number };
}

/** Runs the tour through `cli` and checks every wire's requests, tool results, answers and usage. */
export async function runWireTour(cli: ShippedCli, stub: StubLlm, temps: Temps): Promise<void> {
  const work = temps.make('ff-wires-work-');
  mkdirSync(join(work, 'wires'));
  for (const leg of LEGS) writeFileSync(join(work, 'wires', `${leg.id}.txt`), `${textOf(leg)}\n`);
  const dir = makeVillage(temps, {
    baseUrl: stub.baseUrl,
    agents: [{ id: 'desk', connectedAgents: LEGS.map((l) => l.id) }, ...LEGS.map((l) => ({ id: l.id, template: `t_${l.id}` }))],
  });
  const worldFile = join(dir, 'workspace/world.json');
  const world = JSON.parse(readFileSync(worldFile, 'utf8')) as { agents: Array<Record<string, unknown>>; modelTemplates: Array<Record<string, unknown>> };
  const base = world.modelTemplates[0]!;
  world.modelTemplates.push(
    ...LEGS.map((l) => ({
      ...base,
      id: `t_${l.id}`,
      name: l.id,
      provider: l.provider,
      model: l.provider === 'echo' ? 'echo' : `m-${l.id}`,
      stream: l.stream,
      credential: l.provider === 'echo' ? 'not_required' : 'keyring',
      ...(l.id === 'grok_compat' ? GROK_PRICES : {}),
    })),
  );
  for (const agent of world.agents) if (agent['id'] !== 'desk') Object.assign(agent, { workDir: work, enabledTools: ['file'] });
  writeFileSync(worldFile, JSON.stringify(world));
  const env = Object.fromEntries([['FUSEFORKS_SECRET_STUB', keyOf('stub')], ...LEGS.map((l) => [`FUSEFORKS_SECRET_T_${l.id.toUpperCase()}`, keyOf(`t_${l.id}`)])]);

  const legOf = (r: StubRequest): WireLeg | undefined => LEGS.find((l) => r.model === `m-${l.id}`);
  stub.respond((r) => {
    const leg = legOf(r);
    if (leg === undefined) {
      // The reception: one plan wave to every leg, then the final answer once the wave's results are back.
      if (toolResultsOf(r).length > 0) return reply.text(FINAL, { usage: DESK_USAGE });
      return reply.tool('plan', { tasks: LEGS.map((l) => ({ to: l.id, message: `Read wires/${l.id}.txt and say what it holds.` })) }, { usage: DESK_USAGE });
    }
    const results = toolResultsOf(r);
    if (results.length === 0) return reply.tool('file', { op: 'read', path: `wires/${leg.id}.txt` }, { usage: leg.usage });
    return reply.text(answerOf(leg, results[0]!.text), { usage: leg.usage });
  });

  const ask = await cli.run(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--json', 'Ask every wire for its tide table.'], env);
  expect(ask.code, `${cli.label}: ${describeRun(ask)}`).toBe(0);
  const out = JSON.parse(ask.stdout) as AskJson;
  expect(out).toMatchObject({ answer: FINAL, outcome: 'answered' });

  const calls = LEGS.filter((l) => l.wire !== null);
  for (const leg of calls) {
    const seen = stub.requests.filter((r) => legOf(r) === leg);
    expect(seen.map((r) => [r.wire, r.stream]), `${leg.id}: two calls on its wire`).toEqual([[leg.wire, leg.stream], [leg.wire, leg.stream]]);
    const [header, prefix] = leg.auth!;
    expect(seen.every((r) => r.headers[header] === `${prefix}${keyOf(`t_${leg.id}`)}`), `${leg.id}: its key in ${header}`).toBe(true);
    // The file tool's result came back to the model in this wire's own framing.
    expect(toolResultsOf(seen[1]!).map((t) => t.text), `${leg.id}: the file's text as its tool result`).toEqual([`${textOf(leg)}\n`]);
  }

  // Every leg's answer reached the reception as the plan wave's result (echo's included, made offline).
  const deskLast = stub.requests.filter((r) => legOf(r) === undefined).at(-1)!;
  const wave = toolResultsOf(deskLast).map((t) => t.text).join('\n');
  for (const leg of calls) expect(wave, `${leg.id}'s answer in the wave`).toContain(answerOf(leg, textOf(leg)));
  expect(wave).toContain('[echo]');
  expect(wave).toContain('Read wires/echo_offline.txt and say what it holds.');

  // Tokens: each provider's report read by its own accounting, per agent as `stats` shows the conversation, and in
  // all as `ask --json` counted it. Canonical completion includes reasoning, so xAI's (reported beside
  // completion_tokens / output_tokens, not inside) is counted in, never dropped.
  const stats = await cli.run(['stats', '--data-dir', dir, '--session', out.sessionId, '--json']);
  expect(stats.code, `${cli.label}: ${describeRun(stats)}`).toBe(0);
  const report = JSON.parse(stats.stdout) as { totals: StatsRow; byAgent: Array<StatsRow & { agentId: string }>; cost: { usd: number; pricedRows: number } | null };
  const rowOf = (id: string): StatsRow | undefined => report.byAgent.find((a) => a.agentId === id);
  for (const leg of calls) {
    const u = leg.usage;
    expect(rowOf(leg.id), `${leg.id}: its two calls by its provider's accounting`).toMatchObject({
      calls: 2,
      prompt: 2 * (u.prompt ?? 0),
      completion: 2 * (u.completion ?? 0),
      reasoning: 2 * (u.reasoning ?? 0),
      cached: 2 * (u.cacheRead ?? 0),
      cacheWrite: 2 * (u.cacheWrite ?? 0),
    });
  }
  expect(rowOf('desk')).toMatchObject({ calls: 2, prompt: 2 * DESK_USAGE.prompt!, completion: 2 * DESK_USAGE.completion! });
  expect(rowOf('echo_offline')?.calls, 'echo answers offline, one call').toBe(1);
  expect(out.tokens).toMatchObject({ prompt: report.totals.prompt, completion: report.totals.completion, reasoning: report.totals.reasoning, total: report.totals.prompt + report.totals.completion });
  // Billing prices the output xAI reported, reasoning included: the one priced template is grok_compat's.
  expect(report.cost?.pricedRows).toBe(2);
  expect(report.cost?.usd).toBeCloseTo((2 * (102 * GROK_PRICES.inputPerMtok + 281 * GROK_PRICES.outputPerMtok)) / 1e6, 12);
}

interface StatsRow {
  calls: number;
  prompt: number;
  completion: number;
  reasoning: number;
  cached: number;
  cacheWrite: number;
}
