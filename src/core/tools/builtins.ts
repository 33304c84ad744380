/**
 * The built-in tool set and the one-call way to build an agent's ToolBox from it (plus MCP proxies).
 */
import type { AgentTool, ToolPresentation } from './contract.js';
import { blackboardTool } from './blackboard.js';
import { diffTool } from './diff.js';
import { fdTool } from './fd.js';
import { fileTool } from './file.js';
import { grepTool } from './grep.js';
import { judgeTool } from './judge.js';
import { ToolRegistry } from './registry.js';
import { rememberTool } from './remember.js';
import { ragTool } from './rag.js';
import { runTool } from './run.js';
import { sdTool } from './sd.js';
import { yqTool } from './yq.js';

/** Every built-in tool, in name order (one list per worker; the tools hold no state). */
export const BUILTIN_TOOLS: readonly AgentTool[] = [blackboardTool, diffTool, fdTool, fileTool, grepTool, judgeTool, ragTool, rememberTool, runTool, sdTool, yqTool];

/** The ToolBox for one agent: the built-ins plus `extra` tools (MCP proxies named `{server}__{tool}`). */
export function createToolBox(presentation: ToolPresentation, extra: readonly AgentTool[] = []): ToolRegistry {
  return new ToolRegistry([...BUILTIN_TOOLS, ...extra], presentation);
}
