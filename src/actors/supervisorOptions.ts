/**
 * What the supervisor is built with (types only): its options, the main-thread tool port and the outcome of an
 * external ask. Split from `supervisor.ts` so the wiring file stays about wiring.
 */
import type { ResourceLimits } from 'node:worker_threads';
import type { DiagSink } from '../core/diag.js';
import type { PlanTaskState } from '../core/events.js';
import type { CallRecord } from '../core/sessions/records.js';
import type { RunApprovalMode, ToolReply, ToolSpec } from '../core/tools/contract.js';
import type { Exchange, PromptMaterial } from '../core/turn/ports.js';
import type { ModelTemplate, World } from '../core/world/types.js';
import type { PlanReviewMode } from './protocol.js';
import type { SupervisorRecorder } from './recorder.js';
import type { ScanPool } from './scanPool.js';

/** Options of one village's supervisor. */
export interface SupervisorOptions {
  world: World;
  /** Absolute `{dataDir}/workspace`. */
  workspaceDir: string;
  runApproval?: RunApprovalMode;
  /** How a worker treats a broken template; default `strict` (headless). */
  backendMode?: 'strict' | 'echoOnFailure';
  /** Jev (the helper model) for a worker, read when each agent starts (so the GUI's changes apply at the next start). */
  jevFor?: () => Promise<import('./protocol.js').JevInit | null>;
  /** This template's API key, or null when not required. Called on start, per agent. */
  apiKeyFor?: (template: ModelTemplate) => string | null;
  /** Prompt files of one agent, read per delivery (missing = ""). */
  material?: (agentId: string) => PromptMaterial;
  /** Restored history and summary of one agent (sessions), read on start. */
  restore?: (agentId: string) => { history: Exchange[]; summary: string | null };
  recorder?: SupervisorRecorder;
  diag?: DiagSink;
  /** Worker entry (tests pass a fixture worker); default the built bundle dist/actors/agentWorker.bundle.cjs. */
  workerUrl?: URL;
  resourceLimits?: ResourceLimits;
  /** Tools that live on the main thread (MCP): opened per agent on start, called from workers, closed on stop. */
  externalTools?: ExternalToolPort;
  /** `agentStatsUpdated` interval for active agents (ms); default 1000, 0 = off. */
  statsIntervalMs?: number;
  /** How `planReview` waves are handled: `ask` (the GUI reviews), `bypass` (headless flag), default `unavailable`. */
  planReview?: PlanReviewMode;
  /** Restart crashed workers (3 in 60 s, backoff). Off by default; `serve` turns it on. */
  /**
   * The reception's worker loads its engine right after init instead of at its first delivery (a one-shot `ask`:
   * its request comes next). Off elsewhere: a serving village's reception may idle for hours, and the engine costs
   * ~3 MB per worker.
   */
  loadReceptionEngineAtStart?: boolean;
  restartCrashed?: boolean;
  mailboxCapacity?: number;
  /** Where grep/fd/diff scanning runs; default the process's shared pool (one per process, all villages). */
  scanPool?: ScanPool;
  joinTimeoutMs?: number;
  now?: () => number;
}

/**
 * Main-thread tools (MCP servers) as the supervisor sees them. `openAgent` runs before the worker starts (its
 * per-agent connections live as long as the agent runs); a failure to connect is reported there, never fatal.
 */
export interface ExternalToolPort {
  openAgent(agentId: string): Promise<void>;
  closeAgent(agentId: string): Promise<void>;
  /** Specs this agent sees, named `{server}__{tool}` (per-agent wins on a clash). */
  specsFor(agentId: string): ToolSpec[];
  /** Never throws for a tool failure: errors come back as `{ body, ok: false }`. */
  call(agentId: string, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolReply>;
}

/** Result of an external ask: the reception's answer text, how the delivery ended, and every LLM call of its chain. */
export interface ExternalOutcome {
  answer: string;
  state: PlanTaskState;
  /** Calls made by the reception's turn and the turns it delegated to (ask/plan), until the answer came back. */
  calls: CallRecord[];
}

/** Per-request options of an external ask. */
export interface ExternalAskOptions {
  /** Longest wait for the answer (ms), counted from arrival; default the village's askTimeoutSecs. */
  timeoutMs?: number;
  /** The caller went away: a queued request leaves the queue, a served one has its work cut. */
  signal?: AbortSignal;
}
