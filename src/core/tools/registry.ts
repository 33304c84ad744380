/**
 * The tool registry: one agent's presented tools (built-ins and MCP proxies) behind the ToolBox seam the
 * turn engine uses. It decides what is shown, injects `reason` into built-in specs, turns throws into text
 * and writes the `tool:` diag note (counts only). Emitting `toolInvoked` is the turn engine's job.
 */
import type { ReasonState } from '../events.js';
import type { AgentTool, ToolBox, ToolContext, ToolOutcome, ToolPresentation, ToolSpec } from './contract.js';
import { readReason, withReasonParam } from './toolReason.js';
import { pick } from './toolText.js';

/** Every tool `enabledTools` can name (`rag` is outside: it shows whenever a declared folder exists). */
export const BUNDLED_TOOL_NAMES = ['blackboard', 'diff', 'fd', 'file', 'grep', 'remember', 'run', 'sd', 'yq'] as const;
/** Shown when an agent's `enabledTools` is null: the bundled set without `run`. */
export const DEFAULT_ENABLED_TOOLS = ['blackboard', 'diff', 'fd', 'file', 'grep', 'remember', 'sd', 'yq'] as const;
/** Tools that need a work folder; hidden while the agent has none. */
export const WORK_DIR_TOOL_NAMES = ['blackboard', 'diff', 'fd', 'file', 'grep', 'sd', 'yq'] as const;

/**
 * Names an `enabledTools` list may hold without a warning: the bundled tools, plus the built-ins that decide
 * for themselves (`rag` by its declared folders, `judge` by judge.json), which a list may name harmlessly.
 */
export const KNOWN_TOOL_NAMES: readonly string[] = [...BUNDLED_TOOL_NAMES, 'judge', 'rag'].sort();

/** The names of `enabledTools` this build does not know (never silently dropped: preflight and the GUI say so). */
export function unknownEnabledTools(enabledTools: readonly string[] | null): string[] {
  if (enabledTools === null) return [];
  return [...new Set(enabledTools.filter((name) => !KNOWN_TOOL_NAMES.includes(name)))];
}

const BUNDLED: ReadonlySet<string> = new Set(BUNDLED_TOOL_NAMES);
const WORK_DIR: ReadonlySet<string> = new Set(WORK_DIR_TOOL_NAMES);

/**
 * Whether a tool named `name` may be shown to this agent, before its own `specFor` has a say.
 * Non-bundled (MCP) tools are always shown; work-dir tools need a work folder; then `enabledTools` decides.
 */
export function isPresented(name: string, presentation: Pick<ToolPresentation, 'workDir' | 'enabledTools'>): boolean {
  if (!BUNDLED.has(name)) return true;
  if (WORK_DIR.has(name) && presentation.workDir === null) return false;
  const enabled: readonly string[] = presentation.enabledTools ?? DEFAULT_ENABLED_TOOLS;
  return enabled.includes(name);
}

/** The ToolBox for one agent presentation. Specs are computed on each call (run.json is re-read each time). */
export class ToolRegistry implements ToolBox {
  private readonly byName: Map<string, AgentTool>;

  constructor(
    tools: readonly AgentTool[],
    private readonly presentation: ToolPresentation,
  ) {
    this.byName = new Map();
    for (const tool of tools) {
      // A later tool with the same name replaces an earlier one, so an MCP proxy can never shadow silently
      // twice; the MCP layer names its tools `{server}__{tool}`, which no built-in uses.
      this.byName.set(tool.name, tool);
    }
  }

  /** Name-sorted specs of the tools this agent sees, `reason` injected into built-ins. */
  specs(): ToolSpec[] {
    const out: ToolSpec[] = [];
    for (const name of [...this.byName.keys()].sort()) {
      const spec = this.specOf(name);
      if (spec !== null) out.push(spec);
    }
    return out;
  }

  /** True when `name` is currently presented to this agent. */
  has(name: string): boolean {
    return this.specOf(name) !== null;
  }

  /** Runs a presented tool; never throws. Unknown or hidden names come back as an ok=false text. */
  async execute(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome> {
    const tool = this.byName.get(name);
    if (tool === undefined || !this.has(name)) {
      const body = pick(
        ctx.language,
        `ツール \`${name}\` はありません。一覧にあるツールだけを使ってください。`,
        `There is no tool named \`${name}\`. Use only the tools listed for you.`,
      );
      // Not a presented tool: nothing was asked of it, so its reason is the default `excluded`.
      ctx.diag.note('tool unknown', { agent: ctx.agentId, round: ctx.round, name });
      return { body, ok: false, reason: { kind: 'excluded' } };
    }

    const argsChars = safeJsonLength(args);
    let reason: ReasonState = { kind: 'unsupported' };
    let reasonChars = 0;
    let callArgs = args;
    if (tool.wantsReason) {
      const read = readReason(args['reason']);
      reason = read.state;
      reasonChars = read.chars;
      // The tool never sees `reason`: it is the registry's argument, not the tool's.
      const { reason: _dropped, ...rest } = args;
      callArgs = rest;
    }

    let body: string;
    let ok: boolean;
    try {
      const reply = await tool.call(callArgs, tool.wantsReason ? { ...ctx, reason } : ctx);
      if (typeof reply === 'string') {
        body = reply;
        ok = true;
      } else {
        body = reply.body;
        ok = reply.ok;
      }
    } catch (error) {
      body = `tool execution failed: ${error instanceof Error ? error.message : String(error)}`;
      ok = false;
    }
    this.note(ctx, name, ok, argsChars, body.length, reason, reasonChars);
    return { body, ok, reason };
  }

  private specOf(name: string): ToolSpec | null {
    const tool = this.byName.get(name);
    if (tool === undefined || !isPresented(name, this.presentation)) return null;
    const spec = tool.specFor(this.presentation);
    if (spec === null) return null;
    if (!tool.wantsReason) return spec;
    return { ...spec, parameters: withReasonParam(spec.parameters, this.presentation.language) };
  }

  private note(
    ctx: ToolContext,
    name: string,
    ok: boolean,
    argsChars: number,
    bodyChars: number,
    reason: ReasonState,
    reasonChars: number,
  ): void {
    ctx.diag.note('tool', {
      agent: ctx.agentId,
      round: ctx.round,
      name,
      ok,
      args_chars: argsChars,
      body_chars: bodyChars,
      reason: reason.kind,
      reason_chars: reasonChars,
    });
  }
}

/** Length of the JSON text of `args`, 0 when it cannot be serialized (cycles never come from a model). */
function safeJsonLength(args: Record<string, unknown>): number {
  try {
    return JSON.stringify(args).length;
  } catch {
    return 0;
  }
}
