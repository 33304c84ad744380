/**
 * What one causal chain cost and who took part: the root envelope (a user message, a schedule firing, an external
 * ask) and every ask/plan envelope below it. Handoffs start a new chain, as they start a new root. Only chains
 * somebody asked about are tracked (`open`), so an idle village keeps nothing here.
 */
import type { CallRecord } from '../core/sessions/records.js';

/** A finished (or taken) chain: its agents in first-call order and every call its turns made. */
export interface ChainSpend {
  participants: string[];
  calls: CallRecord[];
}

interface Chain {
  participants: Set<string>;
  calls: CallRecord[];
  onEnd: ((spend: ChainSpend) => void) | null;
}

/** Chains by root envelope id. */
export class ChainLedger {
  private readonly chains = new Map<string, Chain>();

  /**
   * Starts tracking the chain of `rootId`, whose root is handled by `rootAgent`. With `onEnd`, the chain is reported
   * once when its root envelope finishes and then forgotten; without it, the caller `take`s it.
   */
  open(rootId: string, rootAgent: string, onEnd?: (spend: ChainSpend) => void): void {
    this.chains.set(rootId, { participants: new Set([rootAgent]), calls: [], onEnd: onEnd ?? null });
  }

  /** Adds a call made by a turn of the chain `rootId` (untracked chains and summary calls are ignored). */
  add(rootId: string | undefined, call: CallRecord): void {
    if (rootId === undefined || call.purpose === 'summarize') return;
    const chain = this.chains.get(rootId);
    if (chain === undefined) return;
    chain.participants.add(call.agentId);
    chain.calls.push(call);
  }

  /** The root envelope of `rootId` finished (answered, failed, folded, dropped): report a chain that has a listener. */
  end(rootId: string): void {
    const chain = this.chains.get(rootId);
    if (chain?.onEnd == null) return;
    this.chains.delete(rootId);
    chain.onEnd(snapshot(chain));
  }

  /** Returns what the chain cost so far and stops tracking it (null when it is not tracked). */
  take(rootId: string): ChainSpend | null {
    const chain = this.chains.get(rootId);
    if (chain === undefined) return null;
    this.chains.delete(rootId);
    return snapshot(chain);
  }

  /** Chains tracked now (leak checks). */
  get size(): number {
    return this.chains.size;
  }
}

function snapshot(chain: Chain): ChainSpend {
  return { participants: [...chain.participants], calls: [...chain.calls] };
}
