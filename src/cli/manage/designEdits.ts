/**
 * `fuseforks-cli agents add|edit|remove|tie|untie`, `templates add|edit|remove`, `village set reception`: the
 * design screens' edits of world.json from a script, each one HostApi.village call (the GUI's route), so the file
 * comes out byte for byte as the GUI writes it (unknown keys kept). Each carries a base: the revisions `--base`
 * names (what a script read earlier, from any `--json` object's `revisions`), else the ones this command read just
 * before its write; a stale base is refused with EDIT_CONFLICT (exit 1) and nothing is written. Refused while
 * another process holds the village (exit 4).
 */
import { fieldInvalid } from '../../core/errors/requestErrors.js';
import type { EditBase, Revisions } from '../../core/village/revision.js';
import { baseOf } from '../../core/village/revision.js';
import type { ModelTemplate } from '../../core/world/types.js';
import type { HostApi } from '../../host/hostApi.js';
import type { VillageState } from '../../host/villageCommands.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import { jsonText } from '../jsonFormat.js';
import type { CliOutput } from '../output.js';
import { agentLine, agentRows, type AgentListRow } from './agents.js';
import { withVillage } from './openManaged.js';
import { templateLine, templateRow, type TemplateRow } from './templates.js';

/** What every design edit takes. */
export interface DesignOptions {
  dataDir: string;
  json: boolean;
  /** `--base`: the revision the change is made from; absent = the one this command read. */
  base?: string;
}

/** What an edit printed: the touched agent or template (null when removed), the removed id, and the new revisions. */
interface Edited {
  agent?: AgentListRow | null;
  template?: TemplateRow | null;
  removed?: string;
  reception?: string | null;
  revisions: Revisions;
}

function baseFor(options: DesignOptions, seen: VillageState): EditBase {
  return options.base ?? baseOf(seen);
}

function agentOf(state: VillageState, id: string): AgentListRow | null {
  const statuses = new Map(state.statuses.map((s) => [s.agentId, s.status]));
  return agentRows(state.world, (agentId) => statuses.get(agentId) ?? null).find((row) => row.agentId === id) ?? null;
}

/** Runs one edit through HostApi and prints what it touched. */
async function edit(options: DesignOptions, command: string, output: CliOutput, fn: (host: HostApi, base: (seen: VillageState) => EditBase) => Promise<Edited>): Promise<ExitCode> {
  const managed = await withVillage(options.dataDir, command, output, (host) => fn(host, (seen) => baseFor(options, seen)));
  if (!managed.ok) return managed.exit;
  const done = managed.value;
  if (options.json) output.stdout(jsonText(done));
  else if (done.agent) output.stdout(agentLine(done.agent));
  else if (done.template) output.stdout(templateLine(done.template));
  else if (done.removed !== undefined) output.stdout(`removed ${done.removed}`);
  else output.stdout(`reception: ${done.reception ?? 'none'}`);
  return EXIT.ok;
}

/** `agents add NAME`: a new agent (id derived from the name, as the GUI's Add form does). */
export async function runAgentAdd(options: DesignOptions & { name: string; template?: string; role?: string; group?: string }, output: CliOutput): Promise<ExitCode> {
  return edit(options, 'agents add', output, async (host, base) => {
    const seen = host.village.state();
    const made = await host.village.createAgent(
      { name: options.name, ...(options.template === undefined ? {} : { modelTemplateId: options.template }), ...(options.role === undefined ? {} : { roleId: options.role }), ...(options.group === undefined ? {} : { groupId: options.group }) },
      base(seen),
    );
    return { agent: agentOf(made.state, made.id), revisions: made.state.revisions };
  });
}

/** The fields `agents edit` can change (absent = kept as it is). */
export interface AgentFieldEdits {
  name?: string;
  template?: string;
  group?: string | null;
  batchStart?: boolean;
  planReview?: boolean;
  workDir?: string | null;
}

/** `agents edit ID`: the agent's spec as read, with the given fields replaced, saved as the GUI's inspector saves it. */
export async function runAgentEdit(options: DesignOptions & { id: string; fields: AgentFieldEdits }, output: CliOutput): Promise<ExitCode> {
  return edit(options, 'agents edit', output, async (host, base) => {
    const seen = host.village.state();
    const current = seen.world.agents.find((a) => a.id === options.id);
    const f = options.fields;
    const spec = {
      ...(current ?? {}),
      ...(f.name === undefined ? {} : { name: f.name }),
      ...(f.template === undefined ? {} : { modelTemplateId: f.template }),
      ...(f.group === undefined ? {} : { groupId: f.group }),
      ...(f.batchStart === undefined ? {} : { batchStart: f.batchStart }),
      ...(f.planReview === undefined ? {} : { planReview: f.planReview }),
      ...(f.workDir === undefined ? {} : { workDir: f.workDir }),
    };
    // An unknown id is refused by the host (AGENT_NOT_FOUND) before anything is written.
    const state = await host.village.updateAgent(options.id, spec, base(seen));
    return { agent: agentOf(state, options.id), revisions: state.revisions };
  });
}

/** `agents remove ID`: the agent, its inbound ties, its folder and its schedules. */
export async function runAgentRemove(options: DesignOptions & { id: string }, output: CliOutput): Promise<ExitCode> {
  return edit(options, 'agents remove', output, async (host, base) => {
    const seen = host.village.state();
    const state = await host.village.deleteAgent(options.id, base(seen));
    return { removed: options.id, revisions: state.revisions };
  });
}

/** `agents tie|untie ID TARGET…`: the agent's ties with the targets added (in the order given) or taken out. */
export async function runAgentTies(options: DesignOptions & { id: string; targets: string[]; action: 'tie' | 'untie' }, output: CliOutput): Promise<ExitCode> {
  return edit(options, `agents ${options.action}`, output, async (host, base) => {
    const seen = host.village.state();
    const current = seen.world.agents.find((a) => a.id === options.id)?.connectedAgents ?? [];
    const targets = options.action === 'tie' ? [...current, ...options.targets.filter((t) => !current.includes(t))] : current.filter((t) => !options.targets.includes(t));
    const state = await host.village.setTies(options.id, [...new Set(targets)], base(seen));
    return { agent: agentOf(state, options.id), revisions: state.revisions };
  });
}

/** The fields `templates add|edit` can set. */
export interface TemplateFieldEdits {
  name?: string;
  baseUrl?: string;
  model?: string;
  provider?: string | null;
  credential?: 'unset' | 'not_required';
  stream?: boolean;
}

/** `templates add ID` (refused when the id exists) or `templates edit ID` (refused when it does not). */
export async function runTemplateSave(options: DesignOptions & { id: string; fields: TemplateFieldEdits; mode: 'add' | 'edit' }, output: CliOutput): Promise<ExitCode> {
  return edit(options, `templates ${options.mode}`, output, async (host, base) => {
    const seen = host.village.state();
    const current: Partial<ModelTemplate> | undefined = seen.world.modelTemplates.find((t) => t.id === options.id);
    if (options.mode === 'add' && current !== undefined) {
      throw fieldInvalid('Model template', 'id', `"${options.id}" already exists`, `Change it with templates edit ${options.id}, or pick another id.`);
    }
    if (options.mode === 'edit' && current === undefined) {
      throw fieldInvalid('Model template', 'id', `"${options.id}" does not exist in world.json`, `See templates list, or add it with templates add ${options.id}.`);
    }
    const f = options.fields;
    const template = {
      ...(current ?? { id: options.id, name: options.id }),
      ...(f.name === undefined ? {} : { name: f.name }),
      ...(f.baseUrl === undefined ? {} : { baseUrl: f.baseUrl }),
      ...(f.model === undefined ? {} : { model: f.model }),
      ...(f.provider === undefined ? {} : { provider: f.provider }),
      ...(f.credential === undefined ? {} : { credential: f.credential }),
      ...(f.stream === undefined ? {} : { stream: f.stream }),
    };
    const state = await host.village.upsertTemplate(template, base(seen));
    const saved = state.world.modelTemplates.find((t) => t.id === options.id);
    return { template: saved === undefined ? null : templateRow(saved, state.hasKey[options.id] === true), revisions: state.revisions };
  });
}

/** `templates remove ID`: refused while an agent uses it (the host's TEMPLATE_IN_USE); its stored key goes too. */
export async function runTemplateRemove(options: DesignOptions & { id: string }, output: CliOutput): Promise<ExitCode> {
  return edit(options, 'templates remove', output, async (host, base) => {
    const seen = host.village.state();
    const state = await host.village.removeTemplate(options.id, base(seen));
    return { removed: options.id, revisions: state.revisions };
  });
}

/** `village set reception ID|none`. */
export async function runSetReception(options: DesignOptions & { agentId: string | null }, output: CliOutput): Promise<ExitCode> {
  return edit(options, 'village set reception', output, async (host, base) => {
    const seen = host.village.state();
    const state = await host.village.setReception(options.agentId, base(seen));
    return { reception: state.world.reception, revisions: state.revisions };
  });
}
