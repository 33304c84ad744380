/**
 * The synthetic delegation tools (`transfer_to_*`, `ask_*`, `plan`), the gates that decide which are offered,
 * and `decide`: whether a model response finishes the turn or hands the conversation on (core.md §2.6).
 */
import type { ChatResponse, ToolSpec } from '../llm/canonical.js';
import type { Language } from '../world/types.js';
import type { RosterEntry, TurnOutcome } from './ports.js';
import { MAX_LISTED_TIES } from './promptCaps.js';
import { askDescription, messageArgDescription, planDescription, transferDescription } from './wording.js';

/** Marker that ends a reply on the no-tool-support path. */
export const TERMINATION_MARKER = '[[END]]';
/** Provider limit on tool-name length. */
const MAX_TOOL_NAME = 64;
const SAFE_NAME = /^[A-Za-z0-9_-]+$/;

/** Which delegation tools a turn offers. */
export interface DelegationGates {
  /** template.useTools && at least one connection. */
  useHandoffTools: boolean;
  /** useHandoffTools && allowHandoff && nobody waits for the answer (a delegated turn never transfers). */
  offerTransfer: boolean;
}

/** Pure gate rule. */
export function delegationGates(
  templateUseTools: boolean,
  connectionCount: number,
  allowHandoff: boolean,
  awaitingReply: boolean,
): DelegationGates {
  const useHandoffTools = templateUseTools && connectionCount > 0;
  return { useHandoffTools, offerTransfer: useHandoffTools && allowHandoff && !awaitingReply };
}

/**
 * Tool names per connection, in connection order: `{prefix}{id}` when that is at most 64 chars, a safe
 * tool name and unique (also against `taken`), else `{prefix}agent_{index}` (0-based position).
 */
export function delegationNames(prefix: string, ids: string[], taken: ReadonlySet<string> = new Set()): string[] {
  const direct = ids.map((id) => `${prefix}${id}`);
  const counts = new Map<string, number>();
  for (const name of direct) counts.set(name, (counts.get(name) ?? 0) + 1);
  return direct.map((name, index) => {
    const id = ids[index] ?? '';
    const ok = name.length <= MAX_TOOL_NAME && SAFE_NAME.test(id) && counts.get(name) === 1 && !taken.has(name);
    return ok ? name : `${prefix}agent_${index}`;
  });
}

/** The delegation tools of one turn: specs in offer order plus name → target lookups. */
export interface DelegationTools {
  /** transfer_to_* (if offered), ask_* (if handoff tools), plan (if ≥2 connections and handoff tools). */
  specs: ToolSpec[];
  transferTargets: Map<string, string>;
  askTargets: Map<string, string>;
  planOffered: boolean;
}

const messageSchema = (language: Language): Record<string, unknown> => ({
  type: 'object',
  properties: { message: { type: 'string', description: messageArgDescription(language) } },
  required: ['message'],
  additionalProperties: false,
});

/** The `plan` tool spec: tasks[{to ∈ connection ids, message}]. */
export function planSpec(roster: RosterEntry[], language: Language): ToolSpec {
  return {
    name: 'plan',
    description: planDescription(
      language,
      roster.map((r) => `${r.id} = ${r.name}`),
    ),
    parameters: {
      type: 'object',
      properties: {
        tasks: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              to: { type: 'string', enum: roster.map((r) => r.id) },
              message: { type: 'string', description: messageArgDescription(language) },
            },
            required: ['to', 'message'],
            additionalProperties: false,
          },
        },
      },
      required: ['tasks'],
      additionalProperties: false,
    },
  };
}

/** Builds the delegation tools for this turn's gates; `taken` = names of the agent's other tools. */
export function buildDelegationTools(
  roster: RosterEntry[],
  gates: DelegationGates,
  language: Language,
  taken: ReadonlySet<string> = new Set(),
): DelegationTools {
  const ids = roster.map((r) => r.id);
  const specs: ToolSpec[] = [];
  const transferTargets = new Map<string, string>();
  const askTargets = new Map<string, string>();
  if (gates.offerTransfer) {
    delegationNames('transfer_to_', ids, taken).forEach((name, i) => {
      const entry = roster[i]!;
      transferTargets.set(name, entry.id);
      specs.push({ name, description: transferDescription(language, entry.name), parameters: messageSchema(language) });
    });
  }
  if (gates.useHandoffTools) {
    delegationNames('ask_', ids, taken).forEach((name, i) => {
      const entry = roster[i]!;
      askTargets.set(name, entry.id);
      specs.push({ name, description: askDescription(language, entry.name), parameters: messageSchema(language) });
    });
  }
  const planOffered = gates.useHandoffTools && roster.length >= 2;
  // The plan tool names its recipients in its description and enum: past MAX_LISTED_TIES ties (a reception
  // tied to 9,999 agents) only the first are listed, or one tool spec alone would carry a 300 kB roster.
  if (planOffered) specs.push(planSpec(roster.slice(0, MAX_LISTED_TIES), language));
  return { specs, transferTargets, askTargets, planOffered };
}

/** What `decide` needs to know about the turn. */
export interface DecideContext {
  /** The turn sends tools at all (`useTools`). */
  useTools: boolean;
  offerTransfer: boolean;
  /** Connection ids in order (the no-tools path hands off to the first). */
  connectionIds: string[];
  transferTargets: ReadonlyMap<string, string>;
}

function stringArg(args: unknown, key: string): string | null {
  if (typeof args !== 'object' || args === null) return null;
  const value = (args as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : null;
}

/** Finish or hand off, from one model response (pure). */
export function decide(response: ChatResponse, ctx: DecideContext): TurnOutcome {
  const text = response.text ?? '';
  if (!ctx.useTools) {
    if (ctx.connectionIds.length === 0) return { kind: 'finish', text };
    if (text.includes(TERMINATION_MARKER)) {
      return { kind: 'finish', text: text.split(TERMINATION_MARKER).join('').trim() };
    }
    // A blank reply is not worth passing on; it finishes (and becomes the empty fallback).
    if (text.trim() === '') return { kind: 'finish', text };
    return { kind: 'handoff', targets: [ctx.connectionIds[0]!], message: text };
  }
  if (!ctx.offerTransfer) return { kind: 'finish', text };
  const targets: string[] = [];
  let message: string | null = null;
  for (const call of response.toolCalls) {
    const target = ctx.transferTargets.get(call.name);
    if (target === undefined || targets.includes(target)) continue;
    targets.push(target);
    message ??= stringArg(call.args, 'message');
  }
  if (targets.length === 0) return { kind: 'finish', text };
  return { kind: 'handoff', targets, message: message ?? text };
}

/** What history stores as the reply: the text, or `[→ id] message` lines for several targets. */
export function spokenText(outcome: TurnOutcome): string {
  if (outcome.kind === 'finish') return outcome.text;
  if (outcome.targets.length === 1) return outcome.message;
  return outcome.targets.map((to) => `[→ ${to}] ${outcome.message}`).join('\n');
}
