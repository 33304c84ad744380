/**
 * Who is at fault for each error code (STYLE 20): the one table, so a code cannot be raised with one fault here and
 * another there. `user` = the person fixes their input or configuration; `system` = the host, the OS, a file, a
 * lock, a store, the network or a bug in this program; `model` = the LLM provider answered badly, too late or not
 * at all once reached. Carried on every FuseforksError and in its wire form (`ErrorPayload.fault`).
 */
import type { ErrorCode } from './errors.js';

/** The three parties an error can be blamed on (data_contract.yaml `error_faults`). */
export const ERROR_FAULT_KINDS = ['user', 'system', 'model'] as const;

export type ErrorFault = (typeof ERROR_FAULT_KINDS)[number];

/**
 * The fault of every code. Judgement calls, stated once: a lock or store held by another process is `system` (the
 * host's state, not the input); LLM_HTTP (the server could not be reached at all) is `system`, while a provider that
 * answers with an error, nothing, a refusal or too late is `model`; LLM_CONFIG is the template the person wrote
 * (`user`), LLM_OUTPUT_TRUNCATED the model spending its whole allowance without text (`model`).
 */
export const ERROR_FAULTS: Readonly<Record<ErrorCode, ErrorFault>> = {
  AGENT_NOT_FOUND: 'user',
  DUPLICATE_AGENT_NAME: 'user',
  MODEL_TEMPLATE_NOT_FOUND: 'user',
  ROLE_NOT_FOUND: 'user',
  INVALID_TOPOLOGY: 'user',
  INVALID_TOKEN_BUDGET: 'user',
  INVALID_USER_NAME: 'user',
  UNSAFE_IDENTIFIER: 'user',
  CONFIG_IO: 'system',
  CONFIG_PARSE: 'user',
  VILLAGE_MISSING: 'user',
  SCHEDULE_NOT_FOUND: 'user',
  INVALID_SCHEDULE: 'user',
  SCHEDULE_STORE_BLOCKED: 'user',
  SESSION_NOT_FOUND: 'user',
  SESSION_STORE_FAILED: 'system',
  SESSION_STORE_FULL: 'system',
  SESSION_STORE_LOCKED: 'system',
  SESSION_STORE_CORRUPT: 'system',
  SESSION_SWITCH_BLOCKED: 'user',
  ALREADY_RUNNING: 'user',
  NOT_RUNNING: 'user',
  MAILBOX_FULL: 'system',
  EXTERNAL_RECEPTION_UNSET: 'user',
  EXTERNAL_BUSY: 'system',
  WORKER_CRASHED: 'system',
  LOCK_HELD: 'system',
  LOCK_IO: 'system',
  SECRET_STORE_FAILED: 'system',
  SECRET_NOT_KEPT: 'system',
  SECRET_STORE_READ_ONLY: 'user',
  SECRET_NAME_COLLISION: 'user',
  CREDENTIAL_MISSING: 'user',
  MCP_FAILED: 'system',
  MCP_AUTH_REQUIRED: 'user',
  DOOR_CLOSING: 'system',
  COMPUTE_FAILED: 'system',
  PRICING_FETCH: 'system',
  BLACKBOARD_DELETE_FAILED: 'system',
  SANDBOX_UNAVAILABLE: 'system',
  COMPUTE_BUSY: 'system',
  BAKE_INVALID: 'user',
  BAKE_VILLAGE_MISMATCH: 'user',
  INVALID_ATTACHMENT: 'user',
  ATTACHMENT_NOT_CARRIED: 'user',
  INVALID_REQUEST: 'user',
  GUI_UNAUTHORIZED: 'user',
  // another window, process or agent saved the file first: the person decides whose version stays
  EDIT_CONFLICT: 'user',
  EVAL_CASE_INVALID: 'user',
  EVAL_CASE_NOT_FOUND: 'user',
  LLM_CONFIG: 'user',
  LLM_HTTP: 'system',
  LLM_API: 'model',
  LLM_EMPTY_RESPONSE: 'model',
  LLM_OUTPUT_TRUNCATED: 'model',
  LLM_BLOCKED: 'model',
  LLM_PARSE: 'model',
  LLM_TIMEOUT: 'model',
  // the provider sent more than the template's maxResponseBytes: the model flooded, not the person's input
  LLM_RESPONSE_TOO_LARGE: 'model',
  BUG: 'system',
};

/** The fault of a code: a pure table look-up. */
export function faultOf(code: ErrorCode): ErrorFault {
  return ERROR_FAULTS[code];
}
