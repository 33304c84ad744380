/**
 * Builds preflight's inputs from files only (SPEC §6.1): world.json, schedules.json, village_id, the shelf's
 * probe_approvals.json and jev.json, mcp.json + agents/{id}/mcp.json + judge.json, and secret PRESENCE in the
 * chosen store. No lock, no LMDB, no MCP, no LLM, no write — not even village_id (read if present, never made).
 */
import { readFile, stat } from 'node:fs/promises';
import { PROMPT_FILE_NAMES } from '../turn/promptCaps.js';
import type { PromptFileSize } from './promptCapFindings.js';
import { join } from 'node:path';
import { lockHolder } from '../lockHolder.js';
import { ProbeApprovals } from '../schedules/probeApprovals.js';
import { parseScheduleFile } from '../schedules/scheduleFile.js';
import type { ScheduledTask } from '../schedules/types.js';
import { openSecretStore, checkSecretNames, type SecretSource } from '../secrets/openSecretStore.js';
import { envNameForKey, JEV_TOKEN_KEY } from '../secrets/secretNames.js';
import type { EnvLike } from '../secrets/envSecretStore.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { answersDisagree } from '../secrets/keyringAnswers.js';
import { KeyringSecretStore } from '../secrets/keyringSecretStore.js';
import type { RunApprovalMode } from '../tools/contract.js';
import { villagePaths, type VillagePaths } from '../village/paths.js';
import { readVillageId } from '../village/villageId.js';
import { loadWorld } from '../village/worldStore.js';
import { isSafeIdentifier } from '../world/identifiers.js';
import { resolveStartSet, type StartSetError } from '../world/startSet.js';
import type { World } from '../world/types.js';
import { SESSION_STORE_FILE } from '../sessions/sessionFiles.js';
import { verifyLmdbFile } from '../sessions/lmdbVerify.js';
import { readRunPolicy, runPolicyPath } from '../tools/runPolicyFile.js';
import { commandExists } from './commandExists.js';
import { sandboxAvailability } from '../sandbox/sandboxAvailability.js';
import { readJevView, readJudgeTarget, readMcpServers, type ReadProblem } from './configReaders.js';
import { secretNeed, type McpServerView, type PreflightMode, type PreflightView } from './headlessPreflight.js';
import { villageMissing } from '../errors/configErrors.js';
import { mcpOAuthKey } from '../secrets/mcpOAuthKey.js';

/** The arguments of the command being checked. */
export interface GatherOptions {
  dataDir: string;
  mode: PreflightMode;
  /** `--start` as typed. */
  start: string;
  secrets: SecretSource;
  bypassPlanReview: boolean;
  runApproval: RunApprovalMode;
  /** Environment for `--secrets env` and PATH lookups (default `process.env`). */
  env?: EnvLike;
  /** Test seam: the store to ask for presence instead of the real one for `secrets`. */
  store?: SecretStore;
  /**
   * Walk sessions.mdb (read only) and report damage as a finding: `check` does; `ask`/`serve` leave it to the boot,
   * which runs the same walk once before lmdb opens the file.
   */
  verifySessionStore?: boolean;
  /** `check`: say whether another process holds the village now (read from the OS, never by taking the lock). */
  lookForHolder?: boolean;
  /**
   * `check`: ask each keyring store about each needed key (reads only) and name a keyring whose answers disagree;
   * `ask`/`serve` skip these extra reads (cold start).
   */
  askKeyringStores?: boolean;
  /**
   * Readers of files whose parsers live above the core (the door's mcp_server.json, mcp.json entry by entry), handed
   * in by the command; their problems replace the lenient reader's for the same file.
   */
  moreProblems?: (paths: VillagePaths, started: readonly string[], mode: PreflightMode) => Promise<ReadProblem[]>;
}

/** Inputs ready for `headlessPreflight`, plus notes about files that exist but could not be used. */
export type Gathered =
  | { ok: true; paths: VillagePaths; world: World; schedules: ScheduledTask[]; view: PreflightView; problems: ReadProblem[] }
  | { ok: false; argument: StartSetError };

/**
 * Reads everything preflight needs. Throws FuseforksError for boot failures (exit 5): VILLAGE_MISSING,
 * CONFIG_PARSE (naming file and position), SECRET_NAME_COLLISION, SECRET_STORE_FAILED. A bad `--start` comes
 * back as `{ok: false}` (exit 2).
 */
export async function gatherView(options: GatherOptions): Promise<Gathered> {
  const env = options.env ?? process.env;
  const paths = villagePaths(options.dataDir);
  // Undetermined language → ja (SPEC §6.1), so the locale handed to normalization is Japanese; nothing is written.
  const load = await loadWorld(paths, { locale: 'ja' });
  if (load.kind === 'missing') throw villageMissing(paths);
  if (load.kind === 'unreadable') throw load.error;
  const world = load.doc.world;

  const resolved = resolveStartSet(world, options.start, options.mode);
  if (!resolved.ok) return { ok: false, argument: resolved.error };
  const start = resolved.ids;
  const started = world.agents.filter((a) => start.includes(a.id));
  const problems: ReadProblem[] = [];

  const schedules = await readSchedules(paths, problems);

  // MCP servers and judges: shared file, then every agent's own (judge targets are needed for the reception's ties).
  const mcpServers: McpServerView[] = [];
  const shared = await readMcpServers(paths.mcp, null);
  mcpServers.push(...shared.servers);
  if (shared.problem) problems.push(shared.problem);
  const judgeTargets = new Set<string>();
  const judgeAgents: string[] = [];
  for (const agent of world.agents) {
    if (!isSafeIdentifier(agent.id)) continue;
    const isStarted = start.includes(agent.id);
    if (isStarted) {
      const own = await readMcpServers(paths.agentFile(agent.id, 'mcp'), agent.id);
      mcpServers.push(...own.servers);
      if (own.problem) problems.push(own.problem);
    }
    const judge = await readJudgeTarget(paths.agentFile(agent.id, 'judge'));
    if (judge.problem) problems.push(judge.problem);
    if (judge.to !== null) judgeTargets.add(judge.to);
    if (judge.declared && isStarted) judgeAgents.push(agent.id);
  }
  const jevRead = await readJevView(paths.shelf.jev);
  if (jevRead.problem) problems.push(jevRead.problem);
  const jevNeeded = jevRead.jev.enabled && (judgeAgents.length > 0 || jevRead.jev.compression);

  // Secrets: the collision check first (boot order, SPEC §5), then presence of exactly the keys preflight asks about.
  checkSecretNames(options.secrets, world.modelTemplates.map((t) => t.id));
  const store = options.store ?? openSecretStore(options.secrets, env);
  const needed = new Set<string>();
  for (const agent of started) {
    const template = world.modelTemplates.find((t) => t.id === agent.modelTemplateId);
    if (template !== undefined && secretNeed(template) === 'key') needed.add(template.id);
  }
  if (jevNeeded) needed.add(JEV_TOKEN_KEY);
  const present = new Set([...needed].filter((key) => store.has(key)));
  // OAuth HTTP servers: is a login stored? (presence only; a URL that does not parse is CONFIG_BROKEN elsewhere)
  for (const server of mcpServers) {
    if (server.oauth !== true || server.url === undefined) continue;
    try {
      server.loginStored = store.has(mcpOAuthKey(server.url));
    } catch {
      server.loginStored = false;
    }
  }

  // Probe approvals are bound to this village's id; without a readable id nothing is approved (never created here).
  const villageId = (await readVillageId(paths)) ?? '';
  const approvals = schedules.some((s) => s.probe !== undefined) ? await ProbeApprovals.load(paths.shelf.probeApprovals) : null;
  if (approvals?.blocked) problems.push({ file: approvals.blocked.file, reason: approvals.blocked.reason });

  // run.json of every started agent that can run: broken means nothing runs (each run is refused) until fixed.
  const sandboxOff: string[] = [];
  let runners = 0;
  for (const agent of started) {
    if (!isSafeIdentifier(agent.id) || agent.enabledTools?.includes('run') !== true) continue;
    const read = readRunPolicy(paths.workspace, agent.id);
    runners += 1;
    if (!read.policy.sandbox) sandboxOff.push(agent.id);
    if (read.state === 'broken') {
      problems.push({ file: runPolicyPath(paths.workspace, agent.id), reason: `${read.broken ?? 'cannot be used'}; every run of ${agent.id} is refused`, fix: 'Fix run.json by hand or from the GUI (its allow list); fuseforks never overwrites it.' });
    }
  }
  if (options.moreProblems !== undefined) {
    const more = await options.moreProblems(paths, start, options.mode);
    const files = new Set(more.map((p) => p.file));
    problems.splice(0, problems.length, ...problems.filter((p) => !files.has(p.file)), ...more);
  }

  const view: PreflightView = {
    mode: options.mode,
    start,
    secretPresent: (key) => present.has(key),
    probeApproved: (s) => s.probe !== undefined && approvals !== null && approvals.isApproved(s.probe, villageId),
    jevTokenPresent: present.has(JEV_TOKEN_KEY),
    jevNeeded,
    judgeAgents,
    compressionOn: jevRead.jev.enabled && jevRead.jev.compression,
    judgeTargets,
    bypassPlanReview: options.bypassPlanReview,
    runApproval: options.runApproval,
    mcpServers,
    commandExists: (command) => commandExists(command, env),
  };
  if (options.secrets === 'env') view.secretEnvName = envNameForKey;
  // The sandbox is looked for (one trial run of bwrap) only when a started agent may run commands.
  if (runners > 0) {
    const found = sandboxAvailability();
    view.sandbox = { available: found.ok ? { ok: true } : { ok: false, detail: found.detail, fix: found.fix }, off: sandboxOff };
  }
  if (problems.length > 0) view.brokenFiles = problems;
  view.promptFiles = await promptFileSizes(paths, started.filter((a) => isSafeIdentifier(a.id)).map((a) => a.id));
  if (options.verifySessionStore === true) {
    const damaged = damagedStore(join(paths.workspace, SESSION_STORE_FILE));
    if (damaged !== null) view.damagedSessionStore = damaged;
  }
  if (options.lookForHolder === true) {
    const holder = lockHolder(paths.lock);
    if (holder?.held === true) view.villageHeld = { pid: holder.pid };
  }
  if (options.askKeyringStores === true && store instanceof KeyringSecretStore) {
    const disagreeing = [...needed].map((key) => ({ key, answers: store.answers(key) })).filter((k) => answersDisagree(k.answers));
    if (disagreeing.length > 0) view.keyringDisagrees = disagreeing;
  }
  return { ok: true, paths, world, schedules, view, problems };
}

async function readSchedules(paths: VillagePaths, problems: ReadProblem[]): Promise<ScheduledTask[]> {
  let text: string;
  try {
    text = await readFile(paths.schedules, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') problems.push({ file: paths.schedules, reason: `cannot read the file (${code ?? 'error'})` });
    return [];
  }
  const parsed = parseScheduleFile(text);
  if (!parsed.ok) {
    // As at boot: an unreadable file means no schedules (and the runtime will refuse to overwrite it).
    problems.push({ file: paths.schedules, reason: `${parsed.block.reason} at line ${parsed.block.line}, column ${parsed.block.column}; no schedule runs` });
    return [];
  }
  for (const d of parsed.dropped) {
    problems.push({
      file: paths.schedules,
      reason: `row ${d.index + 1}${d.id === null ? '' : ` (${d.id})`}: ${d.problem.field} — ${d.problem.message}; this schedule does not run`,
      fix: `Correct ${d.problem.field} of that row in the GUI's schedule dialog or in schedules.json (the row is kept as written).`,
    });
  }
  return parsed.rows.flatMap((row) => (row.kind === 'task' ? [row.task] : []));
}

/** The store's structural verdict as a finding input; unreadable is damage too (the boot would run without it). */
function damagedStore(file: string): { file: string; reason: string } | null {
  try {
    const verdict = verifyLmdbFile(file);
    return verdict.state === 'corrupt' ? { file, reason: verdict.reason } : null;
  } catch (error) {
    return { file, reason: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}

/** Sizes (stat only, nothing read) of Ordinance.md and each agent's SKILL.md, Construct.md, Memory.md that exist. */
async function promptFileSizes(paths: VillagePaths, agentIds: readonly string[]): Promise<PromptFileSize[]> {
  const wanted: { agentId: string | null; file: string; path: string }[] = [{ agentId: null, file: PROMPT_FILE_NAMES.ordinance, path: paths.ordinance }];
  for (const id of agentIds) {
    const agent = paths.agent(id);
    wanted.push(
      { agentId: id, file: PROMPT_FILE_NAMES.skill, path: agent.skill },
      { agentId: id, file: PROMPT_FILE_NAMES.construct, path: agent.construct },
      { agentId: id, file: PROMPT_FILE_NAMES.memory, path: agent.memory },
    );
  }
  const sizes = await Promise.all(wanted.map(async (w) => ({ ...w, bytes: await stat(w.path).then((s) => (s.isFile() ? s.size : -1), () => -1) })));
  return sizes.filter((s) => s.bytes >= 0);
}

/** VILLAGE_MISSING for a data dir without world.json (exit 5); the factory lives in the error catalogue. */
export { villageMissing };
