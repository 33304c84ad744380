/**
 * `HostApi` — the one public surface of an open village. The CLI, the GUI server, the door and library users
 * (`import { openVillage } from 'fuseforks'`) all call this; none of them is handed the supervisor, a worker or a
 * store. What a face needs that is missing here is added here, once (docs/architecture.md "One host API").
 *
 * Grouped in facets so each stays readable: the top level runs the village (agents, requests, conversations,
 * events), `village` edits its files (the design screens' commands), `door` manages the MCP door on the shelf.
 * Every method that changes a file writes it atomically, keeps keys it does not know, and refuses to overwrite a
 * file it could not read. Every such method takes a `base` last: the revision (or the revisions) the change was
 * made from, as the views answer them in `revisions`; a stale one is refused with EDIT_CONFLICT and nothing is
 * written (core/village/revision.ts). Without a base the change is not checked.
 */
import type { DiagSink } from '../core/diag.js';
import type { AgentMessage, AgentStatus, CoreEvent } from '../core/events.js';
import type { NewSchedule, SchedulePatch } from '../core/schedules/scheduleStore.js';
import type { SessionMeta } from '../core/sessions/sessionMeta.js';
import type { StoredSession } from '../core/sessions/storedSession.js';
import type { PlanReviewRequest } from '../core/turn/ports.js';
import type { PlanWave } from '../core/turn/planWaves.js';
import type { World } from '../core/world/types.js';
import type { BlackboardView } from '../core/blackboard/boardView.js';
import type { JevTestResult, JevView } from '../core/jev/jevView.js';
import type { AskOutcome } from './askOutcome.js';
import type { AttachmentUpload } from './attachmentUploads.js';
import type { SummarizeReport } from './summaries.js';
import type { StatsReport, StatsScope } from '../core/stats/statsReport.js';
import type { CloseReport } from './closeHost.js';
import type { NewAgentInput } from './commands/agentEdits.js';
import type { GroupInput } from './commands/villageEdits.js';
import type { DoorView } from './door/doorController.js';
import type { HostHealth } from './health/hostHealth.js';
import type { McpServerStatus } from './mcp/mcpClientManager.js';
import type { VillageState } from './villageCommands.js';
import type { FileProblem } from './villageProblems.js';
import type { CommandDecision, CommandRequests, DecisionOutcome, RunPolicyEdit, RunPolicyView } from '../core/tools/runApprovals.js';
import type { AgentFileView, EditableAgentFile } from './commands/agentFiles.js';
import type { ConnectionTestResult } from './commands/connectionTest.js';
import type { VillageSettingsInput } from './commands/villageSettings.js';
import type { OrdinanceView } from './villageFiles.js';
import type { WorkFileList } from './commands/workFolderFiles.js';
import type { WorkDirCheck } from './commands/workDirBatch.js';
import type { PricingApi } from './pricing/pricingFacet.js';
import type { ScheduleRunReport } from './scheduleRunNow.js';
import type { StoredAttachment } from './attachmentFiles.js';
import type { AgentActivity } from '../core/stats/agentActivity.js';
import type { EditBase } from '../core/village/revision.js';
import type { SharedMcpView } from './commands/sharedMcp.js';
import type { EvalsApi } from './evals/evalsFacet.js';

export type { CloseReport } from './closeHost.js';
export type { NewAgentInput } from './commands/agentEdits.js';
export type { GroupInput } from './commands/villageEdits.js';
export type { DoorView } from './door/doorController.js';
export type { HostHealth } from './health/hostHealth.js';
export type { McpServerStatus } from './mcp/mcpClientManager.js';
export type { ScheduleView, VillageState } from './villageCommands.js';
export type { CommandDecision, CommandRequests, CommandRequestView, DecisionOutcome, RunPolicyEdit, RunPolicyView } from '../core/tools/runApprovals.js';
export type { AgentFileView, EditableAgentFile } from './commands/agentFiles.js';
export type { ConnectionTestResult } from './commands/connectionTest.js';
export type { VillageSettingsInput } from './commands/villageSettings.js';
export type { OrdinanceView } from './villageFiles.js';
export type { WorkFileList } from './commands/workFolderFiles.js';
export type { WorkDirCheck } from './commands/workDirBatch.js';
export type { AppliedPrice, PriceFetchReport, PriceTableEntry, PricingApi, PricingSourceView } from './pricing/pricingFacet.js';
export type { AskOutcome } from './askOutcome.js';
export type { StoredSession } from '../core/sessions/storedSession.js';
export type { ScheduleRunReport } from './scheduleRunNow.js';
export type { StoredAttachment } from './attachmentFiles.js';
export type { SummarizeReport, SummaryRow } from './summaries.js';
export type { StatsReport, StatsScope, StatsSlice } from '../core/stats/statsReport.js';
export type { FileProblem } from './villageProblems.js';
export type { BlackboardNoteView, BlackboardView } from '../core/blackboard/boardView.js';
export type { JevTestResult, JevView, JudgeView } from '../core/jev/jevView.js';
export type { EditBase, Revision, Revisions } from '../core/village/revision.js';
export type { SharedMcpView } from './commands/sharedMcp.js';
export type { EvalsApi, EvalRunRequest, EvalCaseList, EvalRunRecord } from './evals/evalsFacet.js';

/** Per-request options of `askExternal`. */
export interface AskOptions {
  /**
   * Longest wait for the answer (ms; default the village's askTimeoutSecs), counted from arrival — time queued
   * behind other external requests included; past it the outcome is timed_out.
   */
  timeoutMs?: number;
  /** Abort to give up: a queued request leaves the queue (interrupted), a served one has its work cut. */
  signal?: AbortSignal;
}
export type { CostSummary } from '../core/billing/pricing.js';
export type { TokenTotals } from '../core/billing/tokenTotals.js';

/** One agent as a caller lists it. */
export interface AgentRow {
  agentId: string;
  name: string;
  status: AgentStatus;
}

/** Subscription to the CoreEvent stream (the GUI relay and `--events jsonl` attach here). */
export interface HostEvents {
  /** Every event, in emission order; returns the unsubscribe function. */
  subscribe(listener: (event: CoreEvent) => void): () => void;
}

/**
 * The village's files as the design screens edit them. Every command validates, writes, re-reads the file,
 * hands the re-read world to the running agents' supervisor and answers the re-read state (never an assumed one).
 * Commands run one at a time. API keys are write-only: only `hasKey` ever comes back.
 */
export interface VillageEdits {
  /** Everything a design screen shows (no write). Never contains a secret. */
  state(): VillageState;
  // agents and ties
  createAgent(input: NewAgentInput, base?: EditBase): Promise<{ state: VillageState; id: string }>;
  updateAgent(id: string, spec: unknown, base?: EditBase): Promise<VillageState>;
  /** Stops the agent if it runs, removes it (and inbound ties), its folder and its schedules. */
  deleteAgent(id: string, base?: EditBase): Promise<VillageState>;
  reorderAgents(ids: readonly string[], base?: EditBase): Promise<VillageState>;
  setTies(id: string, targets: readonly string[], base?: EditBase): Promise<VillageState>;
  /** A Kizuna map node position (canvas pixels). */
  setPosition(id: string, x: number, y: number, base?: EditBase): Promise<VillageState>;
  /** Checks a work folder (absolute, exists, a folder, readable; blank = clear) without writing anything. */
  checkWorkDir(folder: string): Promise<WorkDirCheck>;
  /** One work folder for several agents in one atomic world.json write; a folder that fails the check is refused (INVALID_REQUEST field workDir). */
  setWorkDirs(ids: readonly string[], folder: string, base?: EditBase): Promise<VillageState>;
  // village
  setReception(agentId: string | null, base?: EditBase): Promise<VillageState>;
  setExternalName(name: string | null, base?: EditBase): Promise<VillageState>;
  upsertGroup(input: GroupInput, base?: EditBase): Promise<VillageState>;
  removeGroup(id: string, base?: EditBase): Promise<VillageState>;
  // model templates and keys (a key goes to the secret store; the template's `credential` in world.json takes the base)
  upsertTemplate(template: unknown, base?: EditBase): Promise<VillageState>;
  /** Refused while an agent uses it; deletes its stored key. */
  removeTemplate(id: string, base?: EditBase): Promise<VillageState>;
  /** Stores a template's key (trimmed, never returned) and marks the template `keyring`. */
  setApiKey(templateId: string, key: string, base?: EditBase): Promise<VillageState>;
  clearApiKey(templateId: string, base?: EditBase): Promise<VillageState>;
  // schedules (the base: the schedules' revision in `state().revisions`)
  addSchedule(input: NewSchedule, base?: EditBase): Promise<VillageState>;
  updateSchedule(id: string, patch: SchedulePatch, base?: EditBase): Promise<VillageState>;
  setScheduleEnabled(id: string, enabled: boolean, base?: EditBase): Promise<VillageState>;
  removeSchedule(id: string, base?: EditBase): Promise<VillageState>;
  /** Sets (object) or clears (null) a schedule's pre-check; a changed command is unapproved until `approveProbe`. */
  setScheduleProbe(id: string, probe: unknown, base?: EditBase): Promise<VillageState>;
  approveProbe(id: string, base?: EditBase): Promise<VillageState>;
  revokeProbe(id: string, base?: EditBase): Promise<VillageState>;
  // roles and village settings
  /** Adds or changes a role (id fixed once made; name, badge colour, description, defaults incl. Construct text). */
  upsertRole(role: unknown, base?: EditBase): Promise<VillageState>;
  /** Deletes a role; its agents keep working without one. */
  removeRole(id: string, base?: EditBase): Promise<VillageState>;
  /** Gives an agent a role (or none, with null); a role's Construct text replaces the agent's Construct.md. */
  applyRole(agentId: string, roleId: string | null, base?: EditBase): Promise<VillageState>;
  /** Your name, language, token budget, askTimeoutSecs, maxHops, external name: only the fields given change. */
  updateSettings(input: VillageSettingsInput, base?: EditBase): Promise<VillageState>;
  /**
   * One tiny request through the real backend with `template` as given (its key from this village's store): the
   * model's reply, or the failure in the provider's words (HTTP status and body, refused, DNS) — never the key.
   */
  testConnection(template: unknown): Promise<ConnectionTestResult>;
  // shared MCP servers (workspace/mcp.json)
  readSharedMcp(): Promise<SharedMcpView>;
  writeSharedMcp(text: string, base?: EditBase): Promise<SharedMcpView>;
  // conversations kept on disk
  /** Copies a conversation up to `atSeq` (inclusive) into a new one; the current one stays current. */
  forkSession(id: string, atSeq: number): Promise<{ state: VillageState; id: string }>;
  /** Writes `exports/{id}.jsonl`; answers its path and record count. */
  exportSession(id: string): Promise<{ path: string; records: number }>;
}

/**
 * One agent's files and the village Ordinance as text, for editors. Writes are atomic; a JSON file (mcp.json,
 * run.json) is checked with the runtime's own parser and refused when it would not load; a write whose `base` (the
 * revision the editor read) is not the file's now is refused (EDIT_CONFLICT), so nothing written meanwhile is lost.
 */
export interface VillageFilesApi {
  /** SKILL.md (instructions), Memory.md, Construct.md, mcp.json or run.json; "" when missing. */
  readAgentFile(agentId: string, kind: EditableAgentFile): Promise<AgentFileView>;
  writeAgentFile(agentId: string, kind: EditableAgentFile, text: string, base?: EditBase): Promise<AgentFileView>;
  /** The rules at the top of every agent's system prompt (applies from each agent's next turn). */
  readOrdinance(): Promise<OrdinanceView>;
  writeOrdinance(text: string, base?: EditBase): Promise<OrdinanceView>;
  /**
   * The chat input's `@` completion: paths in an agent's work folder matching `query` (its folder part confined as
   * the file tools confine, symlinks out refused; the walk never follows a link). Read-only.
   */
  listWorkFiles(agentId: string, query: string): Promise<WorkFileList>;
}

/**
 * Command approvals: the `run` requests agents left pending in their run.json, a person's decision on each, and one
 * agent's allowlist. Every write keeps unknown keys; a run.json that cannot be read is reported and never
 * overwritten (CONFIG_PARSE naming it).
 */
export interface CommandApprovalsApi {
  /** Every agent's pending requests (command line, folder, reason, when, how often) and the unreadable run.json files. */
  list(): CommandRequests;
  /**
   * Approve once (the next run of exactly that line), always (the exact line), `prefix` (the command with its first
   * argument and any further ones), or reject (the agent's next run of it gets the rejection text). `notFound` when
   * the request is no longer pending (a decision needs no base: only a request still pending is decided).
   */
  decide(agentId: string, request: { command: string; args: string[] }, decision: CommandDecision): Promise<DecisionOutcome>;
  /** One agent's run.json: state (missing / ok / broken with why), allow, deny, once, pending, timeout. */
  readPolicy(agentId: string): RunPolicyView;
  /** Saves one agent's allow and deny patterns and timeout (patterns checked); answers the re-read file. */
  writePolicy(agentId: string, edit: RunPolicyEdit, base?: EditBase): Promise<RunPolicyView>;
}

/**
 * The MCP door on this machine's shelf (`{dataDir}/mcp_server.json`). A host that serves (GUI, `serve`) opens and
 * closes the door live as it is switched; any other host only writes the file (it takes effect at the next serve).
 */
export interface DoorApi {
  /** Enabled, listening, port, last error, blocked (unreadable file). Never the token. */
  status(): Promise<DoorView>;
  /** Switches the door on (making a token the first time) or off. */
  setEnabled(enabled: boolean, base?: EditBase): Promise<DoorView>;
  /** Moves the door to another port (1–65535); reopens it there when it is listening. */
  setPort(port: number, base?: EditBase): Promise<DoorView>;
  /** The bearer token clients send, or null before the door was first switched on. */
  token(): Promise<string | null>;
  /** A new token; the old one stops working at once (the door reopens when it is listening). */
  rotateToken(): Promise<string>;
}

/**
 * The blackboards: every current work folder's `blackboard/` notes, oldest first. A person reads, deletes one note or
 * clears a board (notes move to that folder's `.fuseforks-trash/`); nothing here writes a note.
 */
export interface BlackboardApi {
  list(): Promise<BlackboardView[]>;
  /** BLACKBOARD_DELETE_FAILED for a folder that is no servant's or a name that is not a note; a missing note is fine. */
  deleteNote(dir: string, name: string): Promise<BlackboardView[]>;
  clear(dir: string): Promise<BlackboardView[]>;
}

/**
 * Jev, the helper model: `{dataDir}/jev.json` (model, wire, switches), its token `jev_api_token` (write-only), a test
 * call, and each agent's judge (`agents/{id}/judge.json`). Workers read the settings when they start.
 */
export interface JevApi {
  /** Settings, whether a token is stored (never the token), the file's state, every agent's judge. */
  view(): Promise<JevView>;
  /** INVALID_REQUEST naming the field; CONFIG_PARSE when jev.json cannot be read (it is never overwritten). */
  save(settings: unknown, base?: EditBase): Promise<JevView>;
  setToken(token: string): Promise<JevView>;
  clearToken(): Promise<JevView>;
  /** One short call to the saved model with the stored token: the reply head, or the error code and message. */
  test(): Promise<JevTestResult>;
  /** Turns an agent's judge on or off; `to` names the judge agent (needed to turn on when the file has none). */
  setJudge(agentId: string, enabled: boolean, to?: string | null, base?: EditBase): Promise<JevView>;
}

/** An open village. Built by `openVillage` (or `buildHost`); closed by `close()`. */
export interface HostApi {
  /** Absolute `{dataDir}` (the shelf); the village is `{dataDir}/workspace`. */
  readonly dataDir: string;
  readonly events: HostEvents;
  /** The village's files as the design screens edit them. */
  readonly village: VillageEdits;
  /** Agent files and the Ordinance as text. */
  readonly files: VillageFilesApi;
  /** Command approvals and run.json allowlists. */
  readonly approvals: CommandApprovalsApi;
  /** The MCP door. */
  readonly door: DoorApi;
  /** The blackboards of the agents' work folders (read, delete, clear). */
  readonly blackboard: BlackboardApi;
  /** Jev, the helper model (settings, token, test, judges). */
  readonly jev: JevApi;
  /** The price-table source (shelf pricing.json) and the fetch a person asks for. */
  readonly pricing: PricingApi;
  /** The village's diagnostic log (`workspace/fuseforks.log`): counts and codes, never bodies or secrets. */
  readonly log: DiagSink;
  /** Eval cases (`workspace/evals/*.json`), runs of them, and the runs kept on this machine. */
  readonly evals: EvalsApi;

  // ---- the running village ---------------------------------------------------------------------------------
  /** The current world snapshot (never mutate it). */
  world(): World;
  /** Every agent of the world with its status, in world order. */
  agents(): AgentRow[];
  /** Each agent's last reported token total (since its worker started; kept after it stops, until the host closes). */
  agentTokens(): Record<string, number>;
  /** Each agent's last prompt/cached token counters and last tool call (kept after it stops, until the host closes). */
  agentActivity(): Record<string, AgentActivity>;
  /** The newest `last` messages of this run's message log (oldest first). */
  messages(last?: number): AgentMessage[];
  /** MCP servers: the shared ones, plus `agentId`'s own when given (connected, tools, last error). */
  mcpStatus(agentId?: string): McpServerStatus[];
  /** Reconnects the shared MCP servers after their mcp.json changed; answers their status (agents see new tool lists from their next start). */
  reloadSharedMcp(): Promise<McpServerStatus[]>;
  /** Starts `ids` in parallel; nothing when `signal` is already aborted; rejects with the first start error. */
  startSet(ids: readonly string[], signal?: AbortSignal): Promise<string[]>;
  /** ALREADY_RUNNING, AGENT_NOT_FOUND. */
  startAgent(id: string): Promise<void>;
  /** NOT_RUNNING. */
  stopAgent(id: string): Promise<void>;
  /** Cuts one agent's turn in flight (and what it delegated). */
  interrupt(id: string): Promise<void>;
  /** Cuts every turn in flight. */
  interruptAll(): Promise<void>;
  /** The user's message to one agent (NOT_RUNNING, MAILBOX_FULL). */
  sendUserMessage(to: string, text: string): void;
  /**
   * The user's message with files (one per message): each is checked against the receiving agent's model wire
   * (INVALID_ATTACHMENT, ATTACHMENT_NOT_CARRIED) and stored under workspace/attachments/ before anything is recorded.
   */
  sendUserMessageWith(to: string, text: string, uploads: readonly AttachmentUpload[]): Promise<void>;
  /** The stored body of a sent file (a message's `attachments[].id`); null when it is gone (removed after 30 days). */
  attachment(id: string): Promise<StoredAttachment | null>;
  /**
   * One external request to the reception, as `ask` and the door send it; resolves with the answer, how the
   * delivery ended and the tokens and cost of its chain. Without an answer the text is the fixed notice in the
   * village language.
   */
  askExternal(client: string, text: string, options?: AskOptions): Promise<AskOutcome>;
  /**
   * Fires one schedule now, as the ticker would (approved pre-check first, the scheduled body as a System message),
   * without consuming a due; resolves when the fired chain of turns has ended (SCHEDULE_NOT_FOUND, NOT_RUNNING).
   */
  runScheduleNow(id: string): Promise<ScheduleRunReport>;

  // ---- conversations ---------------------------------------------------------------------------------------
  /** The current conversation id (null when the village runs without a session store). */
  sessionId(): string | null;
  /** Every stored conversation, newest first. */
  listSessions(): SessionMeta[];
  /** The stored messages of one conversation, oldest first (SESSION_NOT_FOUND). */
  sessionMessages(id: string): AgentMessage[];
  /**
   * One stored conversation: its meta and every readable record (messages, exchanges, summaries, turns, calls)
   * with its seq, oldest first, appends still on their way to disk included (SESSION_NOT_FOUND; SESSION_STORE_FAILED
   * when the village runs without a store). `sessions show` and `sessions export --stdout` read this.
   */
  readSession(id: string): Promise<StoredSession>;
  /** A new, empty conversation becomes current. */
  newSession(): Promise<string | null>;
  /** The most recently updated conversation becomes current. */
  continueLatest(): Promise<string | null>;
  /** An older conversation becomes current (SESSION_NOT_FOUND; SESSION_SWITCH_BLOCKED while turns are in flight). */
  openSession(id: string): Promise<string | null>;
  /**
   * "Summarize and continue" for `agentIds` (default: every agent): one no-tools call per running agent that has
   * something new to fold; the summary is stored and replaces that history in the agent's prompt from its next
   * turn on. Costs tokens (counted like any call); allowed while turns are in flight; originals stay in the store.
   */
  summarize(agentIds?: readonly string[]): Promise<SummarizeReport>;
  /**
   * Stats of one conversation or of all (optionally a half-open period on the records' start time): turns and
   * failures, tokens of every call, per agent × model, how turns ended, a per-turn chart and the ≈ cost where the
   * templates have prices. A conversation without usage records says so (`hasRecords: false`), never zeros.
   */
  stats(scope: StatsScope): Promise<StatsReport>;
  /**
   * Files of the village that exist but cannot be used, read from disk now (what `check` reports as CONFIG_BROKEN):
   * file, reason with the row / server / key, and the fix when the reader knows a better one than "fix it by hand".
   */
  fileProblems(): Promise<FileProblem[]>;

  // ---- plan review -----------------------------------------------------------------------------------------
  /** The latest plan waves (work status: every task's state, oldest wave first, up to 50; kept until the host closes). */
  planWaves(): readonly PlanWave[];
  /** Waves of `planReview` agents waiting for a person's decision, oldest plan first. */
  pendingPlanReviews(): PlanReviewRequest[];
  /** Approves or rejects a held wave (INVALID_REQUEST when it is no longer waiting). */
  resolvePlanReview(planId: number, approved: boolean, note?: string | null): void;

  // ---- health (serve's heartbeat) ---------------------------------------------------------------------------
  /** Running agents, the door, the last schedule tick and the last failure (a code, never a body). */
  health(): HostHealth;
  /** A failure seen above the host (e.g. serve's start set), kept as the health's last error. */
  noteHealthError(code: string): void;

  /** Stops deliveries, the door, every agent (grace 30 s), MCP, the store and the log, then releases the lock. */
  close(): Promise<CloseReport>;
}
