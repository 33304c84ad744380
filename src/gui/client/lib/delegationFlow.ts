/**
 * Which ties carry a delegation right now, derived from the CoreEvent stream alone (no extra event): an agent's
 * message to another agent sent *during its turn* is an `ask_*` or a `plan` task (a hand-off is recorded after the
 * turn ended, and answers nobody); it stays in flight until the answer comes back (a message the other way), the
 * plan task resolves, the asking tool call returns (answered, timed out, refused), or the asker's turn ends.
 */
import type { CoreEvent } from './types.js';

/** In-flight delegations: `from>to` keys, and which agent runs each open plan. */
export interface DelegationFlow {
  ties: Record<string, true>;
  plans: Record<number, string>;
}

/** No delegation in flight. */
export function emptyFlow(): DelegationFlow {
  return { ties: {}, plans: {} };
}

/** The key of a directed tie. */
export function flowKey(from: string, to: string): string {
  return `${from}>${to}`;
}

function clearFrom(flow: DelegationFlow, agentId: string): void {
  for (const key of Object.keys(flow.ties)) if (key.startsWith(`${agentId}>`)) delete flow.ties[key];
}

/**
 * Applies one event. `typing` is the view's typing map *before* this event (who is inside a turn).
 */
export function trackDelegation(flow: DelegationFlow, typing: Readonly<Record<string, boolean>>, event: CoreEvent): void {
  switch (event.type) {
    case 'messageSent': {
      const { from, to } = event.message;
      if (from.kind !== 'agent' || to.kind !== 'agent') return;
      // Inside the sender's turn: a new ask or plan task. After it (the turn's reply): the answer of the ask
      // that came the other way, so that tie is free again. A cycle (B asks A back while answering A) keeps both.
      if (typing[from.id] === true) flow.ties[flowKey(from.id, to.id)] = true;
      else delete flow.ties[flowKey(to.id, from.id)];
      return;
    }
    case 'planWaveStarted':
      flow.plans[event.planId] = event.agentId;
      return;
    case 'planTaskResolved': {
      const owner = flow.plans[event.planId];
      if (owner !== undefined) delete flow.ties[flowKey(owner, event.to)];
      return;
    }
    case 'planWaveFinished':
      delete flow.plans[event.planId];
      return;
    case 'toolInvoked':
      if (event.tool === 'plan' || event.tool.startsWith('ask_')) clearFrom(flow, event.agentId);
      return;
    case 'agentTyping':
      if (!event.active) clearFrom(flow, event.agentId);
      return;
    case 'agentStatusChanged':
      if (event.status !== 'running') clearFrom(flow, event.agentId);
      return;
    case 'conversationCleared':
      flow.ties = {};
      flow.plans = {};
      return;
    default:
      return;
  }
}
