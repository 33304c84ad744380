/**
 * The seam between the supervisor and the MCP client manager: the supervisor's `ExternalToolPort` (opened per
 * agent on start, called from worker tool calls, closed on stop) implemented over `McpClientManager`.
 * Kept apart from the manager so the actors layer never learns about MCP and the manager never about workers.
 */
import { toWire } from '../core/errors.js';
import type { ToolSpec } from '../core/llm/canonical.js';
import type { ToolReply } from '../core/tools/contract.js';
import type { ExternalToolPort } from '../actors/supervisor.js';
import type { McpClientManager } from './mcp/mcpClientManager.js';

/** The manager's surface the port uses (a structural subset, so tests may pass a small fake of the manager). */
export type McpToolSource = Pick<McpClientManager, 'openAgent' | 'closeAgent' | 'toolSpecsFor' | 'callTool'>;

/**
 * `ExternalToolPort` over the manager. `openAgent` never rejects: a per-agent mcp.json that is broken or a
 * server that does not connect is already a WARN note of the manager, and the agent starts without those tools.
 * `call` never rejects either: a transport failure (MCP_FAILED, a dead child) becomes `{ body, ok: false }`,
 * so the model reads the failure as a tool result instead of the turn failing.
 */
export function mcpToolPort(source: McpToolSource): ExternalToolPort {
  return {
    async openAgent(agentId: string): Promise<void> {
      try {
        await source.openAgent(agentId);
      } catch {
        // The manager reports its own failures; a start must never be blocked by MCP.
      }
    },
    closeAgent: (agentId: string): Promise<void> => source.closeAgent(agentId),
    specsFor: (agentId: string): ToolSpec[] => source.toolSpecsFor(agentId),
    async call(agentId: string, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolReply> {
      try {
        return await source.callTool(agentId, name, args, signal);
      } catch (error) {
        return { body: toWire(error).message, ok: false };
      }
    },
  };
}
