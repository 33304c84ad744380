/**
 * Oversized prompts (reliability suite, issue 28): seeded villages through the BUILT CLI, each with prompt files of
 * seeded sizes (up to 3 MB, ASCII, kana and astral characters mixed), a seeded number of ties (up to 700), a seeded
 * template `contextLength`, and for some an MCP server listing a seeded number of tools with bad schemas among them.
 * Held when `check` names exactly the files over the cap (and the tool count when over), and the one request `ask`
 * sends has a system prompt within the template's cap with no split character, every cut file's head and marker,
 * at most 128 tools and none whose schema is bad.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { MAX_TOOLS_PER_AGENT, PROMPT_FILE_CAP_BYTES, systemPromptCapBytes } from '../../src/core/turn/promptCaps.js';
import { reply } from '../support/stubLlm.js';
import { cliBudget, describeRun, makeVillage, runCli, useCliSuite } from '../cli/support/cliProcess.js';
import { pick, seeded, Tally } from './support/tally.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };
const MANY = join(import.meta.dirname, '../fixtures/mcp/manyToolsServer.mjs');
const VILLAGES = 8;
const PIECES = ['a', 'rule. ', 'あ', '手順', '😀', '\n'];
const FILES = ['SKILL.md', 'Memory.md', 'Construct.md'] as const;

function text(next: () => number, bytes: number, tag: string): string {
  let out = `${tag}-HEAD `;
  const piece = PIECES[pick(next, PIECES.length)]!;
  const each = Buffer.byteLength(piece);
  out += piece.repeat(Math.ceil(bytes / each));
  return `${out} ${tag}-TAIL`;
}

interface Finding {
  code: string;
  message: string;
}

describe('reliability: oversized prompts', () => {
  it('seeded prompt files, ties and MCP tools: check names each cap, ask sends a capped request', { timeout: cliBudget(2 * VILLAGES) }, async () => {
    const tally = new Tally('prompt-caps');
    const next = seeded(2806);
    for (let v = 0; v < VILLAGES; v += 1) {
      const ties = Array.from({ length: pick(next, 700) }, (_, i) => `p${i}`);
      const context = [8_192, 32_000, 128_000, 400_000][pick(next, 4)]!;
      const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk', connectedAgents: ties }, ...ties.map((id) => ({ id, batchStart: false }))] });
      const worldFile = join(dir, 'workspace/world.json');
      const world = JSON.parse(readFileSync(worldFile, 'utf8')) as { modelTemplates: Record<string, unknown>[] };
      world.modelTemplates[0]!['contextLength'] = context;
      writeFileSync(worldFile, JSON.stringify(world));
      mkdirSync(join(dir, 'workspace/agents/desk'), { recursive: true });
      const over: string[] = [];
      for (const file of FILES) {
        const bytes = [1_000, 200_000, PROMPT_FILE_CAP_BYTES + 10, 3_000_000][pick(next, 4)]!;
        const body = text(next, bytes, file);
        writeFileSync(join(dir, 'workspace/agents/desk', file), body);
        if (Buffer.byteLength(body) > PROMPT_FILE_CAP_BYTES) over.push(file);
      }
      const mcpTools = v % 2 === 0 ? 0 : 50 + pick(next, 400);
      if (mcpTools > 0) {
        writeFileSync(join(dir, 'workspace/mcp.json'), JSON.stringify({ mcpServers: { many: { command: process.execPath, args: [MANY, '--count', String(mcpTools), '--bad'] } } }));
      }
      const label = `village ${v} (ties ${ties.length}, context ${context}, over ${over.join('+') || 'none'}, mcp ${mcpTools})`;

      const check = await runCli(['check', '--for', 'ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--json'], KEY);
      const findings = check.code === 0 ? (JSON.parse(check.stdout) as { findings: Finding[] }).findings : [];
      const named = findings.filter((f) => f.code === 'PROMPT_FILE_OVER_CAP').map((f) => FILES.find((file) => f.message.includes(file)));
      tally.check(`${label}: check names exactly the files over the cap`, check.code !== 0 ? describeRun(check) : JSON.stringify(named.sort()) === JSON.stringify([...over].sort()) ? null : `named ${named.join(',')}`);
      const toolsOver = 1 + 2 * ties.length + (ties.length >= 2 ? 1 : 0) > MAX_TOOLS_PER_AGENT;
      tally.check(`${label}: TOOLS_OVER_CAP iff over`, findings.some((f) => f.code === 'TOOLS_OVER_CAP') === toolsOver ? null : `expected ${toolsOver}`);

      stub().reset();
      stub().respond(() => reply.text('ok'));
      const ask = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'hello'], KEY);
      tally.check(`${label}: ask answers with one call`, ask.code === 0 && stub().count === 1 ? null : describeRun(ask));
      const body = stub().requests[0]?.body as { messages: { content: string }[]; tools?: { function: { name: string } }[] } | undefined;
      const prompt = body?.messages[0]?.content ?? '';
      const cap = systemPromptCapBytes(context);
      tally.check(`${label}: system prompt within ${cap} bytes`, Buffer.byteLength(prompt) <= cap ? null : `${Buffer.byteLength(prompt)} bytes`);
      tally.check(`${label}: no split character`, prompt.includes('\uFFFD') ? 'U+FFFD in the prompt' : null);
      tally.check(`${label}: no cut file's tail`, over.some((f) => prompt.includes(`${f}-TAIL`)) ? 'a tail was sent' : null);
      const names = (body?.tools ?? []).map((t) => t.function.name);
      tally.check(`${label}: at most ${MAX_TOOLS_PER_AGENT} tools, no bad schema`, names.length <= MAX_TOOLS_PER_AGENT && !names.includes('many__bogus_type') && !names.includes('many__dangling_ref') ? null : `${names.length} tools`);
    }
    tally.finish(VILLAGES * 7);
  });
});
