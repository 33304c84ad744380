/**
 * schedules.json row shapes (types only), with the original app's camelCase keys (reference/ops.md §2.1, §2.5)
 * so a file made by the desktop app reads unchanged. The file is a JSON array of `ScheduledTask`.
 * The original stores no label: it is computed from `recurrence` (`every 10 minutes`, `daily at 09:00`).
 */

/** Weekday keys of a weekly recurrence. */
export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** When a schedule fires (tag `kind`). Minutes ≥ 1; hour 0–23; minute 0–59, local time. */
export type Recurrence =
  | { kind: 'interval'; everyMinutes: number }
  | { kind: 'daily'; hour: number; minute: number }
  | { kind: 'weekly'; weekday: Weekday; hour: number; minute: number };

/**
 * The optional pre-check command: runs first, and the request goes out only if line 1 of its stdout
 * equals `expect` (both trimmed). Runs only when its approval hash is on this shelf (probe_approvals.json).
 */
export interface ScheduleProbe {
  command: string;
  args: string[];
  /** The line-1 signal that lets the request through. */
  expect: string;
  /** Seconds, 1..3600, default 60. */
  timeoutSecs: number;
  /** Absolute path as written, or null = the workspace. Part of the approval hash as written. */
  cwd: string | null;
}

/** `continue` = deliver into the current session; `fresh` = open a new session first. */
export type SessionMode = 'continue' | 'fresh';

/** One schedules.json row. */
export interface ScheduledTask {
  /** uuid v4. */
  id: string;
  /** Target agent id. */
  to: string;
  message: string;
  recurrence: Recurrence;
  /** Anchor of interval schedules (ms since epoch). */
  createdAtMs: number;
  /** The due time last consumed (fired or skipped), ms since epoch; null = never. */
  lastConsumedDueMs: number | null;
  /** Defaults to true when absent. */
  enabled: boolean;
  probe?: ScheduleProbe;
  sessionMode?: SessionMode;
  summarizeAfter?: boolean;
}

/** A schedule as a screen or a command lists it: the row plus whether its pre-check may run on this machine. */
export interface ScheduleView extends ScheduledTask {
  /** True only when the row has a probe and its key (argv, cwd as written, village id) is on this shelf. */
  probeApproved: boolean;
  /** The probe's argv as one display line (what an approval covers, together with `probe.cwd`); null without a probe. */
  probeCommandLine: string | null;
}
