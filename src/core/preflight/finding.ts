/**
 * Preflight findings (SPEC §6.1): the closed set of codes, the levels, and the one ordering rule.
 * Types and tiny pure helpers only; the decisions live in `headlessPreflight.ts`.
 */

/** reject = the command refuses to start (exit 3); warn = starts, something will not work; info = FYI. */
export type FindingLevel = 'reject' | 'warn' | 'info';

/** Every finding code, in the order of the SPEC §6.1 table (also the order within a level). */
export const FINDING_CODES = [
  'PLAN_REVIEW_ON',
  'SECRET_MISSING',
  'KEYRING_INCONSISTENT',
  'MODEL_TEMPLATE_MISSING',
  'PROVIDER_UNSUPPORTED',
  'RECEPTION_UNSET',
  'RECEPTION_MISSING',
  'RECEPTION_TARGETS_OUTSIDE',
  'SCHEDULE_TARGET_STOPPED',
  'RUN_APPROVAL_PENDING',
  'PROBE_UNAPPROVED',
  'JEV_TOKEN_MISSING',
  'MCP_COMMAND_NOT_FOUND',
  'MCP_AUTH_REQUIRED',
  'SESSION_STORE_CORRUPT',
  'CONFIG_BROKEN',
  'ENABLED_TOOL_UNKNOWN',
  'VILLAGE_HELD',
  'SANDBOX_UNAVAILABLE',
  'SANDBOX_OFF',
  'UNSAFE_IDENTIFIER',
  'PROMPT_FILE_OVER_CAP',
  'SYSTEM_PROMPT_OVER_CAP',
  'TOOLS_OVER_CAP',
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];

/** One thing preflight found. `message` and `fix` are in the village language and name the agent/template/etc. */
export interface Finding {
  level: FindingLevel;
  code: FindingCode;
  message: string;
  fix: string;
}

const LEVEL_RANK: Record<FindingLevel, number> = { reject: 0, warn: 1, info: 2 };

/** Sorted reject → warn → info; stable within a level (Array.prototype.sort is stable since ES2019). */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => LEVEL_RANK[a.level] - LEVEL_RANK[b.level]);
}

/** True when at least one finding is a rejection (`check` exits 3, `ask`/`serve` stop before booting). */
export function hasReject(findings: readonly Pick<Finding, 'level'>[]): boolean {
  return findings.some((f) => f.level === 'reject');
}
