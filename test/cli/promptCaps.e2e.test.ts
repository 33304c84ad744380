/**
 * Prompt caps through the built CLI (issue 28 item 6): a reception with a 1 MB SKILL.md, a 300 KB Memory.md and
 * 9,999 ties. `check` warns PROMPT_FILE_OVER_CAP (each file), SYSTEM_PROMPT_OVER_CAP and TOOLS_OVER_CAP before
 * anything is sent; `ask` against the stub LLM sends a system prompt within the template's cap, the SKILL.md head
 * with its cut marker, and at most 128 tools in the documented order.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_TOOLS_PER_AGENT, PROMPT_FILE_CAP_BYTES, systemPromptCapBytes } from '../../src/core/turn/promptCaps.js';
import { reply } from '../support/stubLlm.js';
import { cliBudget, describeRun, logRecords, makeVillage, runCli, useCliSuite } from './support/cliProcess.js';

const { temps, stub } = useCliSuite();
const KEY = { FUSEFORKS_SECRET_STUB: 'sk-test-0000000000' };
const TIES = 9_999;
const MANY = join(import.meta.dirname, '../fixtures/mcp/manyToolsServer.mjs');
const CONTEXT = 300_000;

/** desk tied to 9,999 agents that never start, with oversized SKILL.md and Memory.md. */
function bigVillage(): string {
  const ties = Array.from({ length: TIES }, (_, i) => `peer${i}`);
  const dir = makeVillage(temps, {
    baseUrl: stub().baseUrl,
    agents: [{ id: 'desk', connectedAgents: ties }, ...ties.map((id) => ({ id, batchStart: false }))],
  });
  // A context of 300k tokens: a system prompt cap (600,000 bytes) above the file cap, so both cuts show.
  const worldFile = join(dir, 'workspace/world.json');
  const world = JSON.parse(readFileSync(worldFile, 'utf8')) as { modelTemplates: Record<string, unknown>[] };
  world.modelTemplates[0]!['contextLength'] = CONTEXT;
  writeFileSync(worldFile, JSON.stringify(world));
  mkdirSync(join(dir, 'workspace/agents/desk'), { recursive: true });
  // Multi-byte text, so a cut that split a character would show as U+FFFD.
  writeFileSync(join(dir, 'workspace/agents/desk/SKILL.md'), `SKILL-HEAD ${'手順'.repeat(50)}\n${'ルール。rule. '.repeat(60_000)}SKILL-TAIL`);
  writeFileSync(join(dir, 'workspace/agents/desk/Memory.md'), `MEMORY-HEAD ${'m'.repeat(300_000)} MEMORY-TAIL`);
  return dir;
}

interface Finding {
  level: string;
  code: string;
  message: string;
}

describe('prompt caps (built binary)', () => {
  it('check warns on each cap before anything is sent; ask sends a capped prompt and at most 128 tools', { timeout: cliBudget(3) }, async () => {
    stub().reset();
    stub().respond(() => reply.text('done'));
    const dir = bigVillage();

    const check = await runCli(['check', '--for', 'ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', '--json'], KEY);
    expect(check.code, describeRun(check)).toBe(0);
    const findings = (JSON.parse(check.stdout) as { findings: Finding[] }).findings;
    const over = findings.filter((f) => f.code === 'PROMPT_FILE_OVER_CAP');
    expect(over.map((f) => f.level)).toEqual(['warn', 'warn']);
    expect(over.some((f) => f.message.includes('SKILL.md') && f.message.includes(String(PROMPT_FILE_CAP_BYTES)))).toBe(true);
    expect(over.some((f) => f.message.includes('Memory.md'))).toBe(true);
    const system = findings.find((f) => f.code === 'SYSTEM_PROMPT_OVER_CAP');
    expect(system?.message).toContain(String(systemPromptCapBytes(CONTEXT)));
    const tools = findings.find((f) => f.code === 'TOOLS_OVER_CAP');
    // remember (the one default tool that needs no work folder), 9,999 transfer_to_* + 9,999 ask_*, plan.
    expect(tools?.message).toContain(`has ${2 * TIES + 2} tools`);
    expect(stub().count).toBe(0);

    const ask = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'hello'], KEY);
    expect(ask.code, describeRun(ask)).toBe(0);
    expect(ask.stdout).toBe('done\n');
    expect(stub().count).toBe(1);
    const body = stub().requests[0]!.body as { messages: { role: string; content: string }[]; tools: { function: { name: string } }[] };
    const prompt = body.messages[0]!.content;
    // The whole request: the capped prompt, 128 tool specs (plan lists 128 ties), the message. Was 1,051,201 bytes
    // with the plan tool listing all 9,999 ties; before any cap, over 2 MB.
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(systemPromptCapBytes(CONTEXT) + 100_000);
    expect(Buffer.byteLength(prompt, 'utf8')).toBeLessThanOrEqual(systemPromptCapBytes(CONTEXT));
    // Booleans, not the prompt itself: a failure must not print 600 kB.
    expect(prompt.includes('SKILL-HEAD'), 'SKILL.md head sent').toBe(true);
    expect(prompt.includes('SKILL-TAIL'), 'SKILL.md tail cut').toBe(false);
    expect(/\[…SKILL\.md is \d+ bytes; only about the first 262144 were sent/.test(prompt), 'SKILL.md marker').toBe(true);
    expect(prompt.includes('\uFFFD'), 'no split character').toBe(false);
    expect(/\[…the system prompt is \d+ bytes; only about the first 600000 were sent/.test(prompt), 'system prompt marker').toBe(true);
    expect(prompt.includes('MEMORY-TAIL'), 'Memory.md tail cut').toBe(false);
    const names = body.tools.map((t) => t.function.name);
    expect(names.length).toBe(MAX_TOOLS_PER_AGENT);
    // An outside ask waits for its answer, so no transfer_to_*: built-ins, plan, then ask_* in tie order.
    expect(names.slice(0, 5)).toEqual(['room_log', 'remember', 'plan', 'ask_peer0', 'ask_peer1']);
    expect(names.at(-1)).toBe(`ask_peer${MAX_TOOLS_PER_AGENT - 4}`);
    const records = logRecords(dir);
    expect(records.some((r) => r.msg === 'prompt file cut' && r.file === 'SKILL.md')).toBe(true);
    expect(records.some((r) => r.msg === 'system prompt cut' && r.cap === systemPromptCapBytes(CONTEXT))).toBe(true);
    expect(records.some((r) => r.msg === 'tools cut' && r.dropped === TIES + 3 - MAX_TOOLS_PER_AGENT)).toBe(true);
  });

  it('an MCP server listing 300 tools and two bad schemas: the bad ones dropped by name, 128 tools in name order', { timeout: cliBudget(1) }, async () => {
    stub().reset();
    stub().respond(() => reply.text('ok'));
    const dir = makeVillage(temps, { baseUrl: stub().baseUrl, agents: [{ id: 'desk' }] });
    writeFileSync(join(dir, 'workspace/mcp.json'), JSON.stringify({ mcpServers: { many: { command: process.execPath, args: [MANY, '--count', '300', '--bad'] } } }));
    const ask = await runCli(['ask', '--data-dir', dir, '--start', 'batch', '--secrets', 'env', 'hello'], KEY);
    expect(ask.code, describeRun(ask)).toBe(0);
    const body = stub().requests[0]!.body as { tools: { function: { name: string; parameters: unknown } }[] };
    const names = body.tools.map((t) => t.function.name);
    expect(names).toHaveLength(MAX_TOOLS_PER_AGENT);
    expect(names.filter((n) => n.startsWith('many__'))).toEqual(names.filter((n) => n.startsWith('many__')).sort());
    expect(names).not.toContain('many__bogus_type');
    expect(names).not.toContain('many__dangling_ref');
    expect(names).toContain('many__t00000');
    expect(names).not.toContain('many__t00299');
    const bad = logRecords(dir).filter((r) => r.msg === 'mcp tool schema invalid');
    expect(bad.map((r) => [r.server, r.tool])).toEqual([
      ['many', 'bogus_type'],
      ['many', 'dangling_ref'],
    ]);
    expect(logRecords(dir).some((r) => r.msg === 'mcp tools over cap' && r.cap === MAX_TOOLS_PER_AGENT)).toBe(true);
  });
});
