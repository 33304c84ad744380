/**
 * The one bottom-layer error file: stable codes, a plain-JSON wire form, no domain imports.
 * Codes are listed in data_contract.yaml (`error_codes`); the contract test keeps both equal.
 * Who is at fault for each code lives in one table, errorFaults.ts.
 */
import { faultOf, type ErrorFault } from './errorFaults.js';

export type { ErrorFault } from './errorFaults.js';

/** Every stable error code the product can raise. Expected routing outcomes are PlanTaskState values, not codes. */
export const ERROR_CODES = [
  // world / village
  'AGENT_NOT_FOUND',
  'DUPLICATE_AGENT_NAME',
  'MODEL_TEMPLATE_NOT_FOUND',
  'ROLE_NOT_FOUND',
  'INVALID_TOPOLOGY',
  'INVALID_TOKEN_BUDGET',
  'INVALID_USER_NAME',
  'UNSAFE_IDENTIFIER',
  'CONFIG_IO',
  'CONFIG_PARSE',
  'VILLAGE_MISSING',
  // schedules
  'SCHEDULE_NOT_FOUND',
  'INVALID_SCHEDULE',
  'SCHEDULE_STORE_BLOCKED',
  // sessions
  'SESSION_NOT_FOUND',
  'SESSION_STORE_FAILED',
  'SESSION_STORE_FULL',
  'SESSION_STORE_LOCKED',
  'SESSION_STORE_CORRUPT',
  'SESSION_SWITCH_BLOCKED',
  // runtime
  'ALREADY_RUNNING',
  'NOT_RUNNING',
  'MAILBOX_FULL',
  'EXTERNAL_RECEPTION_UNSET',
  'EXTERNAL_BUSY',
  'WORKER_CRASHED',
  // host
  'LOCK_HELD',
  'LOCK_IO',
  'SECRET_STORE_FAILED',
  'SECRET_NOT_KEPT',
  'SECRET_STORE_READ_ONLY',
  'SECRET_NAME_COLLISION',
  'CREDENTIAL_MISSING',
  'MCP_FAILED',
  // an HTTP MCP server answered 401 and no usable OAuth login is stored (mcp login)
  'MCP_AUTH_REQUIRED',
  'DOOR_CLOSING',
  'COMPUTE_FAILED',
  // the price table named in pricing.json could not be fetched or read (only ever on a person's request)
  'PRICING_FETCH',
  // blackboard: a person's delete or clear in the GUI could not move the note to the trash
  'BLACKBOARD_DELETE_FAILED',
  'COMPUTE_BUSY',
  // ship: bake / seed (a folder that is not a bake, or an --out that is not empty; a bake of another village)
  'BAKE_INVALID',
  'BAKE_VILLAGE_MISMATCH',
  // attachments: not an accepted file; a kind the agent's model wire cannot carry
  'INVALID_ATTACHMENT',
  'ATTACHMENT_NOT_CARRIED',
  // gui api (loopback HTTP): a request body that does not fit its command; a request without a session of this launch
  'INVALID_REQUEST',
  'GUI_UNAUTHORIZED',
  // an edit made from a version of a file that is no longer the current one (the GUI offers reload or overwrite)
  'EDIT_CONFLICT',
  // evals: a case file under workspace/evals/ that cannot be used; a --case naming no case file
  'EVAL_CASE_INVALID',
  'EVAL_CASE_NOT_FOUND',
  // a command (run, a pre-check, a sandboxed MCP server) refused: the OS sandbox cannot be had here (src/core/sandbox)
  'SANDBOX_UNAVAILABLE',
  // llm
  'LLM_CONFIG',
  'LLM_HTTP',
  'LLM_API',
  'LLM_EMPTY_RESPONSE',
  'LLM_OUTPUT_TRUNCATED',
  'LLM_BLOCKED',
  'LLM_PARSE',
  'LLM_TIMEOUT',
  'LLM_RESPONSE_TOO_LARGE',
  // internal invariant broken (a bug, never an expected outcome)
  'BUG',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** JSON-safe detail values only: errors cross threads and go out as JSONL. */
export type ErrorDetails = Record<string, string | number | boolean | null>;

/** Wire form of an error (`agentFailed.error`, `--events jsonl`, worker → supervisor). */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  /** How a person fixes it, when there is something to do. */
  fix?: string;
  details?: ErrorDetails;
  agentId?: string | null;
  retryable: boolean;
  /** Who is at fault (user / system / model), from the code's row in ERROR_FAULTS. */
  fault: ErrorFault;
}

export interface FuseforksErrorOptions {
  fix?: string;
  details?: ErrorDetails;
  agentId?: string | null;
  retryable?: boolean;
  cause?: unknown;
}

/** Codes that a retry may cure; everything else stops the operation (and, for LLM errors, the agent). */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['MAILBOX_FULL', 'COMPUTE_FAILED', 'COMPUTE_BUSY']);

export class FuseforksError extends Error {
  readonly code: ErrorCode;
  readonly fix: string | undefined;
  readonly details: ErrorDetails | undefined;
  readonly agentId: string | null;
  readonly retryable: boolean;
  /** Who is at fault, decided by the code alone (errorFaults.ts). */
  readonly fault: ErrorFault;

  constructor(code: ErrorCode, message: string, options: FuseforksErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.fix = options.fix;
    this.details = options.details;
    this.agentId = options.agentId ?? null;
    this.retryable = options.retryable ?? RETRYABLE.has(code);
    this.fault = faultOf(code);
  }
}

/** A broken invariant. Never caught to become an outcome. */
export class BugError extends FuseforksError {
  constructor(message: string) {
    super('BUG', message);
  }
}

const CODE_SET: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && CODE_SET.has(value);
}

/** Checks the code, never `instanceof`: the error may have crossed a thread as a payload. */
export function isFuseforksError(value: unknown): value is FuseforksError | ErrorPayload {
  return typeof value === 'object' && value !== null && isErrorCode((value as { code?: unknown }).code);
}

export function toWire(error: unknown): ErrorPayload {
  if (isFuseforksError(error)) {
    const payload: ErrorPayload = {
      code: error.code,
      message: error.message,
      agentId: error.agentId ?? null,
      retryable: error.retryable,
      fault: faultOf(error.code),
    };
    if (error.fix !== undefined) payload.fix = error.fix;
    if (error.details !== undefined) payload.details = error.details;
    return payload;
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'BUG', message, agentId: null, retryable: false, fault: faultOf('BUG') };
}

/**
 * The inverse of `toWire`: a payload that crossed a thread becomes a FuseforksError again, code and fix intact.
 * The fault is read from the code again, never trusted from the payload: one table decides it.
 */
export function fromWire(payload: ErrorPayload): FuseforksError {
  const options: FuseforksErrorOptions = { agentId: payload.agentId ?? null, retryable: payload.retryable };
  if (payload.fix !== undefined) options.fix = payload.fix;
  if (payload.details !== undefined) options.details = payload.details;
  return new FuseforksError(payload.code, payload.message, options);
}


/**
 * Every error is fatal for the agent except the retryable ones, a truncated output (paid, keeps running) and an
 * attachment its wire cannot carry (the person's input was wrong, not the agent).
 */
export function stopsTheAgent(error: Pick<ErrorPayload, 'code' | 'retryable'>): boolean {
  return !error.retryable && error.code !== 'LLM_OUTPUT_TRUNCATED' && error.code !== 'ATTACHMENT_NOT_CARRIED';
}
