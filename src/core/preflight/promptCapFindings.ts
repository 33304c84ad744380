/**
 * Preflight's prompt-cap rows (data_contract.yaml `prompt_caps`): a prompt file over its cap, a system prompt that
 * would be over the cap of its template's `contextLength`, more tools than one request offers. Pure over world.json
 * and the file sizes `gatherView` stats (no file is read). Estimates are from below: the real prompt also carries
 * the "about you" and working-folder sections, and MCP tools are not counted (check connects no server; the turn
 * itself cuts and warns).
 */
import { BUNDLED_TOOL_NAMES, isPresented } from '../tools/registry.js';
import { MAX_TOOLS_PER_AGENT, PROMPT_FILE_CAP_BYTES, systemPromptCapBytes } from '../turn/promptCaps.js';
import type { AgentSpec, World } from '../world/types.js';
import type { AgentRef, FindingTexts } from './findingTexts.js';
import type { Finding } from './finding.js';

/** One prompt file that exists: its path, size, and whose it is (null = the village's Ordinance.md). */
export interface PromptFileSize {
  agentId: string | null;
  /** File name as the prompt names it (SKILL.md, Memory.md, Construct.md, Ordinance.md). */
  file: string;
  path: string;
  bytes: number;
}

/** Bytes a roster line spends per tie besides its id and name (separator, status, brackets). */
const ROSTER_BYTES_PER_TIE = 16;

/** The prompt-cap findings for the started agents (warn; the turn cuts, it never refuses). */
export function promptCapFindings(world: World, started: readonly AgentSpec[], files: readonly PromptFileSize[], t: FindingTexts): Finding[] {
  const out: Finding[] = [];
  const ref = (a: AgentSpec): AgentRef => ({ id: a.id, name: a.name });
  for (const f of files) {
    if (f.bytes > PROMPT_FILE_CAP_BYTES) out.push({ level: 'warn', code: 'PROMPT_FILE_OVER_CAP', ...t.promptFileOverCap(f.path, f.bytes, PROMPT_FILE_CAP_BYTES) });
  }
  const capped = (f: PromptFileSize): number => Math.min(f.bytes, PROMPT_FILE_CAP_BYTES);
  const ordinance = files.filter((f) => f.agentId === null).reduce((n, f) => n + capped(f), 0);
  const byId = new Map(world.agents.map((a) => [a.id, a]));
  for (const agent of started) {
    const template = world.modelTemplates.find((m) => m.id === agent.modelTemplateId);
    if (template === undefined) continue;
    const own = files.filter((f) => f.agentId === agent.id).reduce((n, f) => n + capped(f), 0);
    const roster = agent.connectedAgents.reduce((n, id) => n + id.length + (byId.get(id)?.name.length ?? id.length) + ROSTER_BYTES_PER_TIE, 0);
    const estimate = ordinance + own + roster;
    const cap = systemPromptCapBytes(template.contextLength);
    if (estimate > cap) out.push({ level: 'warn', code: 'SYSTEM_PROMPT_OVER_CAP', ...t.systemPromptOverCap(ref(agent), estimate, cap, template.id, template.contextLength) });

    const tools = toolCount(agent, template.useTools);
    if (tools > MAX_TOOLS_PER_AGENT) out.push({ level: 'warn', code: 'TOOLS_OVER_CAP', ...t.toolsOverCap(ref(agent), tools, MAX_TOOLS_PER_AGENT) });
  }
  return out;
}

/** Bundled tools presented to the agent plus its ties' delegation tools (transfer_to_* and ask_* per tie, plan). */
export function toolCount(agent: AgentSpec, useTools: boolean): number {
  if (!useTools) return 0;
  const bundled = BUNDLED_TOOL_NAMES.filter((name) => isPresented(name, agent)).length;
  const ties = agent.connectedAgents.length;
  const delegation = ties === 0 ? 0 : ties * (agent.allowHandoff ? 2 : 1) + (ties >= 2 ? 1 : 0);
  return bundled + delegation;
}
