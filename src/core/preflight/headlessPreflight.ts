/**
 * `headlessPreflight(world, schedules, view)` — can this village run without the GUI with these arguments?
 * Pure: everything outside world.json and schedules.json (secret presence, approvals, PATH, MCP configs)
 * comes in through `view`, built from files only by `gatherView.ts`. No LLM, no MCP, no lock, no write.
 * The table is SPEC §6.1; findings come out sorted reject → warn → info, stable in table order.
 */
import type { RunApprovalMode } from '../tools/contract.js';
import { KNOWN_TOOL_NAMES, unknownEnabledTools } from '../tools/registry.js';
import type { ScheduledTask } from '../schedules/types.js';
import { KNOWN_PROVIDERS } from '../world/enums.js';
import { isSafeIdentifier } from '../world/identifiers.js';
import type { AgentSpec, ModelTemplate, World } from '../world/types.js';
import type { KeyringAnswer } from '../secrets/keyringAnswers.js';
import { sortFindings, type Finding, type FindingCode, type FindingLevel } from './finding.js';
import { promptCapFindings, type PromptFileSize } from './promptCapFindings.js';
import { findingTexts, type AgentRef, type FindingText, type SecretHint } from './findingTexts.js';

/** Which command is being checked: `ask` needs a reception; `serve` runs schedules. */
export type PreflightMode = 'ask' | 'serve';

/** One configured MCP server as preflight sees it (shared `mcp.json` → agentId null). */
export interface McpServerView {
  name: string;
  agentId: string | null;
  /** `stdio` when the entry has a command; anything else is a remote transport and is not checked. */
  transport: string;
  command?: string;
  enabled: boolean;
  /** HTTP: the entry's URL (as written). */
  url?: string;
  /** HTTP: the entry declares OAuth (`"oauth": {…}`). */
  oauth?: boolean;
  /** HTTP with `oauth`: a login (tokens) is in the chosen store. */
  loginStored?: boolean;
}

/** Everything preflight needs besides world and schedules; secret values never enter it, only presence. */
export interface PreflightView {
  mode: PreflightMode;
  /** The resolved start set (for ask, the reception is already included when it exists). */
  start: readonly string[];
  /** Is `key` present in the chosen secret store? */
  secretPresent(key: string): boolean;
  /** Under `--secrets env`: the variable holding `key`, named in the fix. Absent = keyring. */
  secretEnvName?(key: string): string;
  /** Is this schedule's pre-check approved on this shelf (probe_approvals.json + village_id)? */
  probeApproved(schedule: ScheduledTask): boolean;
  jevTokenPresent: boolean;
  /** A started agent declares a judge, or tool-result compression is on. */
  jevNeeded: boolean;
  /** Started agents that declare a judge (named in the message; optional detail). */
  judgeAgents?: readonly string[];
  /** Tool-result compression is on in jev.json (named in the message; optional detail). */
  compressionOn?: boolean;
  /** Agents that are judge targets: a judge runs inside the caller's tool call, it is never "not started". */
  judgeTargets: ReadonlySet<string>;
  bypassPlanReview: boolean;
  runApproval: RunApprovalMode;
  mcpServers: readonly McpServerView[];
  /** Absolute path → exists; bare name → found on PATH. */
  commandExists(command: string): boolean;
  /** `check` only: the session store failed its structural check (file and why); absent = fine or not looked at. */
  damagedSessionStore?: { file: string; reason: string };
  /** `check` only: another process holds the village lock now (its pid when the system shows it). */
  villageHeld?: { pid: number | null };
  /** `check` only: keys whose keyring stores answer differently (each store's answer, see keyringAnswers.ts). */
  keyringDisagrees?: readonly { key: string; answers: readonly KeyringAnswer[] }[];
  /**
   * The run sandbox (src/core/sandbox): absent = not looked at; `ok: false` with what is missing and the fix.
   * `off` = started agents with run whose run.json says `"sandbox": false` (they run commands without one).
   */
  sandbox?: { available: { ok: true } | { ok: false; detail: string; fix: string }; off: readonly string[] };
  /** Sizes of the prompt files that exist (Ordinance.md, and the started agents' SKILL.md, Construct.md, Memory.md). */
  promptFiles?: readonly PromptFileSize[];
  /** Files (or entries) that exist but cannot be used, each with its reason and fix. */
  brokenFiles?: readonly { file: string; reason: string; fix?: string }[];
}

/** Runs the SPEC §6.1 table over the village files and the view. */
export function headlessPreflight(world: World, schedules: readonly ScheduledTask[], view: PreflightView): Finding[] {
  const t = findingTexts(world.language);
  const out: Finding[] = [];
  const push = (level: FindingLevel, code: FindingCode, text: FindingText): void => {
    out.push({ level, code, message: text.message, fix: text.fix });
  };
  const byId = new Map(world.agents.map((a) => [a.id, a]));
  const start = new Set(view.start);
  const started = world.agents.filter((a) => start.has(a.id));
  const ref = (id: string): AgentRef => ({ id, name: byId.get(id)?.name ?? id });
  const hint = (key: string): SecretHint =>
    view.secretEnvName ? { store: 'env', envName: view.secretEnvName(key) } : { store: 'keyring' };

  // 1. plan review waits for a human who is not there.
  if (!view.bypassPlanReview) for (const a of started) if (a.planReview) push('reject', 'PLAN_REVIEW_ON', t.planReviewOn(ref(a.id)));

  // 2 / 2'. secrets per template (one finding per template, naming every started agent on it).
  const templates = new Map(world.modelTemplates.map((m) => [m.id, m]));
  const users = new Map<string, AgentSpec[]>();
  for (const a of started) {
    if (!templates.has(a.modelTemplateId)) {
      push('reject', 'MODEL_TEMPLATE_MISSING', t.modelTemplateMissing(ref(a.id), a.modelTemplateId));
      continue;
    }
    users.set(a.modelTemplateId, [...(users.get(a.modelTemplateId) ?? []), a]);
  }
  for (const [templateId, agents] of users) {
    const template = templates.get(templateId) as ModelTemplate;
    // A provider this build cannot speak: every call would fail with LLM_CONFIG, so the key does not matter.
    if (template.unsupportedProvider !== undefined) {
      const refs = agents.map((a) => ref(a.id));
      push('reject', 'PROVIDER_UNSUPPORTED', t.providerUnsupported(templateId, template.unsupportedProvider, refs, KNOWN_PROVIDERS));
      continue;
    }
    const need = secretNeed(template);
    const refs = agents.map((a) => ref(a.id));
    if (need === 'unset') push('reject', 'SECRET_MISSING', t.credentialUnset(templateId, refs, hint(templateId)));
    else if (need === 'key' && !view.secretPresent(templateId)) push('reject', 'SECRET_MISSING', t.secretMissing(templateId, refs, hint(templateId)));
  }

  // 2'''. a keyring whose stores answer differently for a needed key (check only): the key a process sees depends on
  // whether it reaches a Secret Service, so a run from cron or ssh can miss what the desktop stored, or the reverse.
  for (const k of view.keyringDisagrees ?? []) push('warn', 'KEYRING_INCONSISTENT', t.keyringInconsistent(k.key, k.answers));

  // 2''. the same for templates no started agent uses: the run works, but the GUI or a wider --start would not.
  for (const template of world.modelTemplates) {
    if (template.unsupportedProvider === undefined || users.has(template.id)) continue;
    const refs = world.agents.filter((a) => a.modelTemplateId === template.id).map((a) => ref(a.id));
    push('warn', 'PROVIDER_UNSUPPORTED', t.providerUnsupported(template.id, template.unsupportedProvider, refs, KNOWN_PROVIDERS));
  }

  // 3 / 3' / 4. the reception (ask only).
  if (view.mode === 'ask') {
    const reception = world.reception;
    if (reception === null || reception === '') push('reject', 'RECEPTION_UNSET', t.receptionUnset());
    else if (!byId.has(reception)) push('reject', 'RECEPTION_MISSING', t.receptionMissing(reception));
    else {
      const ties = byId.get(reception)?.connectedAgents ?? [];
      // The seed's P6 lesson: a judge target runs inside the caller's tool call, so it is never "not started".
      const outside = ties.filter((id) => !start.has(id) && !view.judgeTargets.has(id));
      if (outside.length > 0) push('info', 'RECEPTION_TARGETS_OUTSIDE', t.receptionTargetsOutside(ref(reception), outside));
    }
  }

  // 5. schedules whose target will not run (serve only; disabled rows and rows for deleted agents never fire).
  const live = view.mode === 'serve' ? schedules.filter((s) => s.enabled !== false && byId.has(s.to)) : [];
  for (const s of live) if (!start.has(s.to)) push('warn', 'SCHEDULE_TARGET_STOPPED', t.scheduleTargetStopped(s.id, ref(s.to)));

  // 6. run under "required" approval: nobody is there to approve.
  if (view.runApproval === 'required') {
    const runners = started.filter((a) => a.enabledTools?.includes('run') === true);
    if (runners.length > 0) push('warn', 'RUN_APPROVAL_PENDING', t.runApprovalPending(runners.map((a) => ref(a.id))));
  }

  // 7. unapproved pre-checks. A stopped target never runs its probe (ops §2.7), so only started targets count.
  for (const s of live) {
    if (s.probe !== undefined && start.has(s.to) && !view.probeApproved(s)) {
      push('warn', 'PROBE_UNAPPROVED', t.probeUnapproved(s.id, s.probe.command));
    }
  }

  // 8. Jev configured but its token is absent: both features stay off (never a crash).
  if (view.jevNeeded && !view.jevTokenPresent) {
    const reasons = { judges: (view.judgeAgents ?? []).map(ref), compression: view.compressionOn === true };
    push('warn', 'JEV_TOKEN_MISSING', t.jevTokenMissing(hint('jev_api_token'), reasons));
  }

  // 9. enabled stdio MCP servers (shared, or owned by a started agent) whose command cannot be found.
  for (const server of view.mcpServers) {
    const relevant = server.agentId === null ? started.length > 0 : start.has(server.agentId);
    const command = server.command;
    if (!relevant || !server.enabled || server.transport !== 'stdio' || command === undefined || command === '') continue;
    if (!view.commandExists(command)) push('warn', 'MCP_COMMAND_NOT_FOUND', t.mcpCommandNotFound(server.name, server.agentId, command));
  }

  // 9b. an enabled OAuth HTTP server without a login: it cannot connect until someone logs in (mcp login / Connect).
  for (const server of view.mcpServers) {
    const relevant = server.agentId === null ? started.length > 0 : start.has(server.agentId);
    if (relevant && server.enabled && server.oauth === true && server.loginStored !== true) {
      push('warn', 'MCP_AUTH_REQUIRED', t.mcpAuthRequired(server.name, server.agentId, view.secretEnvName !== undefined));
    }
  }

  // 10. a damaged session store: the run would go on without persistence (checked by `check`, which reads files only).
  if (view.damagedSessionStore !== undefined) {
    push('warn', 'SESSION_STORE_CORRUPT', t.sessionStoreCorrupt(view.damagedSessionStore.file, view.damagedSessionStore.reason));
  }

  // 11. enabledTools naming a tool this build does not have: said, never a silent cut.
  for (const a of started) {
    const unknown = unknownEnabledTools(a.enabledTools);
    if (unknown.length > 0) push('warn', 'ENABLED_TOOL_UNKNOWN', t.enabledToolUnknown(ref(a.id), unknown, KNOWN_TOOL_NAMES));
  }

  // 12. another process holds the village right now: serve would exit 4; ask goes through its door or exits 4.
  if (view.villageHeld !== undefined) push('warn', 'VILLAGE_HELD', t.villageHeld(view.villageHeld.pid, view.mode));
  // 12'. the run sandbox: an agent that may run commands is refused every command without one, so the run is rejected
  // before anything starts; an agent that opted out (`"sandbox": false`) runs them with the user's full rights.
  if (view.sandbox !== undefined && view.runApproval !== 'no-approval') {
    const runners = started.filter((a) => a.enabledTools?.includes('run') === true);
    const off = new Set(view.sandbox.off);
    const sandboxed = runners.filter((a) => !off.has(a.id));
    const missing = view.sandbox.available;
    if (!missing.ok && sandboxed.length > 0) push('reject', 'SANDBOX_UNAVAILABLE', t.sandboxUnavailable(sandboxed.map((a) => ref(a.id)), missing.detail, missing.fix));
    const bare = runners.filter((a) => off.has(a.id));
    if (bare.length > 0) push('warn', 'SANDBOX_OFF', t.sandboxOff(bare.map((a) => ref(a.id))));
  }
  // 13. files that exist but cannot be used: the run goes on without what they configure.
  for (const p of view.brokenFiles ?? []) push('warn', 'CONFIG_BROKEN', t.configBroken(p.file, p.reason, p.fix));
  // 14. agents whose id is not a safe identifier: never in a start set (startSet.ts), named here, nothing rewritten.
  // The reception among them refuses an ask: nobody could take the request.
  for (const a of world.agents) {
    if (isSafeIdentifier(a.id)) continue;
    const reception = world.reception === a.id;
    push(reception && view.mode === 'ask' ? 'reject' : 'warn', 'UNSAFE_IDENTIFIER', t.unsafeIdentifier(a.id, a.name, reception));
  }

  // 15. what a request would carry over its caps (prompt files, the system prompt, tools): the turn cuts and warns.
  out.push(...promptCapFindings(world, started.filter((a) => isSafeIdentifier(a.id)), view.promptFiles ?? [], t));

  return sortFindings(out);
}

/**
 * What a template needs before its first call. `echo` needs nothing. `keyring` needs the key in the chosen
 * store. `unset` (with a real provider) is refused whatever the store holds: the call would fail with
 * LLM_CONFIG at the first turn, so preflight rejects it as SECRET_MISSING (the original did the same).
 */
export function secretNeed(template: Pick<ModelTemplate, 'provider' | 'credential'>): 'none' | 'key' | 'unset' {
  if (template.provider === 'echo') return 'none';
  if (template.credential === 'not_required') return 'none';
  return template.credential === 'keyring' ? 'key' : 'unset';
}
