/**
 * The library entry of the `fuseforks` package: open a village and drive it through `HostApi`, the same surface
 * the CLI, the GUI server and the MCP door use. See the README ("Embedding") for a short example.
 */
export { openVillage, type OpenVillageOptions } from './host/openVillage.js';
export type {
  AgentRow,
  AskOptions,
  AskOutcome,
  BlackboardApi,
  BlackboardNoteView,
  BlackboardView,
  CloseReport,
  CostSummary,
  DoorApi,
  DoorView,
  EditBase,
  FileProblem,
  GroupInput,
  HostApi,
  HostEvents,
  JevApi,
  JevTestResult,
  JevView,
  JudgeView,
  McpServerStatus,
  NewAgentInput,
  Revision,
  Revisions,
  ScheduleView,
  TokenTotals,
  VillageEdits,
  VillageState,
} from './host/hostApi.js';
// The base of an edit made from a view (every method that changes a file takes one; a stale one is EDIT_CONFLICT).
export { baseOf } from './core/village/revision.js';
export { ERROR_CODES, FuseforksError, isFuseforksError, type ErrorCode, type ErrorPayload } from './core/errors.js';
export type { AgentMessage, AgentStatus, CoreEvent, Endpoint, PlanTaskState } from './core/events.js';
export type { NewSchedule, SchedulePatch } from './core/schedules/scheduleStore.js';
export type { Recurrence, ScheduledTask } from './core/schedules/types.js';
export { MemorySecretStore, type SecretStore } from './core/secrets/secretStore.js';
export type { SessionMeta } from './core/sessions/sessionMeta.js';
export type { AgentSpec, ModelTemplate, World } from './core/world/types.js';
