/**
 * `fuseforks-cli approvals list|approve|reject`: the `run` requests agents left pending in their run.json, and a
 * person's decision on one, through `HostApi.approvals` — the GUI's approvals dialog, so run.json ends up byte for
 * byte as the GUI leaves it and the agent's next run of the command runs (or is refused) the same way. `list` is
 * read-only and also answers beside a running owner (from the run.json files); a decision refuses then (exit 4).
 */
import { agentNotInWorld } from '../../core/errors/worldErrors.js';
import { jsonText } from '../jsonFormat.js';
import { commandRequestNotPending } from '../../core/errors/requestErrors.js';
import type { ApprovalScope, CommandRequests, CommandRequestView } from '../../core/tools/runApprovals.js';
import { villagePaths } from '../../core/village/paths.js';
import { loadWorld, systemLocale } from '../../core/village/worldStore.js';
import { listCommandRequests } from '../../host/commands/commandApprovals.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';
import { withVillage } from './openManaged.js';

/** What every approvals command takes. */
export interface ApprovalsOptions {
  dataDir: string;
  json: boolean;
}

/** One line per pending request (and one per unreadable run.json) for people. */
export function approvalLines(list: CommandRequests): string[] {
  const lines = list.requests.map((r) => {
    const where = r.cwd ? ` in ${r.cwd}` : '';
    const why = r.reason ? ` — ${JSON.stringify(r.reason)}` : '';
    return `${r.agentId}  ${JSON.stringify(r.line)}${where}${why}  (asked ${r.count}×, first ${new Date(r.firstRequestedAtMs).toLocaleString()})`;
  });
  if (lines.length === 0) lines.push('no pending command requests');
  for (const b of list.broken) lines.push(`${b.agentId}: ${b.file} cannot be read (${b.reason}); its requests are unknown until it is fixed`);
  return lines;
}

/** `approvals list`: through HostApi, or from the run.json files while another process holds the village. */
export async function runApprovalsList(options: ApprovalsOptions, output: CliOutput): Promise<ExitCode> {
  const managed = await withVillage(options.dataDir, 'approvals list', output, async (host) => host.approvals.list(), true);
  let list: CommandRequests;
  if (managed.ok) list = managed.value;
  else if (managed.held) {
    const paths = villagePaths(options.dataDir);
    const load = await loadWorld(paths, { locale: systemLocale() });
    list = load.kind === 'missing' ? { requests: [], broken: [] } : listCommandRequests(paths, load.doc.world);
  } else return managed.exit;
  output.stdout(options.json ? jsonText(list) : approvalLines(list).join('\n'));
  return EXIT.ok;
}

/** The pending request of `agentId` whose command line is `line` (as `list` prints it). */
export function findRequest(list: CommandRequests, agentId: string, line: string): CommandRequestView {
  const wanted = line.trim().split(/\s+/).join(' ');
  const found = list.requests.find((r) => r.agentId === agentId && r.line === wanted);
  if (found !== undefined) return found;
  throw commandRequestNotPending(agentId, wanted);
}

/** `approvals approve AGENT LINE… [--scope]` / `approvals reject AGENT LINE…`. */
export async function runApprovalDecision(
  options: ApprovalsOptions & { agentId: string; line: string; decision: ApprovalScope | 'reject' },
  output: CliOutput,
): Promise<ExitCode> {
  const verb = options.decision === 'reject' ? 'reject' : 'approve';
  const managed = await withVillage(options.dataDir, `approvals ${verb}`, output, async (host) => {
    // An id that is no agent is named as such, not as "no pending request".
    if (!host.world().agents.some((a) => a.id === options.agentId)) throw agentNotInWorld(options.agentId);
    const request = findRequest(host.approvals.list(), options.agentId, options.line);
    const outcome = await host.approvals.decide(options.agentId, { command: request.command, args: request.args }, options.decision);
    if (outcome === 'notFound') return findRequest({ requests: [], broken: [] }, options.agentId, options.line);
    return request;
  });
  if (!managed.ok) return managed.exit;
  const r = managed.value;
  if (options.json) output.stdout(jsonText({ agentId: r.agentId, command: r.command, args: r.args, line: r.line, decision: options.decision }));
  else output.stdout(`${r.agentId}: ${JSON.stringify(r.line)} ${DONE[options.decision]}`);
  return EXIT.ok;
}

const DONE: Record<ApprovalScope | 'reject', string> = {
  once: 'approved once (its next run goes ahead)',
  always: 'always allowed (this exact line)',
  prefix: 'allowed with any further arguments',
  reject: 'rejected (the agent is told at its next run of it)',
};
