/**
 * What the GUI API acts on once the host is up: the host's lifecycle and chat surface plus the village
 * commands, answered as one `GuiState` (the re-read village, statuses and the message tail). Built from a Host
 * by `openGuiVillage`; nothing here talks to actors directly.
 */
import type { AgentMessage, CoreEvent } from '../../core/events.js';
import { BUNDLED_TOOL_NAMES, DEFAULT_ENABLED_TOOLS, KNOWN_TOOL_NAMES } from '../../core/tools/registry.js';
import type { PlanReviewRequest } from '../../core/turn/ports.js';
import type { PlanWave } from '../../core/turn/planWaves.js';
import { batchSet } from '../../core/world/startSet.js';
import type { StoredAttachment } from '../../host/attachmentFiles.js';
import type { AttachmentUpload } from '../../host/attachmentUploads.js';
import type { FileProblem } from '../../host/villageProblems.js';
import type { BlackboardApi, CommandApprovalsApi, DoorApi, HostApi, PricingApi, JevApi, McpServerStatus, StatsReport, StatsScope, SummarizeReport, VillageEdits, VillageFilesApi, VillageState } from '../../host/hostApi.js';
import { messageEmpty } from '../../core/errors/requestErrors.js';
import type { AgentActivity } from '../../core/stats/agentActivity.js';

/** Messages the client keeps (reference gui.md §4.1). */
export const MESSAGE_TAIL = 500;

/** Everything a screen shows; every mutation answers with it. Never contains a secret or a token. */
export interface GuiState extends VillageState {
  messages: AgentMessage[];
  /** Waves of `planReview` servants held for the person (oldest plan first), tasks in full. */
  planReviews: PlanReviewRequest[];
  /** The latest plan waves with every task's state (the work-status grid), oldest first. */
  planWaves: readonly PlanWave[];
  /** Each servant's last reported token total (cards, status bar), so a reloaded page shows it at once. */
  tokens: Record<string, number>;
  /** Each servant's last prompt/cached counters and last tool call (card rows), so a reloaded page shows them. */
  activity: Record<string, AgentActivity>;
  appVersion: string;
  /** The bundled tools an agent may be given, and the set a `null` enabledTools means. */
  /** Switchable tools, the default set, and every name an enabledTools list may hold without a warning. */
  tools: { bundled: string[]; defaults: string[]; known: string[] };
}

/**
 * The chat shown after a switch: the opened session's stored messages, then live ones recorded after the switch.
 * "After" is by position in the live ring (the newest message at the switch), not by clock: a message recorded
 * in the same millisecond just before the switch belongs to the previous conversation.
 */
interface ShownSession {
  stored: AgentMessage[];
  lastBeforeId: string | null;
}

/** The GUI's handle on a booted village. */
export class GuiVillage {
  /** Null until a conversation is switched in this run: the live log is the chat. */
  private shown: ShownSession | null = null;

  constructor(
    private readonly host: HostApi,
    private readonly appVersion: string,
  ) {}

  /** The blackboards (read, delete, clear). */
  get blackboard(): BlackboardApi {
    return this.host.blackboard;
  }

  /** Jev: settings, write-only token, test call, judge per agent. */
  get jev(): JevApi {
    return this.host.jev;
  }

  /** The village edit commands the routes call (the host's own, over the stores its ticker reads). */
  get commands(): VillageEdits {
    return this.host.village;
  }

  /** Agent files and the Ordinance (the inspector's and the Ordinance editors). */
  get files(): VillageFilesApi {
    return this.host.files;
  }

  /** Command approvals and run.json allowlists. */
  get approvals(): CommandApprovalsApi {
    return this.host.approvals;
  }

  /** The MCP door on this machine's shelf (opened and closed live by this GUI). */
  get door(): DoorApi {
    return this.host.door;
  }

  /** The price-table source on the shelf and the fetch a person asks for. */
  get pricing(): PricingApi {
    return this.host.pricing;
  }

  /** Current state with the message tail. */
  state(): GuiState {
    return {
      ...this.commands.state(),
      messages: this.messages(),
      planReviews: this.host.pendingPlanReviews(),
      planWaves: this.host.planWaves(),
      tokens: this.host.agentTokens(),
      activity: this.host.agentActivity(),
      appVersion: this.appVersion,
      tools: { bundled: [...BUNDLED_TOOL_NAMES], defaults: [...DEFAULT_ENABLED_TOOLS], known: [...KNOWN_TOOL_NAMES] },
    };
  }

  /** A new, empty conversation; the chat starts empty. */
  async newSession(): Promise<GuiState> {
    const lastBeforeId = this.newestLiveId();
    await this.host.newSession();
    this.shown = { stored: [], lastBeforeId };
    return this.state();
  }

  /**
   * Opens an older conversation (SESSION_SWITCH_BLOCKED while a turn is in flight, SESSION_NOT_FOUND). Agents
   * started afterwards restore its histories; running agents keep theirs. The chat shows its stored messages.
   */
  async openSession(id: string): Promise<GuiState> {
    const lastBeforeId = this.newestLiveId();
    await this.host.openSession(id);
    const stored = this.host.sessionMessages(id);
    this.shown = { stored: stored.slice(-MESSAGE_TAIL), lastBeforeId };
    return this.state();
  }

  /** "Summarize and continue" for `agentIds` (default all running servants); answers the state with the report. */
  async summarize(agentIds?: readonly string[]): Promise<GuiState & { summary: SummarizeReport }> {
    const summary = await this.host.summarize(agentIds);
    return { ...this.state(), summary };
  }

  /** Stats of one conversation or of all (read-only). */
  stats(scope: StatsScope): Promise<StatsReport> {
    return this.host.stats(scope);
  }

  /** Files of the village that cannot be used (file, reason, fix), read now. */
  fileProblems(): Promise<FileProblem[]> {
    return this.host.fileProblems();
  }

  /** Approves or rejects a held wave (INVALID_REQUEST when it is no longer waiting); answers the re-read state. */
  resolvePlanReview(planId: number, approved: boolean, note: string | null): GuiState {
    this.host.resolvePlanReview(planId, approved, note);
    return this.state();
  }

  /** MCP servers: the shared ones, or with an id that servant's own (connected, tools, the failure reason). */
  mcpStatus(agentId?: string): McpServerStatus[] {
    const all = this.host.mcpStatus(agentId);
    return agentId === undefined ? all : all.filter((s) => s.agentId === agentId);
  }

  /** Reconnects the shared MCP servers (after the shared mcp.json was saved); answers their status. */
  reloadSharedMcp(): Promise<McpServerStatus[]> {
    return this.host.reloadSharedMcp();
  }

  /** Subscribes to the CoreEvent stream. */
  subscribe(listener: (event: CoreEvent) => void): () => void {
    return this.host.events.subscribe(listener);
  }

  /** Starts one servant; resolves once it is running. */
  async start(id: string): Promise<GuiState> {
    await this.host.startAgent(id);
    return this.state();
  }

  /** Stops one servant. */
  async stop(id: string): Promise<GuiState> {
    await this.host.stopAgent(id);
    return this.state();
  }

  /**
   * Batch ▶ starts every batch-set servant not running (failed ones included); ■ stops the running ones.
   * Failures of single servants do not stop the others; the first one is rethrown after all were tried.
   */
  async batch(action: 'start' | 'stop'): Promise<GuiState> {
    const ids = batchSet(this.host.world());
    const status = new Map(this.host.agents().map((s) => [s.agentId, s.status]));
    const targets = ids.filter((id) => {
      const s = status.get(id);
      return action === 'start' ? s === 'idle' || s === 'failed' : s === 'running' || s === 'starting';
    });
    const results = await Promise.allSettled(targets.map((id) => (action === 'start' ? this.host.startAgent(id) : this.host.stopAgent(id))));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return this.state();
  }

  /** Cuts one servant's turn in flight. */
  async interrupt(id: string): Promise<GuiState> {
    await this.host.interrupt(id);
    return this.state();
  }

  /** Cuts every turn in flight. */
  async interruptAll(): Promise<GuiState> {
    await this.host.interruptAll();
    return this.state();
  }

  /** The user's message to one servant, with at most one attached file (NOT_RUNNING, MAILBOX_FULL, INVALID_ATTACHMENT, ATTACHMENT_NOT_CARRIED). */
  async send(to: string, text: string, uploads: AttachmentUpload[] = []): Promise<GuiState> {
    if (typeof text !== 'string' || (text.trim() === '' && uploads.length === 0)) {
      throw messageEmpty();
    }
    if (uploads.length === 0) this.host.sendUserMessage(to, text);
    else await this.host.sendUserMessageWith(to, text, uploads);
    return this.state();
  }

  /** The stored body of a file a person sent (the chat shows it again after a reload); null when gone. */
  attachment(id: string): Promise<StoredAttachment | null> {
    return this.host.attachment(id);
  }

  private messages(): AgentMessage[] {
    const live = this.host.messages(MESSAGE_TAIL);
    if (this.shown === null) return live;
    const { stored, lastBeforeId } = this.shown;
    const seen = new Set(stored.map((m) => m.id));
    // Not in the tail any more = everything in the tail came after the switch.
    const cut = lastBeforeId === null ? -1 : live.findIndex((m) => m.id === lastBeforeId);
    const after = live.slice(cut + 1).filter((m) => !seen.has(m.id));
    return [...stored, ...after].slice(-MESSAGE_TAIL);
  }

  private newestLiveId(): string | null {
    return this.host.messages(1).at(-1)?.id ?? null;
  }

  /** Closes the host (stops agents, releases the lock). */
  async close(): Promise<void> {
    await this.host.close();
  }
}

/** The GUI's handle on an open village (every call goes through `HostApi`). */
export async function openGuiVillage(host: HostApi, appVersion: string): Promise<GuiVillage> {
  return new GuiVillage(host, appVersion);
}
