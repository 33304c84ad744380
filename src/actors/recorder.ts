/**
 * The persistence hook of the supervisor. Everything durable is written on the main thread (one LMDB
 * writer); the sessions layer plugs its store in here. The default does nothing, so a village without a
 * session store still runs.
 */
import type { AgentMessage } from '../core/events.js';
import type { CallRecord, TurnRecord } from '../core/sessions/records.js';
import type { ToolOriginal } from '../core/jev/helperPort.js';
import type { Exchange } from '../core/turn/ports.js';

/** Receives every record the runtime produces, in order. Implementations must not throw for I/O trouble. */
export interface SupervisorRecorder {
  appendMessage(message: AgentMessage): void;
  appendExchange(agentId: string, exchange: Exchange): void;
  appendTurn(record: TurnRecord): void;
  /** One LLM call's usage record (every call: turns, wrap-ups, summaries). */
  appendCall(record: CallRecord): void;
  /** The original of a tool result the agent saw compressed (optional: recorders that keep no bodies skip it). */
  appendToolOriginal?(agentId: string, original: ToolOriginal): void;
}

/** Records nothing. */
export const nullRecorder: SupervisorRecorder = {
  appendMessage() {},
  appendExchange() {},
  appendTurn() {},
  appendCall() {},
};

/** Keeps every record in memory (tests, and the `ask` path before a store exists). */
export class MemoryRecorder implements SupervisorRecorder {
  readonly messages: AgentMessage[] = [];
  readonly exchanges: Array<{ agentId: string } & Exchange> = [];
  readonly turns: TurnRecord[] = [];
  readonly calls: CallRecord[] = [];
  readonly toolOriginals: Array<{ agentId: string } & ToolOriginal> = [];
  appendMessage(message: AgentMessage): void {
    this.messages.push(message);
  }
  appendExchange(agentId: string, exchange: Exchange): void {
    this.exchanges.push({ agentId, ...exchange });
  }
  appendTurn(record: TurnRecord): void {
    this.turns.push(record);
  }
  appendCall(record: CallRecord): void {
    this.calls.push(record);
  }
  appendToolOriginal(agentId: string, original: ToolOriginal): void {
    this.toolOriginals.push({ agentId, ...original });
  }
}
