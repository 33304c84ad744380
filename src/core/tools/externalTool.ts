/**
 * A tool that runs somewhere else (an MCP server connected on the main thread), presented to the agent
 * like any other tool. The worker only holds its spec and a caller; MCP clients, zod and the SDK never load in a
 * worker (ARCHITECTURE "Threads").
 */
import type { AgentTool, ToolContext, ToolReply, ToolSpec } from './contract.js';

/** Sends one call to wherever the tool lives; must honour `signal` (interrupt) and never throw for tool failures. */
export type ExternalToolCaller = (name: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolReply>;

/** Wraps a remote tool spec as an AgentTool. No `reason` is asked of the model for these (wantsReason false). */
export function externalTool(spec: ToolSpec, call: ExternalToolCaller): AgentTool {
  return {
    name: spec.name,
    wantsReason: false,
    specFor: () => spec,
    call: (args: Record<string, unknown>, ctx: ToolContext) => call(spec.name, args, ctx.signal),
  };
}
