/**
 * Wire shapes the client reads from the GUI API. The domain nouns are the core's own types (type-only imports,
 * erased from the bundle, so the client loads no server code); only the GUI's own shapes are declared here.
 */

import type { ErrorPayload } from '../../../core/errors.js';
import type { AgentMessage, AgentStatus, CoreEvent, Endpoint } from '../../../core/events.js';
import type { PlanReviewRequest } from '../../../core/turn/ports.js';
import type { PlanWave, PlanWaveTask } from '../../../core/turn/planWaves.js';
import type { Recurrence, ScheduleProbe, ScheduleView, Weekday } from '../../../core/schedules/types.js';
import type { SessionMeta } from '../../../core/sessions/sessionMeta.js';
import type { SummarizeReport } from '../../../core/summaries/summaryReport.js';
import type { StatsReport, StatsSlice } from '../../../core/stats/statsReport.js';
import type { AgentRole, AgentSpec, Group, Language, ModelTemplate as CoreModelTemplate, RoleColor } from '../../../core/world/types.js';
import type { CommandRequests, CommandRequestView, RunPolicyView } from '../../../core/tools/runApprovals.js';
import type { ReadProblem as FileProblem } from '../../../core/preflight/configReaders.js';
import type { WorkDirCheck, WorkFileList } from '../../../core/tools/workFolderShapes.js';
import type { AgentActivity } from '../../../core/stats/agentActivity.js';

export type { AgentMessage, AgentRole, AgentSpec, AgentStatus, CommandRequests, CommandRequestView, CoreEvent, Endpoint, ErrorPayload, FileProblem, Group, PlanWave, PlanWaveTask, Recurrence, RoleColor, RunPolicyView, ScheduleProbe, SessionMeta, StatsReport, StatsSlice, SummarizeReport, Weekday, WorkDirCheck, WorkFileList };

/** world.json model template: the fields the dialog edits; the others pass through untouched. */
export type ModelTemplate = Pick<
  CoreModelTemplate,
  | 'id' | 'name' | 'baseUrl' | 'model' | 'contextLength' | 'temperature' | 'maxOutputTokens' | 'credential' | 'provider'
  | 'useTools' | 'requestTimeoutSecs' | 'maxRetries' | 'effort' | 'stream' | 'googleSearch' | 'xaiWebSearch' | 'xaiXSearch'
  | 'openaiWebSearch' | 'openaiReasoningPro' | 'metaWebSearch'
> & { [key: string]: unknown };

/** The world as the server re-read it. */
export interface World {
  agents: AgentSpec[];
  groups: Group[];
  modelTemplates: ModelTemplate[];
  roles: AgentRole[];
  topologyPositions: Record<string, { x: number; y: number }>;
  language: Language;
  reception: string | null;
  externalName: string | null;
  userName: string | null;
  /** Effective tokens per request; null = no ceiling. */
  tokenBudget: number | null;
  askTimeoutSecs: number;
  maxHops: number;
}

/** One schedule, with its pre-check approval on this machine (the host's view). */
export type Schedule = ScheduleView;


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
  /** The latest plan waves with every task's state (work status), oldest first. */
  planWaves: PlanWave[];
  /** Each servant's last reported token total. */
  tokens: Record<string, number>;
  /** Each servant's last prompt/cached counters and last tool call, as the host kept them. */
  activity?: Record<string, AgentActivity>;
  appVersion: string;
  createdId?: string;
  /** The answer of "summarize and continue" (POST /api/sessions/summarize) only. */
  summary?: SummarizeReport;
  /** `run` requests waiting for a person, and run.json files that cannot be read. */
  commandRequests: CommandRequests;
  /** Bundled tools, and the set `enabledTools: null` means. */
  tools: { bundled: string[]; defaults: string[]; known: string[] };
  /** world.json's and the schedules' revisions (the store sends them back as the base of an edit). */
  revisions: Record<string, string>;
}

/** One file of an agent as its editor shows it. */
export interface AgentFileView {
  agentId: string;
  kind: 'skill' | 'memory' | 'construct' | 'mcp' | 'run';
  file: string;
  text: string;
  problem: string | null;
  revisions: Record<string, string>;
}

/** One MCP server's live status. */
export interface McpServerStatus {
  name: string;
  agentId: string | null;
  connected: boolean;
  tools: string[];
  error?: string;
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


/** The door (MCP server on 127.0.0.1) as the host reports it; never carries the token. */
export interface DoorView {
  enabled: boolean;
  listening: boolean;
  port: number;
  /** The last bind or read failure (a busy port, an unreadable mcp_server.json). */
  lastError: string | null;
  /** mcp_server.json cannot be read: the door stays closed and saves are refused. */
  blocked: boolean;
  hasToken: boolean;
  /** This GUI opens and closes the door itself (false: the change applies at the next serve). */
  live: boolean;
  revisions: Record<string, string>;
}
