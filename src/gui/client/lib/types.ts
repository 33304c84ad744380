/**
 * Wire shapes the client reads from the GUI API (mirrors of the server's GuiState and the CoreEvent wire;
 * kept here as plain types so the client bundle imports nothing from the server side).
 */

/** Agent lifecycle status. */
export type AgentStatus = 'idle' | 'starting' | 'running' | 'stopping' | 'failed';

/** A sender or recipient. */
export type Endpoint = { kind: 'user' } | { kind: 'system' } | { kind: 'agent'; id: string } | { kind: 'external'; client: string };

/** One recorded message. */
export interface AgentMessage {
  id: string;
  from: Endpoint;
  to: Endpoint;
  content: string;
  tokens: number;
  tsMs: number;
  hop: number;
}

/** world.json agent. */
export interface AgentSpec {
  id: string;
  name: string;
  modelTemplateId: string;
  ragSources: string[];
  connectedAgents: string[];
  order: number;
  workDir: string | null;
  maxToolIterations: number | null;
  enabledTools: string[] | null;
  hearsRoomLog: boolean;
  allowHandoff: boolean;
  batchStart: boolean;
  roleId: string | null;
  groupId: string | null;
  hidden: boolean;
  planReview: boolean;
}

/** world.json model template (the fields the dialog edits; others pass through). */
export interface ModelTemplate {
  id: string;
  name: string;
  baseUrl: string;
  model: string;
  contextLength: number;
  temperature: number | null;
  maxOutputTokens: number;
  credential: 'unset' | 'not_required' | 'keyring';
  provider: 'open_ai_compat' | 'anthropic' | 'echo' | null;
  useTools: boolean;
  requestTimeoutSecs: number;
  maxRetries: number;
  [key: string]: unknown;
}

/** A group of servants. */
export interface Group {
  id: string;
  name: string;
  batchStart: boolean;
  order: number;
}

/** The world as the server re-read it. */
export interface World {
  agents: AgentSpec[];
  groups: Group[];
  modelTemplates: ModelTemplate[];
  roles: Array<{ id: string; name: string }>;
  topologyPositions: Record<string, { x: number; y: number }>;
  language: 'ja' | 'en';
  reception: string | null;
  externalName: string | null;
}

/** When a schedule fires. */
export type Recurrence =
  | { kind: 'interval'; everyMinutes: number }
  | { kind: 'daily'; hour: number; minute: number }
  | { kind: 'weekly'; weekday: string; hour: number; minute: number };

/** One schedule. */
export interface Schedule {
  id: string;
  to: string;
  message: string;
  recurrence: Recurrence;
  enabled: boolean;
}

/** A saved conversation. */
export interface SessionMeta {
  id: string;
  title?: string;
  updatedAtMs: number;
  recordCount: number;
  forkedFrom?: { sessionId: string; atSeq: number };
}

/** The error wire. */
export interface ErrorPayload {
  code: string;
  message: string;
  fix?: string;
  retryable: boolean;
}

/** `/api/state` and every mutation's answer. */
export interface GuiState {
  world: World;
  statuses: Array<{ agentId: string; status: AgentStatus }>;
  hasKey: Record<string, boolean>;
  schedules: Schedule[];
  schedulesBlocked: string | null;
  worldReadOnly: string | null;
  sessions: { current: string | null; list: SessionMeta[] };
  messages: AgentMessage[];
  /** Waves of planReview servants held for a decision, oldest plan first. */
  planReviews: PlanReview[];
  appVersion: string;
  createdId?: string;
}

/** A held plan wave (issue 8), tasks in full. */
export interface PlanReview {
  planId: number;
  agentId: string;
  wave: number;
  tasks: Array<{ to: string; message: string }>;
}

/** `/api/boot`. */
export type BootStatus = { state: 'booting' } | { state: 'ready' } | { state: 'failed'; error: ErrorPayload };

/** The CoreEvent wire, as far as the client reacts to it. */
export type CoreEvent =
  | { type: 'agentStatusChanged'; agentId: string; status: AgentStatus }
  | { type: 'agentStatsUpdated'; agentId: string; uptimeSecs: number; totalTokens: number; promptTokens: number; cachedTokens: number }
  | { type: 'messageSent'; message: AgentMessage }
  | { type: 'topologyChanged' }
  | { type: 'agentFailed'; agentId: string; error: ErrorPayload }
  | { type: 'backendDegraded'; modelTemplateId: string; reason: string }
  | { type: 'conversationCleared' }
  | { type: 'sessionSwitched'; sessionId: string }
  | { type: 'turnRecorded'; agentId: string; sessionId: string }
  | { type: 'agentTyping'; agentId: string; active: boolean }
  | { type: 'toolInvoked'; agentId: string; tool: string; ok: boolean }
  | { type: 'toolLimitReached'; agentId: string; maxIterations: number }
  | { type: 'toolRepeatBlocked'; agentId: string; tool: string; repeats: number }
  | { type: 'turnInterrupted'; agentId: string; turnSeq: number }
  | { type: 'hopLimitReached'; agentId: string; maxHops: number }
  | { type: 'planReviewRequested'; planId: number; agentId: string; wave: number; tasks: Array<{ to: string; message: string }> }
  | { type: 'planReviewResolved'; planId: number; agentId: string; approved: boolean }
  | { type: 'planWaveStarted' | 'planTaskResolved' | 'planWaveFinished'; planId: number };
