/**
 * The tool contract: what the turn engine needs from a tool. Built-in tools run inside the agent's worker;
 * MCP tools are proxied to the main thread behind the same interface.
 */
import type { ReasonState } from '../events.js';
import type { JsonSchema, ToolSpec } from '../llm/canonical.js';
import type { DiagSink } from '../diag.js';
import type { Language } from '../world/types.js';
import type { ScanRunner } from './scan/scanJob.js';

/** How `run` treats commands that run.json does not allow yet (SPEC §4, CLI `--run-approval`). */
export type RunApprovalMode = 'required' | 'auto-approve' | 'no-approval';

/** What a tool may know about the agent calling it. Plain data: built in the worker from its init message. */
export interface ToolContext {
  agentId: string;
  /** The agent's display name (signs blackboard notes); absent = the id. */
  agentName?: string;
  /** Absolute confinement root of file tools; null hides them. */
  workDir: string | null;
  /** Absolute `{dataDir}/workspace` (Memory.md, run.json live under `agents/{id}/`). */
  workspaceDir: string;
  language: Language;
  runApproval: RunApprovalMode;
  /** Aborted on interrupt or stop: long tools (run, grep) must stop and kill what they started. */
  signal: AbortSignal;
  diag: DiagSink;
  /** 1-based round of the turn, for the `tool:` record. */
  round: number;
  /** The model's stated reason for this call (built-ins only; the registry reads it before the call). */
  reason?: ReasonState;
  /** Absolute folders declared for `rag` (AgentSpec.ragSources); absent = none. */
  ragSources?: readonly string[];
  /** Where grep/fd/diff scanning runs (the process's shared pool); absent = in this thread. */
  scan?: ScanRunner;
  /** The helper model (Jev) of this turn, for the judge tool; absent = no Jev in this run. */
  helper?: import('../jev/helperPort.js').HelperPort;
}

/** What decides whether and how a tool is shown to one agent. */
export interface ToolPresentation {
  agentId: string;
  workDir: string | null;
  enabledTools: string[] | null;
  language: Language;
  workspaceDir: string;
  /** Absolute folders declared for `rag`; `rag` is shown only when one of them exists. */
  ragSources?: readonly string[];
}

export interface AgentTool {
  readonly name: string;
  /** Built-ins ask the model for a one-line `reason`; MCP tools do not. */
  readonly wantsReason: boolean;
  /** The spec for this agent, or null to hide the tool. `reason` is injected by the registry, not here. */
  specFor(presentation: ToolPresentation): ToolSpec | null;
  /**
   * Runs the tool. Failures the model can act on are returned as text (a tool never ends the turn);
   * a refusal may say so with `{ body, ok: false }`; a throw is turned into a "tool execution failed" text.
   */
  call(args: Record<string, unknown>, ctx: ToolContext): Promise<string | ToolReply>;
}

/** A tool's answer with its success flag: a plain string means ok; a refusal is `{ body, ok: false }`. */
export interface ToolReply {
  body: string;
  ok: boolean;
}

export type { JsonSchema, ToolSpec };

/** What one tool call came to, as the turn engine records it. */
export interface ToolOutcome {
  /** The text returned to the model (a failure is text too). */
  body: string;
  /** False when the tool failed (threw, refused, or reported an error). */
  ok: boolean;
  reason: import('../events.js').ReasonState;
}

/**
 * The agent's presented tools (built-ins + MCP proxies), as the turn engine sees them.
 * Implemented by the tool registry; synthetic delegation tools (`ask_*`, `plan`, `transfer_to_*`) are not here.
 */
export interface ToolBox {
  /** Name-sorted specs for this agent, `reason` already injected where wanted. */
  specs(): ToolSpec[];
  has(name: string): boolean;
  execute(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
}
