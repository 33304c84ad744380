/**
 * The client's projection of the village: the last server state plus what events add between reads (statuses,
 * typing, stats, messages, tool lines, failures). `applyEvent` is the pure reaction table of reference gui.md
 * §4.3; it says when a full re-read is needed instead of patching.
 */
import { adoptActivity, type LastTool, type LiveStats } from './cardStats.js';
import { emptyFlow, trackDelegation, type DelegationFlow } from './delegationFlow.js';
import type { AgentMessage, AgentStatus, CoreEvent, GuiState } from './types.js';

/** Messages kept (gui.md §4.1). */
export const MESSAGE_CAP = 500;

/** A thin line in the chat: a tool run or a notice. */
export interface ChatLine {
  id: string;
  kind: 'tool' | 'notice';
  agentId: string;
  text: string;
  ok: boolean;
  tsMs: number;
}

/** A reply as it streams in, per agent: the answer so far and the thinking so far (textDelta events). */
export interface Draft {
  turnSeq: number;
  round: number;
  text: string;
  thinking: string;
}

/** A toast. `info` ones vanish after a few seconds; warn/error stay until closed. */
export interface Toast {
  id: number;
  level: 'info' | 'warn' | 'error';
  text: string;
}

/** Everything the screens render. */
export interface View {
  server: GuiState | null;
  status: Record<string, AgentStatus>;
  typing: Record<string, boolean>;
  interruptPending: Record<string, boolean>;
  tokens: Record<string, number>;
  /** Each servant's last stats tick (uptime, prompt and cached tokens); absent until one arrives. */
  stats: Record<string, LiveStats>;
  /** Each servant's last tool call since the page loaded. */
  lastTool: Record<string, LastTool>;
  lastError: Record<string, string>;
  messages: AgentMessage[];
  lines: ChatLine[];
  /** Ties carrying a delegation right now (Kizuna highlights them). */
  flow: DelegationFlow;
  /** Streaming replies by agent id; gone when the reply is recorded or the turn ends. */
  drafts: Record<string, Draft>;
  /** Turn records committed since the page loaded (the stats view re-reads when it moves). */
  turnsRecorded: number;
  /** Status events applied since the page loaded; `statusAt[id]` is this count when agent id's last one came. */
  statusEvents: number;
  statusAt: Record<string, number>;
  /**
   * Per servant: the times of its messages that arrived in its current turn since its last tool line. A tool
   * that sends (or a tool event that travels slower than the reply) reaches the page after the message it
   * belongs before; the line is then placed just before the earliest of these (toolLineTime).
   */
  turnMessages: Record<string, number[]>;
}

/** When a tool line of `agentId` arriving at `nowMs` belongs: before the turn's messages that came in since its last line. */
export function toolLineTime(turnMessages: readonly number[] | undefined, nowMs: number): number {
  if (turnMessages === undefined || turnMessages.length === 0) return nowMs;
  return Math.min(nowMs, Math.min(...turnMessages) - 1);
}

/** An empty view (before boot). */
export function emptyView(): View {
  return { server: null, status: {}, typing: {}, interruptPending: {}, tokens: {}, stats: {}, lastTool: {}, lastError: {}, messages: [], lines: [], flow: emptyFlow(), drafts: {}, turnsRecorded: 0, statusEvents: 0, statusAt: {}, turnMessages: {} };
}

/**
 * Replaces the server part after a read or a mutation's answer; events since then stay applied. `sentAt` is
 * `view.statusEvents` when the request went out: an agent whose status event arrived after that keeps the event's
 * status, since the answer may have been read before that change (events and answers travel on different
 * connections; the event stream is ordered, so its last status is the newest).
 */
export function adoptState(view: View, state: GuiState, sentAt: number = Number.POSITIVE_INFINITY): void {
  view.server = state;
  const fresher = (id: string): boolean => (view.statusAt[id] ?? 0) > sentAt;
  view.status = Object.fromEntries(state.statuses.map((s) => [s.agentId, fresher(s.agentId) ? (view.status[s.agentId] ?? s.status) : s.status]));
  // Events seen after the host read its totals may be newer: the larger of the two wins (totals only grow per run).
  for (const [id, n] of Object.entries(state.tokens ?? {})) view.tokens[id] = Math.max(n, view.tokens[id] ?? 0);
  adoptActivity(view.stats, view.lastTool, state.activity ?? {});
  view.messages = mergeTail(state.messages, view.messages);
  for (const id of Object.keys(view.typing)) {
    if (view.status[id] !== 'running') delete view.typing[id];
  }
}

/**
 * The server's message tail plus messages that arrived as events after the server read it: a re-read that was
 * answered while a reply was being recorded must not drop that reply from the screen.
 */
export function mergeTail(server: readonly AgentMessage[], shown: readonly AgentMessage[]): AgentMessage[] {
  const ids = new Set(server.map((m) => m.id));
  const newest = server.at(-1)?.tsMs ?? Number.NEGATIVE_INFINITY;
  const later = shown.filter((m) => !ids.has(m.id) && m.tsMs >= newest);
  return [...server, ...later].slice(-MESSAGE_CAP);
}

/** What a caller does after an event besides the patch. */
export interface EventEffect {
  refresh: boolean;
  toast?: { level: Toast['level']; key: string; params: Record<string, string | number> };
}

let lineSeq = 0;

/** Adds a streamed piece to the agent's draft; a new turn or round (or a restart) starts the draft over. */
export function applyDelta(view: View, event: Extract<CoreEvent, { type: 'textDelta' }>): void {
  const current = view.drafts[event.agentId];
  const fresh = current === undefined || current.turnSeq !== event.turnSeq || current.round !== event.round || event.kind === 'restart';
  const draft = fresh ? { turnSeq: event.turnSeq, round: event.round, text: '', thinking: '' } : current;
  if (event.kind === 'text') draft.text += event.text;
  else if (event.kind === 'thinking') draft.thinking += event.text;
  view.drafts[event.agentId] = draft;
}

/** Applies one event to the view (gui.md §4.3). */
export function applyEvent(view: View, event: CoreEvent, nowMs: number): EventEffect {
  // Before the typing patch below: the tracker needs who was inside a turn when the event happened.
  trackDelegation(view.flow, view.typing, event);
  switch (event.type) {
    case 'agentStatusChanged':
      view.status[event.agentId] = event.status;
      view.statusAt[event.agentId] = view.statusEvents += 1;
      if (event.status !== 'running' && event.status !== 'starting') {
        delete view.typing[event.agentId];
        delete view.interruptPending[event.agentId];
      }
      return { refresh: false };
    case 'agentStatsUpdated':
      view.tokens[event.agentId] = event.totalTokens;
      view.stats[event.agentId] = { uptimeSecs: event.uptimeSecs, promptTokens: event.promptTokens, cachedTokens: event.cachedTokens };
      return { refresh: false };
    case 'textDelta':
      applyDelta(view, event);
      return { refresh: false };
    case 'messageSent':
      // The recorded reply replaces its draft.
      if (event.message.from.kind === 'agent') {
        delete view.drafts[event.message.from.id];
        (view.turnMessages[event.message.from.id] ??= []).push(event.message.tsMs);
      }
      if (!view.messages.some((m) => m.id === event.message.id)) {
        view.messages.push(event.message);
        if (view.messages.length > MESSAGE_CAP) view.messages.splice(0, view.messages.length - MESSAGE_CAP);
      }
      return { refresh: false };
    case 'agentTyping':
      if (event.active) {
        view.typing[event.agentId] = true;
        view.turnMessages[event.agentId] = [];
      }
      else {
        delete view.typing[event.agentId];
        delete view.interruptPending[event.agentId];
        delete view.drafts[event.agentId];
      }
      return { refresh: false };
    case 'turnInterrupted':
      delete view.interruptPending[event.agentId];
      return { refresh: false };
    case 'toolInvoked':
      view.lines.push({ id: `l${(lineSeq += 1)}`, kind: 'tool', agentId: event.agentId, text: event.tool, ok: event.ok, tsMs: toolLineTime(view.turnMessages[event.agentId], nowMs) });
      view.turnMessages[event.agentId] = [];
      view.lastTool[event.agentId] = { tool: event.tool, ok: event.ok, tsMs: nowMs };
      if (view.lines.length > MESSAGE_CAP) view.lines.splice(0, view.lines.length - MESSAGE_CAP);
      // A `run` may have queued a command request: re-read so the approvals badge shows it.
      return { refresh: event.tool === 'run' };
    case 'agentFailed':
      // The reason and the fix, not a bare code (issue 19: reasons are visible; they are never bodies).
      view.lastError[event.agentId] = `${event.error.code}: ${event.error.message}${event.error.fix === undefined ? '' : ` — ${event.error.fix}`}`;
      return { refresh: false, toast: { level: 'error', key: 'toast.agentFailed', params: { agent: event.agentId, message: event.error.message } } };
    case 'backendDegraded':
      return { refresh: false, toast: { level: 'warn', key: 'toast.degraded', params: { template: event.modelTemplateId, reason: event.reason } } };
    case 'toolLimitReached':
      return { refresh: false, toast: { level: 'warn', key: 'toast.toolLimit', params: { agent: event.agentId, n: event.maxIterations } } };
    case 'toolRepeatBlocked':
      return { refresh: false, toast: { level: 'warn', key: 'toast.repeat', params: { agent: event.agentId, tool: event.tool } } };
    case 'hopLimitReached':
      return { refresh: false, toast: { level: 'warn', key: 'toast.hopLimit', params: { agent: event.agentId, n: event.maxHops } } };
    case 'conversationCleared':
      view.messages = [];
      view.lines = [];
      view.drafts = {};
      return { refresh: true };
    case 'turnRecorded':
      view.turnsRecorded += 1;
      return { refresh: false };
    case 'topologyChanged':
    case 'sessionSwitched':
    // A held wave appears or goes: re-read so the pane shows the server's list, never an assumed one.
    case 'planReviewRequested':
    case 'planReviewResolved':
    // The work-status grid shows the host's wave record (a fold over these events), re-read when a wave moves.
    case 'planWaveStarted':
    case 'planTaskResolved':
    case 'planWaveFinished':
      return { refresh: true };
    default:
      return { refresh: false };
  }
}
