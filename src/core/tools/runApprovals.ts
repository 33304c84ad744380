/**
 * A person's decisions about `run` requests, as pure edits of a RunPolicy: approve once (one run, then the grant
 * is spent), always allow (the exact line, or the command and its first argument with any further ones), reject
 * (the exact line is denied from then on, so the agent gets the refusal text). Only a request still pending can be
 * decided (`found: false` otherwise, as the original's `notFound`). Also the checks of the allowlist editor, and the
 * wire shapes of the approvals list and the editor (the host reads the files; the GUI shows these).
 */
import {
  decide,
  exactPattern,
  matchesPattern,
  normalizeCommand,
  sameRequest,
  type PendingRequest,
  type RunPolicy,
} from './runPolicy.js';
import type { RunPolicyState } from './runPolicyFile.js';

/** How far an approval reaches. */
export type ApprovalScope = 'once' | 'always' | 'prefix';
export const APPROVAL_SCOPES: readonly ApprovalScope[] = ['once', 'always', 'prefix'];

/** A person's decision on a pending request. */
export type CommandDecision = ApprovalScope | 'reject';
export const COMMAND_DECISIONS: readonly CommandDecision[] = ['once', 'always', 'prefix', 'reject'];

/** One pending request as the approvals list shows it. */
export interface CommandRequestView extends PendingRequest {
  agentId: string;
  agentName: string;
  /** The command line as one string (`command arg …`), as a pattern would spell it. */
  line: string;
}

/** A run.json that cannot be read: its requests are unknown until a person fixes it. */
export interface BrokenRunPolicy {
  agentId: string;
  agentName: string;
  file: string;
  reason: string;
}

/** The village's pending requests, oldest first, and the run.json files that could not be read. */
export interface CommandRequests {
  requests: CommandRequestView[];
  broken: BrokenRunPolicy[];
}

/** One agent's run.json for the allowlist editor. */
export interface RunPolicyView {
  agentId: string;
  file: string;
  state: RunPolicyState;
  /** Why the file cannot be used (state `broken`); the editor shows it and saves nothing. */
  broken: string | null;
  allow: string[];
  deny: string[];
  once: string[];
  pending: PendingRequest[];
  timeoutSecs: number;
  /**
   * The revision of the policy part (`…/run.json#policy`: everything but the requests agents append and the
   * one-run grants), the base of a save of the form; a raw edit of the file has its own (the agent file's).
   */
  revisions: Record<string, string>;
}

/** What the allowlist editor saves; pending requests and unknown keys are kept as they are on disk. */
export interface RunPolicyEdit {
  allow: string[];
  deny: string[];
  timeoutSecs: number;
}

/** How a decision ended: written, or the request was no longer pending (decided elsewhere, or the file changed). */
export type DecisionOutcome = 'applied' | 'notFound';

/** A decision's outcome: the edited policy, or the unchanged one when the request is no longer pending. */
export interface DecisionResult {
  found: boolean;
  policy: RunPolicy;
}

/** `cmd arg1 *` (or `cmd *` without arguments): this command with this first argument and anything after it. */
export function prefixPattern(command: string, args: readonly string[]): string {
  return [command, ...args.slice(0, 1), '*'].join(' ');
}

const withOnce = (list: readonly string[], pattern: string): string[] => (list.includes(pattern) ? [...list] : [...list, pattern]);

/** Drops pending entries the policy now settles (allowed, denied or granted once). */
function pruneSettled(policy: RunPolicy): RunPolicy {
  return { ...policy, pending: policy.pending.filter((p) => decide(policy, p.command, p.args) === 'unknown') };
}

function pendingEntry(policy: RunPolicy, command: string, args: readonly string[]): PendingRequest | undefined {
  const normalized = normalizeCommand(command) ?? command;
  return policy.pending.find((p) => sameRequest(p, normalized, args));
}

/** Approves a pending request once, always (exact line) or for its prefix. */
export function approveRequest(policy: RunPolicy, command: string, args: readonly string[], scope: ApprovalScope): DecisionResult {
  const entry = pendingEntry(policy, command, args);
  if (entry === undefined) return { found: false, policy };
  const exact = exactPattern(entry.command, entry.args);
  const next: RunPolicy =
    scope === 'once'
      ? { ...policy, once: withOnce(policy.once, exact) }
      : { ...policy, allow: withOnce(policy.allow, scope === 'always' ? exact : prefixPattern(entry.command, entry.args)) };
  return { found: true, policy: pruneSettled(next) };
}

/** Rejects a pending request: its exact line joins `deny` (and loses a one-run grant it may have had). */
export function rejectRequest(policy: RunPolicy, command: string, args: readonly string[]): DecisionResult {
  const entry = pendingEntry(policy, command, args);
  if (entry === undefined) return { found: false, policy };
  const exact = exactPattern(entry.command, entry.args);
  const next: RunPolicy = { ...policy, deny: withOnce(policy.deny, exact), once: policy.once.filter((p) => p !== exact) };
  return { found: true, policy: pruneSettled(next) };
}

/** Spends the one-run grant that matches this line (the first one, if several do). */
export function consumeOnce(policy: RunPolicy, command: string, args: readonly string[]): RunPolicy {
  const normalized = normalizeCommand(command) ?? command;
  const at = policy.once.findIndex((p) => matchesPattern(p, normalized, args));
  if (at < 0) return policy;
  return { ...policy, once: policy.once.filter((_, i) => i !== at) };
}

/**
 * Why a pattern of the allowlist editor cannot work, or null: it must name a bare program (no path, no spaces
 * inside the name) and may not be a lone `*`.
 */
export function patternProblem(pattern: string): string | null {
  const tokens = pattern.trim().split(/\s+/).filter((t) => t !== '');
  const head = tokens[0];
  if (head === undefined) return 'is empty';
  if (head === '*') return 'starts with *, which never matches (name a program first)';
  if (normalizeCommand(head) === null) return `names "${head}", which is not a bare program name (no / \\ :)`;
  return null;
}
