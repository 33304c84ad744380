/**
 * Command approvals across the village: the `run` requests agents left pending in their `agents/{id}/run.json`,
 * a person's decision on one (approve once / always / for its prefix, or reject), and the allowlist editor of one
 * agent's run.json. Every write re-reads the file, writes it atomically with unknown keys kept, and a broken file
 * is reported (CONFIG_PARSE naming it) and never overwritten. The GUI, the CLI (`approvals`) and library users
 * reach this through the host API.
 *
 * The allowlist form edits the policy part of run.json (document `…/run.json#policy`: all but `pending` and
 * `once`, which agents write at every request) and takes its base (EDIT_CONFLICT when a person changed the policy
 * meanwhile). A decision needs no base: it applies only to a request still pending, its own check of staleness.
 */
import { FuseforksError } from '../../core/errors.js';
import {
  approveRequest,
  COMMAND_DECISIONS,
  patternProblem,
  rejectRequest,
  type BrokenRunPolicy,
  type CommandDecision,
  type CommandRequests,
  type CommandRequestView,
  type DecisionOutcome,
  type RunPolicyEdit,
  type RunPolicyView,
} from '../../core/tools/runApprovals.js';
import { clampTimeout, exactPattern, type RunPolicy } from '../../core/tools/runPolicy.js';
import { readRunPolicy, runPolicyPath, updateRunPolicy, type RunPolicyRead, type RunPolicyState } from '../../core/tools/runPolicyFile.js';
import { canonicalJson, fileTarget, requireContentBase, revisionsOf, type EditBase, type EditTarget } from '../../core/village/revision.js';
import type { VillagePaths } from '../../core/village/paths.js';
import type { World } from '../../core/world/types.js';
import { requireAgent } from './agentEdits.js';
import { runPolicyFieldInvalid } from '../../core/errors/requestErrors.js';
import { runPolicyBroken } from '../../core/errors/configErrors.js';
import { isSafeIdentifier } from '../../core/world/identifiers.js';

export type { CommandDecision, CommandRequests, DecisionOutcome, RunPolicyView } from '../../core/tools/runApprovals.js';

/** Every pending request of every agent (agents in list order, each one's requests oldest first). */
export function listCommandRequests(paths: VillagePaths, world: World): CommandRequests {
  const requests: CommandRequestView[] = [];
  const broken: BrokenRunPolicy[] = [];
  // An agent with an unsafe id has no folder to read (preflight names it, UNSAFE_IDENTIFIER); it has no requests.
  for (const agent of [...world.agents].filter((a) => isSafeIdentifier(a.id)).sort((a, b) => a.order - b.order)) {
    const read = readRunPolicy(paths.workspace, agent.id);
    if (read.state === 'broken') {
      broken.push({ agentId: agent.id, agentName: agent.name, file: runPolicyPath(paths.workspace, agent.id), reason: read.broken ?? 'broken' });
      continue;
    }
    for (const p of read.policy.pending) {
      requests.push({ ...p, agentId: agent.id, agentName: agent.name, line: exactPattern(p.command, p.args) });
    }
  }
  return { requests, broken };
}

/** One agent's run.json as the editor shows it. */
export function readRunPolicyView(paths: VillagePaths, world: World, agentId: string): RunPolicyView {
  requireAgent(world, agentId);
  const read = readRunPolicy(paths.workspace, agentId);
  return viewOf(agentId, runPolicyPath(paths.workspace, agentId), read, revisionsOf(policyTarget(paths, agentId), policyContent(read)));
}

/** The policy part of run.json as a document (the form's). */
function policyTarget(paths: VillagePaths, agentId: string): EditTarget {
  return fileTarget(paths.dataDir, runPolicyPath(paths.workspace, agentId), { agentId, part: 'policy' });
}

/** What the form's revision is made of: the file's keys (unknown ones too) but the requests and grants agents change. */
function policyContent(read: RunPolicyRead): string {
  if (read.state === 'broken') return `broken: ${read.broken ?? ''}`;
  const { pending: _pending, once: _once, ...policy } = { ...(read.raw ?? {}), ...read.policy };
  return canonicalJson(policy);
}

/** Applies a person's decision to a pending request of `agentId`. */
export async function decideCommand(
  paths: VillagePaths,
  world: World,
  agentId: string,
  request: { command: unknown; args: unknown },
  decision: CommandDecision,
): Promise<DecisionOutcome> {
  requireAgent(world, agentId);
  if (!COMMAND_DECISIONS.includes(decision)) {
    throw runPolicyFieldInvalid('decision', `must be one of ${COMMAND_DECISIONS.join(', ')}`, 'Choose approve once, always allow, allow the prefix, or reject.');
  }
  const { command, args } = checkRequest(request);
  let found = false;
  const update = await updateRunPolicy(paths.workspace, agentId, (policy) => {
    const result = decision === 'reject' ? rejectRequest(policy, command, args) : approveRequest(policy, command, args, decision);
    found = result.found;
    return result.policy;
  });
  if (!update.written) throw brokenFile(paths, agentId, update.broken);
  return found ? 'applied' : 'notFound';
}

/** Saves the allow and deny lists and the timeout of one agent's run.json (refused on a stale base); answers the re-read file. */
export async function writeRunPolicyLists(paths: VillagePaths, world: World, agentId: string, edit: unknown, base?: EditBase): Promise<RunPolicyView> {
  requireAgent(world, agentId);
  const checked = checkEdit(edit);
  requireContentBase(policyTarget(paths, agentId), policyContent(readRunPolicy(paths.workspace, agentId)), base);
  const update = await updateRunPolicy(paths.workspace, agentId, (policy): RunPolicy => ({ ...policy, ...checked }));
  if (!update.written) throw brokenFile(paths, agentId, update.broken);
  return readRunPolicyView(paths, world, agentId);
}

function viewOf(agentId: string, file: string, read: { state: RunPolicyState; broken: string | null; policy: RunPolicy }, revisions: Record<string, string>): RunPolicyView {
  const p = read.policy;
  return { agentId, file, state: read.state, broken: read.broken, allow: p.allow, deny: p.deny, once: p.once, pending: p.pending, timeoutSecs: p.timeoutSecs, revisions };
}

function checkRequest(request: { command: unknown; args: unknown }): { command: string; args: string[] } {
  if (typeof request.command !== 'string' || request.command.trim() === '') throw runPolicyFieldInvalid('command', 'must be the program name of the request', 'Pick the request from the list again.');
  if (!Array.isArray(request.args) || !request.args.every((a): a is string => typeof a === 'string')) {
    throw runPolicyFieldInvalid('args', 'must be the list of arguments of the request', 'Pick the request from the list again.');
  }
  return { command: request.command, args: request.args };
}

function checkEdit(edit: unknown): RunPolicyEdit {
  const e = (typeof edit === 'object' && edit !== null ? edit : {}) as Record<string, unknown>;
  const list = (key: 'allow' | 'deny'): string[] => {
    const value = e[key];
    if (!Array.isArray(value) || !value.every((x): x is string => typeof x === 'string')) throw runPolicyFieldInvalid(key, 'must be a list of patterns', 'Write one pattern per line.');
    const patterns = value.map((x) => x.trim().replace(/\s+/g, ' ')).filter((x) => x !== '');
    patterns.forEach((p, i) => {
      const problem = patternProblem(p);
      if (problem !== null) throw runPolicyFieldInvalid(`${key}[${i}]`, `"${p}" ${problem}`, 'Start each pattern with a program name, then its exact arguments; a last * allows any further ones.');
    });
    return [...new Set(patterns)];
  };
  const timeout = e['timeoutSecs'];
  if (typeof timeout !== 'number' || !Number.isFinite(timeout)) throw runPolicyFieldInvalid('timeoutSecs', 'must be a number of seconds', 'Enter 1 to 3600.');
  return { allow: list('allow'), deny: list('deny'), timeoutSecs: clampTimeout(timeout) };
}

function brokenFile(paths: VillagePaths, agentId: string, reason: string): FuseforksError {
  const file = runPolicyPath(paths.workspace, agentId);
  return runPolicyBroken(file, agentId, reason);
}

/** The approvals facet of the host (`HostApi.approvals`) over a village's paths and its current world. */
export class CommandApprovals {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly paths: VillagePaths,
    private readonly world: () => World,
  ) {}

  /** Every agent's pending requests and the run.json files that cannot be read. */
  list(): CommandRequests {
    return listCommandRequests(this.paths, this.world());
  }

  /** A person's decision on one pending request (decisions and writes run one at a time). */
  decide(agentId: string, request: { command: unknown; args: unknown }, decision: CommandDecision): Promise<DecisionOutcome> {
    return this.serial(() => decideCommand(this.paths, this.world(), agentId, request, decision));
  }

  /** One agent's run.json for the allowlist editor. */
  readPolicy(agentId: string): RunPolicyView {
    return readRunPolicyView(this.paths, this.world(), agentId);
  }

  /** Saves one agent's allow / deny lists and timeout (refused when `base` is not the policy's revision now). */
  writePolicy(agentId: string, edit: unknown, base?: EditBase): Promise<RunPolicyView> {
    return this.serial(() => writeRunPolicyLists(this.paths, this.world(), agentId, edit, base));
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
