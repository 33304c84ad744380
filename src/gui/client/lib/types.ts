/**
 * Wire shapes the client reads from the GUI API (mirrors of the server's GuiState and the CoreEvent wire;
 * kept here as plain types so the client bundle imports nothing from the server side).
 */

// The wire nouns are the core's own (type-only imports: erased from the bundle, so the client loads nothing of it).
import type { ErrorPayload } from '../../../core/errors.js';
import type { AgentMessage, AgentStatus, CoreEvent, Endpoint } from '../../../core/events.js';
import type { PlanReviewRequest } from '../../../core/turn/ports.js';
import type { AgentSpec, Group } from '../../../core/world/types.js';

export type { AgentMessage, AgentSpec, AgentStatus, CoreEvent, Endpoint, ErrorPayload, Group };

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

/** A schedule's pre-check command (argv, no shell); runs only when approved on this machine. */
export interface ScheduleProbe {
  command: string;
  args: string[];
  expect: string;
  /** Seconds. */
  timeoutSecs: number;
  /** Absolute folder, or null = the workspace. */
  cwd: string | null;
}

/** One schedule. */
export interface Schedule {
  id: string;
  to: string;
  message: string;
  recurrence: Recurrence;
  enabled: boolean;
  probe?: ScheduleProbe;
  /** True only when the probe's key (argv, cwd, village id) is on this machine's shelf. */
  probeApproved: boolean;
  /** The server's display of the argv an approval covers; null without a probe. */
  probeCommandLine: string | null;
}

/** A saved conversation. */
export interface SessionMeta {
  id: string;
  title?: string;
  updatedAtMs: number;
  recordCount: number;
  forkedFrom?: { sessionId: string; atSeq: number };
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

