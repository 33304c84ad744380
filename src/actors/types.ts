/**
 * Main-thread shapes of the actor layer (types only): an envelope in a mailbox (one agent's state is its
 * AgentRuntime, agentRuntime.ts).
 */
import type { BudgetPool } from '../core/budget/budgetPool.js';
import type { Endpoint } from '../core/events.js';
import type { PromptAttachment } from '../core/llm/canonical.js';

/** One delivered message waiting for (or being handled by) an agent. */
export interface Envelope {
  /** Causal/cancel id (uuid). */
  id: string;
  /** The asking turn's envelope for ask/plan deliveries; null for causal roots and handoffs. */
  parentId: string | null;
  from: Endpoint;
  to: string;
  content: string;
  hop: number;
  /** Someone waits for the answer (ask, plan task, external ask). */
  awaitingReply: boolean;
  coRecipients?: string[];
  /** Files of a person's message (base64 bodies): they reach only the agent this envelope is for. */
  attachments?: PromptAttachment[];
  /** The causal root's pool, shared by every envelope of that root; null = no ceiling. */
  pool: BudgetPool | null;
  /** The root envelope of this causal chain (its own id for a root; ask/plan children inherit it, handoffs do not). */
  rootId: string;
  /** An agent's `ask_*`/plan task: who waits, and its request id (the answer may go straight back, directReplies.ts). */
  askedBy?: { agentId: string; requestId: number };
}
