// Token economy (plain node ESM over dist/; `npm run bench` runs it). Two measurements on a real host (buildHost,
// real agent workers, real LMDB) against loopback stub models written here, counted with a real BPE tokenizer
// (gpt-tokenizer, o200k_base; Anthropic's own tokenizer differs by a few percent, the shares do not):
//
// 1. Scaffolding: one delegated request in a two-agent village (the reception A asks B through ask_B, then
//    answers). For every model call, the tokens of what was sent minus the tokens of what the runtime did not
//    write — the user's text, the agents' own instructions (SKILL.md) and what models wrote earlier (the ask's
//    message, B's answer) — is what the runtime added: prompt headings, "about you", roster, protocol notes, sender
//    lines, room log. Tool definitions are reported apart. Baseline: the content tokens of the same call (ratio).
// 2. Prompt cache on the Anthropic wire: one turn of 20 tool rounds (each reads a ~2 KB file). The stub keeps a
//    prompt cache as the API does — a prefix up to a cache_control breakpoint is written, a later request whose
//    blocks start with a cached prefix (looked up at block boundaries up to 20 blocks before a breakpoint) reads
//    it, 1024 tokens at least — and reports input / cache_read / cache_creation tokens like the API. Cached share
//    = read / (input + read + write) per round. Baseline: the same loop priced without any cache (ratio of
//    effective input tokens, write ×1.25, read ×0.1).
//
// Prints one JSON object per result line, then a short table. Never asserts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { buildHost } from '../../dist/host/buildHost.js';
import { HostPaths } from '../../dist/host/hostPaths.js';
import { MemorySecretStore } from '../../dist/core/secrets/secretStore.js';

const tokens = (text) => (text === '' ? 0 : encode(text).length);
const emit = (r) => process.stdout.write(JSON.stringify(r) + '\n');

// ---- a village on disk ----------------------------------------------------------------------------------------

function template(id, model, baseUrl, provider) {
  return {
    id, name: id, baseUrl, model, contextLength: 200000, temperature: null, maxOutputTokens: 1024,
    credential: 'not_required', provider, useTools: true, effort: null, requestTimeoutSecs: 30, maxRetries: 1,
    stream: false, inputPerMtok: null, outputPerMtok: null, cacheReadPerMtok: null, cacheWritePerMtok: null,
    cacheWrite1hPerMtok: null, pricingAsOf: null,
  };
}
function agent(id, name, connectedAgents, extra = {}) {
  return {
    id, name, modelTemplateId: `tpl-${id}`, ragSources: [], connectedAgents, order: 0, workDir: null,
    maxToolIterations: null, enabledTools: null, hearsRoomLog: false, allowHandoff: true, batchStart: false,
    roleId: null, groupId: null, hidden: false, planReview: false, ...extra,
  };
}

function makeVillage(agents, templates, skills) {
  const dir = mkdtempSync(join(tmpdir(), 'ff-bench-tokens-'));
  const world = {
    agents, groups: [], modelTemplates: templates, roles: [], topologyPositions: {}, tokenBudget: null,
    language: 'en', userName: null, reception: agents[0].id, externalName: null, askTimeoutSecs: 60, maxHops: 8,
  };
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  writeFileSync(join(dir, 'workspace/world.json'), JSON.stringify(world, null, 2));
  for (const [id, text] of Object.entries(skills)) {
    mkdirSync(join(dir, 'workspace/agents', id), { recursive: true });
    writeFileSync(join(dir, 'workspace/agents', id, 'SKILL.md'), text);
  }
  return dir;
}

async function open(dir) {
  const host = await buildHost(new HostPaths(dir), {
    appVersion: 'bench', secrets: 'env', secretStore: new MemorySecretStore(), runSchedules: false, openDoor: false, env: {}, closeGraceMs: 5000,
  });
  const recorded = [];
  host.events.subscribe((e) => {
    if (e.type === 'turnRecorded') recorded.push(e);
  });
  return { host, recorded };
}

async function until(check, what, ms = 60_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function listen(handler) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const answer = JSON.stringify(handler(req.url, body));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/v1` })));
}

// ---- 1. scaffolding on one delegated request --------------------------------------------------------------------

const USER_TEXT = 'When does order 1042 ship, and is the address on it still the one in Osaka?';
const ASK_TEXT = 'Please look up order 1042: its ship date and the delivery address on file.';
const B_ANSWER = 'Order 1042 ships on Friday 5 December; the address on file is 2-3-1 Umeda, Kita-ku, Osaka.';
const A_ANSWER = 'It ships on Friday 5 December, to the Osaka address (2-3-1 Umeda, Kita-ku).';
const SKILL_A =
  'You are the front desk of a small online shop. Answer customers briefly and politely. For anything about an ' +
  'order, ask the order clerk (B) and pass on what they say; never guess a date or an address.';
const SKILL_B =
  'You are the order clerk. You know every order. Answer with the ship date and the delivery address, in one ' +
  'sentence, and nothing else.';

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

/** What one OpenAI-compatible call sent: every message's text (and tool-call arguments) and the tool definitions. */
function sentParts(body) {
  const texts = [];
  for (const m of body.messages ?? []) {
    texts.push(textOf(m.content));
    for (const call of m.tool_calls ?? []) texts.push(call.function?.arguments ?? '');
  }
  return { text: texts.join('\n'), tools: body.tools === undefined ? '' : JSON.stringify(body.tools) };
}

/** Removes every occurrence of the known (not runtime-written) pieces; what remains is the runtime's. */
function scaffoldOf(text, known) {
  let rest = text;
  let content = 0;
  for (const piece of known) {
    const parts = rest.split(piece);
    content += (parts.length - 1) * tokens(piece);
    rest = parts.join('\n');
  }
  // Whitespace that only separated the removed pieces is not scaffolding.
  return { scaffold: tokens(rest.replace(/\n{2,}/g, '\n').trim()), content, rest };
}

async function scaffolding() {
  const calls = [];
  const { server, url } = await listen((_url, body) => {
    calls.push(body);
    const tools = body.tools ?? [];
    const hasResult = (body.messages ?? []).some((m) => m.role === 'tool');
    let message;
    if (body.model === 'm-B') message = { role: 'assistant', content: B_ANSWER };
    else if (!hasResult && tools.some((t) => t.function?.name === 'ask_B')) {
      message = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ask_B', arguments: JSON.stringify({ message: ASK_TEXT }) } }] };
    } else message = { role: 'assistant', content: A_ANSWER };
    return {
      id: `c${calls.length}`, object: 'chat.completion', created: 0, model: body.model,
      choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    };
  });
  const dir = makeVillage(
    [agent('A', 'Front desk', ['B']), agent('B', 'Order clerk', [])],
    [template('tpl-A', 'm-A', url, 'open_ai_compat'), template('tpl-B', 'm-B', url, 'open_ai_compat')],
    { A: SKILL_A, B: SKILL_B },
  );
  const { host, recorded } = await open(dir);
  try {
    await host.startSet(['A', 'B']);
    host.sendUserMessage('A', USER_TEXT);
    await until(() => recorded.some((e) => e.agentId === 'A'), "A's turn record");
  } finally {
    await host.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const known = [SKILL_A, SKILL_B, USER_TEXT, ASK_TEXT, B_ANSWER, A_ANSWER];
  const rows = calls.map((body, i) => {
    const { text, tools } = sentParts(body);
    const { scaffold, content, rest } = scaffoldOf(text, known);
    return { call: i + 1, model: body.model, sentTokens: tokens(text), contentTokens: content, scaffoldTokens: scaffold, toolDefTokens: tokens(tools), rest };
  });
  for (const r of rows) {
    emit({ measure: 'scaffolding_per_call', call: r.call, model: r.model, scaffoldTokens: r.scaffoldTokens, contentTokens: r.contentTokens, toolDefTokens: r.toolDefTokens, ratioToContent: +(r.scaffoldTokens / Math.max(1, r.contentTokens)).toFixed(2), targetTokens: 150 });
  }
  const max = Math.max(...rows.map((r) => r.scaffoldTokens));
  const mean = rows.reduce((n, r) => n + r.scaffoldTokens, 0) / rows.length;
  emit({ measure: 'scaffolding_summary', calls: rows.length, maxPerCall: max, meanPerCall: +mean.toFixed(1), targetPerCall: 150, withinTarget: max <= 150 });
  return { rows, max, mean };
}

// ---- 2. prompt cache on the Anthropic wire ----------------------------------------------------------------------

const ROUNDS = 20;
const MIN_CACHEABLE = 1024;
const LOOKBACK_BLOCKS = 20;

/** The request as the API caches it: tools, then system blocks, then message blocks, in order, with breakpoints. */
function cacheBlocks(body) {
  const blocks = [];
  for (const t of body.tools ?? []) blocks.push({ text: JSON.stringify(t), bp: t.cache_control !== undefined });
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  for (const b of system) blocks.push({ text: JSON.stringify({ ...b, cache_control: undefined }), bp: b.cache_control !== undefined });
  for (const m of body.messages ?? []) {
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const b of content) blocks.push({ text: `${m.role}:${JSON.stringify({ ...b, cache_control: undefined })}`, bp: b.cache_control !== undefined });
  }
  return blocks.map((b) => ({ ...b, tokens: tokens(b.text) }));
}

/** A prompt cache keyed by the exact prefix text. */
function promptCache() {
  const cached = new Set();
  return {
    usage(body) {
      const blocks = cacheBlocks(body);
      const prefix = [];
      let acc = 0;
      for (const b of blocks) {
        acc += b.tokens;
        prefix.push({ key: (prefix.at(-1)?.key ?? '') + '\u0000' + b.text, tokens: acc, bp: b.bp });
      }
      const total = acc;
      const breakpoints = prefix.map((p, i) => (p.bp ? i : -1)).filter((i) => i >= 0);
      let read = 0;
      for (const bpIndex of breakpoints) {
        for (let j = bpIndex; j >= Math.max(0, bpIndex - LOOKBACK_BLOCKS); j -= 1) {
          if (cached.has(prefix[j].key)) {
            read = Math.max(read, prefix[j].tokens);
            break;
          }
        }
      }
      let written = 0;
      for (const bpIndex of breakpoints) {
        const p = prefix[bpIndex];
        if (p.tokens < MIN_CACHEABLE) continue;
        if (!cached.has(p.key)) written = Math.max(written, p.tokens - read);
        cached.add(p.key);
      }
      return { input_tokens: total - read - written, cache_read_input_tokens: read, cache_creation_input_tokens: written };
    },
  };
}

const FILE_TEXT = Array.from({ length: 40 }, (_, i) => `line ${i + 1}: shipment ${1000 + i} left the Osaka depot on time and was signed for.`).join('\n');
const SKILL_LOOP =
  'You are the logistics auditor. ' +
  Array.from({ length: 60 }, (_, i) => `Rule ${i + 1}: check each shipment record against the depot log, note any gap longer than a day, and never change a file.`).join(' ');

async function cacheShare() {
  const rounds = [];
  const cache = promptCache();
  const { server, url } = await listen((_url, body) => {
    const usage = cache.usage(body);
    const round = rounds.length + 1;
    rounds.push({ round, ...usage });
    const content =
      round < ROUNDS
        ? [{ type: 'tool_use', id: `toolu_${round}`, name: 'file', input: { op: 'read', path: `logs/part-${round}.txt`, reason: 'audit the next part' } }]
        : [{ type: 'text', text: 'Audit done: no gaps longer than a day.' }];
    return {
      id: `msg_${round}`, type: 'message', role: 'assistant', model: body.model, content,
      stop_reason: round < ROUNDS ? 'tool_use' : 'end_turn', stop_sequence: null,
      usage: { ...usage, output_tokens: 40 },
    };
  });
  const dir = makeVillage(
    [agent('L', 'Auditor', [], { maxToolIterations: ROUNDS + 5, workDir: null })],
    [template('tpl-L', 'claude-bench', url, 'anthropic')],
    { L: SKILL_LOOP },
  );
  const work = join(dir, 'work');
  mkdirSync(join(work, 'logs'), { recursive: true });
  for (let i = 1; i <= ROUNDS; i += 1) writeFileSync(join(work, 'logs', `part-${i}.txt`), FILE_TEXT.replace(/depot/g, `depot ${i}`));
  // The agent works in that folder (set after the fact: the folder lives inside the temp village).
  const worldFile = join(dir, 'workspace/world.json');
  const world = JSON.parse((await import('node:fs')).readFileSync(worldFile, 'utf8'));
  world.agents[0].workDir = work;
  writeFileSync(worldFile, JSON.stringify(world, null, 2));
  const { host, recorded } = await open(dir);
  try {
    await host.startAgent('L');
    host.sendUserMessage('L', 'Audit the 19 log parts in logs/ one by one with the file tool, then report.');
    await until(() => recorded.length > 0, "the auditor's turn record", 120_000);
  } finally {
    await host.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const out = rounds.map((r) => {
    const prompt = r.input_tokens + r.cache_read_input_tokens + r.cache_creation_input_tokens;
    return { ...r, prompt, cachedShare: +(r.cache_read_input_tokens / prompt).toFixed(3) };
  });
  for (const r of out) emit({ measure: 'anthropic_cache_round', ...r });
  const fromThird = out.slice(2);
  const minFromThird = Math.min(...fromThird.map((r) => r.cachedShare));
  const sum = (f) => out.reduce((n, r) => n + f(r), 0);
  const effective = sum((r) => r.input_tokens + r.cache_read_input_tokens * 0.1 + r.cache_creation_input_tokens * 1.25);
  const uncached = sum((r) => r.prompt);
  emit({
    measure: 'anthropic_cache_summary', rounds: out.length, minCachedShareFromRound3: minFromThird,
    cachedShareAllRounds: +(sum((r) => r.cache_read_input_tokens) / uncached).toFixed(3), target: 0.8, withinTarget: minFromThird >= 0.8,
    effectiveInputTokens: Math.round(effective), noCacheBaselineTokens: uncached, ratioToNoCache: +(effective / uncached).toFixed(3),
  });
  return { out, minFromThird, effective, uncached };
}

const s = await scaffolding();
const c = await cacheShare();
process.stdout.write('\nScaffolding the runtime adds per call (two-agent village, one delegated request; o200k tokens):\n');
for (const r of s.rows) process.stdout.write(`  call ${r.call} (${r.model}): scaffolding ${r.scaffoldTokens}, content ${r.contentTokens}, tool definitions ${r.toolDefTokens}\n`);
process.stdout.write(`  max ${s.max} / mean ${s.mean.toFixed(1)} per call (target ≤ 150)\n`);
process.stdout.write(`\nAnthropic prompt cache, one turn of ${ROUNDS} tool rounds:\n`);
process.stdout.write(`  cached share per round: ${c.out.map((r) => r.cachedShare.toFixed(2)).join(' ')}\n`);
process.stdout.write(`  lowest from round 3: ${c.minFromThird.toFixed(3)} (target ≥ 0.80); effective input ${Math.round(c.effective)} vs ${c.uncached} without a cache (×${(c.effective / c.uncached).toFixed(3)})\n`);
if (process.env.BENCH_SHOW_SCAFFOLD === '1') for (const r of s.rows) process.stdout.write(`\n--- call ${r.call} runtime text ---\n${r.rest}\n`);
