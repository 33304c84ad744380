/**
 * An in-process driver for the turn engine: a small world of agents, each with its own LLM backend and
 * tool box, and a `TurnPorts.deliverAndWait` that runs the target agent's turn right here (recursively,
 * serial per agent), so delegation chains are testable without threads. Handoffs are recorded, not delivered.
 */
import { BudgetPool } from '../../src/core/budget/budgetPool.js';
import { MemoryDiagSink } from '../../src/core/diag.js';
import type { CoreEvent, Endpoint } from '../../src/core/events.js';
import type { LlmBackend, PromptAttachment, StreamDelta, ToolSpec } from '../../src/core/llm/canonical.js';
import type { ToolBox, ToolContext, ToolOutcome } from '../../src/core/tools/contract.js';
import type {
  DeliveryRequest,
  DeliveryResult,
  Exchange,
  IncomingEnvelope,
  PromptMaterial,
  RosterEntry,
  TurnPorts,
  TurnResult,
} from '../../src/core/turn/ports.js';
import type { CallRecord } from '../../src/core/sessions/records.js';
import { runTurn } from '../../src/core/turn/turnEngine.js';
import type { AgentSpec, Language, ModelTemplate } from '../../src/core/world/types.js';

/** A tool for `simpleToolBox`: returns the body (and ok=true), or throws. */
export type SimpleTool = (args: Record<string, unknown>, ctx: ToolContext) => string | Promise<string>;

/** A ToolBox over plain functions (name-sorted specs, no reason injection). */
export function simpleToolBox(tools: Record<string, SimpleTool> = {}): ToolBox & { calls: string[] } {
  const calls: string[] = [];
  const names = Object.keys(tools).sort();
  return {
    calls,
    specs: (): ToolSpec[] =>
      names.map((name) => ({ name, description: `test tool ${name}`, parameters: { type: 'object', properties: {} } })),
    has: (name) => name in tools,
    async execute(name, args, ctx): Promise<ToolOutcome> {
      calls.push(name);
      const body = await tools[name]!(args, ctx);
      return { body, ok: true, reason: { kind: 'omitted' } };
    },
  };
}

/** Default agent spec fields for tests. */
export function agentSpec(id: string, patch: Partial<AgentSpec> = {}): AgentSpec {
  return {
    id,
    name: `${id}-name`,
    modelTemplateId: 'tpl',
    ragSources: [],
    connectedAgents: [],
    order: 0,
    workDir: null,
    maxToolIterations: null,
    enabledTools: null,
    hearsRoomLog: false,
    allowHandoff: true,
    batchStart: false,
    roleId: null,
    groupId: null,
    hidden: false,
    planReview: false,
    ...patch,
  };
}

/** Default model template for tests. */
export function modelTemplate(patch: Partial<ModelTemplate> = {}): ModelTemplate {
  return {
    id: 'tpl',
    name: 'Test model',
    baseUrl: 'http://127.0.0.1:1/v1',
    model: 'test-model',
    contextLength: 32_000,
    temperature: null,
    maxOutputTokens: 512,
    credential: 'not_required',
    provider: null,
    useTools: true,
    effort: null,
    requestTimeoutSecs: 30,
    maxRetries: 1,
    inputPerMtok: null,
    outputPerMtok: null,
    cacheReadPerMtok: null,
    cacheWrite1hPerMtok: null,
    cacheWritePerMtok: null,
    pricingAsOf: null, googleSearch: false, xaiWebSearch: false, xaiXSearch: false, openaiWebSearch: false, openaiReasoningPro: false, metaWebSearch: false, stream: true,
  };
}

/** One agent of the harness world. */
export interface HarnessAgent {
  spec: AgentSpec;
  backend: LlmBackend;
  tools?: ToolBox;
  template?: ModelTemplate;
  material?: Partial<PromptMaterial>;
}

/** World-level settings. */
export interface HarnessOptions {
  language?: Language;
  maxHops?: number;
  /** Effective tokens per causal root; null/absent = no ceiling. */
  tokenBudget?: number | null;
  /** A fixed clock (ms) so elapsed fields are deterministic. */
  now?: () => number;
}

/** What a root send accepts. */
export interface SendOptions {
  from?: Endpoint;
  fromLabel?: string;
  awaitingReply?: boolean;
  signal?: AbortSignal;
  /** Reuse a pool (e.g. one already drained); default a fresh pool per root when a budget is set. */
  budget?: BudgetPool | null;
  coRecipients?: string[];
  /** Files riding on this message. */
  attachments?: PromptAttachment[];
}

/** The driver. */
export class TurnHarness {
  readonly events: CoreEvent[] = [];
  readonly notices: string[] = [];
  readonly diag = new MemoryDiagSink();
  readonly histories = new Map<string, Exchange[]>();
  /** Every finished turn, in completion order. */
  readonly turns: Array<{ agentId: string; result: TurnResult }> = [];
  readonly deliveries: DeliveryRequest[] = [];
  /** Every LLM call the engine reported, in order. */
  readonly calls: CallRecord[] = [];
  /** Every streamed piece the engine passed on, with its agent and round. */
  readonly deltas: Array<{ agentId: string; round: number; delta: StreamDelta }> = [];
  private readonly agents = new Map<string, HarnessAgent>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly lastCall = new Map<string, number>();
  private turnSeq = 0;
  private planId = 0;

  constructor(
    agents: HarnessAgent[],
    private readonly options: HarnessOptions = {},
  ) {
    for (const a of agents) this.agents.set(a.spec.id, a);
  }

  /** A causal root: a message from the user (by default) to `agentId`. */
  send(agentId: string, content: string, opts: SendOptions = {}): Promise<TurnResult> {
    const budget =
      opts.budget !== undefined
        ? opts.budget
        : this.options.tokenBudget
          ? BudgetPool.forTokens(this.options.tokenBudget)
          : null;
    return this.turn(agentId, {
      from: opts.from ?? { kind: 'user' },
      fromLabel: opts.fromLabel ?? 'User',
      content,
      hop: 0,
      awaitingReply: opts.awaitingReply ?? false,
      coRecipients: opts.coRecipients,
      ...(opts.attachments === undefined ? {} : { attachments: opts.attachments }),
      signal: opts.signal ?? new AbortController().signal,
      budget,
    });
  }

  private roster(spec: AgentSpec): RosterEntry[] {
    return spec.connectedAgents.map((id) => {
      const other = this.agents.get(id);
      return other
        ? { id, name: other.spec.name, roleName: null, status: 'running' as const }
        : { id, name: id, roleName: null, status: 'idle' as const };
    });
  }

  private turn(
    agentId: string,
    env: IncomingEnvelope & { signal: AbortSignal; budget: BudgetPool | null },
  ): Promise<TurnResult> {
    const agent = this.agents.get(agentId);
    if (!agent) throw new Error(`harness: no agent ${agentId}`);
    const previous = this.queues.get(agentId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(async () => {
      const history = this.histories.get(agentId) ?? [];
      const ports: TurnPorts = {
        deliverAndWait: (req, signal) => this.deliverAndWait(agentId, req, signal, env.budget),
        notice: (text) => this.notices.push(text),
        emit: (event) => this.events.push(event),
        diag: this.diag,
        reportCall: (call) => this.calls.push(call),
        streamDelta: (round, delta) => this.deltas.push({ agentId, round, delta }),
      };
      const result = await runTurn(
        {
          agent: agent.spec,
          template: agent.template ?? modelTemplate(),
          language: this.options.language ?? 'en',
          roster: this.roster(agent.spec),
          maxHops: this.options.maxHops ?? 8,
          material: { ordinance: '', construct: '', skill: '', memory: '', ...agent.material },
          history,
          summary: null,
          envelope: {
            from: env.from,
            fromLabel: env.fromLabel,
            content: env.content,
            hop: env.hop,
            awaitingReply: env.awaitingReply,
            ...(env.coRecipients ? { coRecipients: env.coRecipients } : {}),
            ...(env.attachments ? { attachments: env.attachments } : {}),
          },
          turnSeq: ++this.turnSeq,
          lastCallMilli: this.lastCall.get(agentId) ?? 0,
          workspaceDir: '/nonexistent/workspace',
          runApproval: 'required',
        },
        {
          backend: agent.backend,
          tools: agent.tools ?? simpleToolBox(),
          ports,
          budget: env.budget,
          signal: env.signal,
          now: this.options.now ?? (() => 0),
          allocatePlanId: () => ++this.planId,
        },
      );
      this.lastCall.set(agentId, result.lastCallMilli);
      this.histories.set(agentId, [...history, result.exchange]);
      this.turns.push({ agentId, result });
      return result;
    });
    this.queues.set(agentId, next);
    return next;
  }

  private async deliverAndWait(
    from: string,
    req: DeliveryRequest,
    signal: AbortSignal,
    budget: BudgetPool | null,
  ): Promise<DeliveryResult> {
    this.deliveries.push(req);
    if (budget !== null && !budget.hasRemaining()) return { text: 'not delivered: budget used up', state: 'budget_exhausted' };
    if (!this.agents.has(req.to)) return { text: `could not ask ${req.to}: not running`, state: 'undeliverable' };
    try {
      const result = await this.turn(req.to, {
        from: { kind: 'agent', id: from },
        fromLabel: this.agents.get(from)?.spec.name ?? from,
        content: req.message,
        hop: req.hop,
        awaitingReply: true,
        signal,
        budget,
      });
      return { text: result.replyText, state: result.replyState };
    } catch {
      return { text: `${req.to} finished without an answer`, state: 'no_answer' };
    }
  }

  /** Diag note kinds in order (for order assertions). */
  noteKinds(): string[] {
    return this.diag.notes.map((n) => n.kind);
  }

  /** Events of one type. */
  eventsOf<T extends CoreEvent['type']>(type: T): Array<Extract<CoreEvent, { type: T }>> {
    return this.events.filter((e): e is Extract<CoreEvent, { type: T }> => e.type === type);
  }
}
