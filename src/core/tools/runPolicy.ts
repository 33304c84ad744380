/**
 * The `run` command policy, `agents/{id}/run.json`, as pure functions: parse, decide, and the pending /
 * approval updates. The file IO lives in runPolicyFile.ts. This is a guard rail for honest agents, not a
 * security boundary: an allowed program can do whatever its arguments make it do.
 *
 * Pattern grammar: whitespace-separated tokens; the first is the command (case-insensitive), the rest must
 * equal the arguments exactly; a trailing `*` token means "zero or more further arguments". A lone `*`
 * never matches, and `*` anywhere else is literal.
 */

/** One command the agent asked for that nobody has allowed or denied yet. */
export interface PendingRequest {
  command: string;
  args: string[];
  firstRequestedAtMs: number;
  count: number;
  /** The folder it would run in (the agent's work folder when asked); null when it had none. */
  cwd?: string | null;
  /** The agent's one-line reason for the latest request (the tool's `reason`, ≤ 60 chars); null when none. */
  reason?: string | null;
}

/** The run.json shape (camelCase). */
export interface RunPolicy {
  version: 1;
  allow: string[];
  deny: string[];
  /** Exact command lines a person approved for one run each; a run consumes its entry. */
  once: string[];
  pending: PendingRequest[];
  /** Seconds before a run is killed, clamped to 1..3600. */
  timeoutSecs: number;
  /** False only when run.json says `"sandbox": false` (or `"off"`): commands run without the OS sandbox. */
  sandbox: boolean;
  /** True when run.json says `"network": true`: the sandbox shares the host's network (loopback included). */
  network: boolean;
  /** Per-process limits inside the sandbox (run.json `memoryMb`, `cpuSecs`, `fileMb`; defaults below). */
  limits: RunLimits;
}

/** The sandbox's rlimits of one agent's commands. */
export interface RunLimits {
  memoryMb: number;
  cpuSecs: number;
  fileMb: number;
}

/** Default and range of each limit (data_contract.yaml run_json.limits). */
export const RUN_LIMIT_RANGES: Readonly<Record<keyof RunLimits, { default: number; min: number; max: number }>> = {
  memoryMb: { default: 2048, min: 16, max: 262_144 },
  cpuSecs: { default: 600, min: 1, max: 86_400 },
  fileMb: { default: 1024, min: 1, max: 1_048_576 },
};

/** The default limits. */
export function defaultRunLimits(): RunLimits {
  return { memoryMb: RUN_LIMIT_RANGES.memoryMb.default, cpuSecs: RUN_LIMIT_RANGES.cpuSecs.default, fileMb: RUN_LIMIT_RANGES.fileMb.default };
}

/** What `decide` says about one command line. */
export type RunDecision = 'allowed' | 'allowedOnce' | 'denied' | 'unknown' | 'malformed';

/** Most pending requests kept; the oldest are evicted first. */
export const MAX_PENDING = 20;
export const DEFAULT_TIMEOUT_SECS = 60;
export const MIN_TIMEOUT_SECS = 1;
export const MAX_TIMEOUT_SECS = 3600;

/** A fresh policy: nothing allowed, nothing denied. */
export function defaultRunPolicy(): RunPolicy {
  return { version: 1, allow: [], deny: [], once: [], pending: [], timeoutSecs: DEFAULT_TIMEOUT_SECS, sandbox: true, network: false, limits: defaultRunLimits() };
}

/**
 * The outcome of parsing run.json text: the policy to use plus, when broken, why (the default is used). `raw` is
 * the parsed top-level object (null when empty or broken), so a rewrite keeps keys this build does not know.
 */
export type ParsedRunPolicy =
  | { policy: RunPolicy; broken: null; raw: Record<string, unknown> | null }
  | { policy: RunPolicy; broken: string; raw: null };

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Clamps a timeout to 1..3600 s; non-numbers become the 60 s default. */
export function clampTimeout(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return DEFAULT_TIMEOUT_SECS;
  return Math.min(MAX_TIMEOUT_SECS, Math.max(MIN_TIMEOUT_SECS, Math.round(value)));
}

/** Parses run.json text. Empty text = default (not broken); bad JSON or bad field types = broken. */
export function parseRunPolicy(text: string): ParsedRunPolicy {
  if (text.trim() === '') return { policy: defaultRunPolicy(), broken: null, raw: null };
  const broken = (why: string): ParsedRunPolicy => ({ policy: defaultRunPolicy(), broken: why, raw: null });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return broken(`not valid JSON (${error instanceof Error ? error.message : 'parse error'})`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return broken('the top level must be an object');
  const obj = raw as Record<string, unknown>;
  if (obj['version'] !== undefined && obj['version'] !== 1) return broken('`version` must be 1');
  for (const key of ['allow', 'deny', 'once'] as const) {
    if (obj[key] !== undefined && !isStringArray(obj[key])) return broken(`\`${key}\` must be an array of strings`);
  }
  const sandbox = obj['sandbox'] ?? true;
  if (sandbox !== true && sandbox !== false && sandbox !== 'off') return broken('`sandbox` must be true, false or "off"');
  const network = obj['network'] ?? false;
  if (typeof network !== 'boolean') return broken('`network` must be true or false (host lists are not supported)');
  const limits = defaultRunLimits();
  for (const key of Object.keys(RUN_LIMIT_RANGES) as (keyof RunLimits)[]) {
    const value = obj[key];
    if (value === undefined) continue;
    const range = RUN_LIMIT_RANGES[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
      return broken(`\`${key}\` must be a whole number from ${range.min} to ${range.max}`);
    }
    limits[key] = value;
  }
  const pendingRaw = obj['pending'] ?? [];
  if (!Array.isArray(pendingRaw)) return broken('`pending` must be an array');
  const pending: PendingRequest[] = [];
  for (const entry of pendingRaw) {
    const e = entry as Record<string, unknown> | null;
    if (e === null || typeof e !== 'object' || typeof e['command'] !== 'string' || !isStringArray(e['args'])) {
      return broken('`pending` entries need `command` (string) and `args` (strings)');
    }
    const first = typeof e['firstRequestedAtMs'] === 'number' ? e['firstRequestedAtMs'] : 0;
    const count = typeof e['count'] === 'number' && e['count'] >= 1 ? Math.floor(e['count']) : 1;
    const request: PendingRequest = { command: e['command'], args: [...e['args']], firstRequestedAtMs: first, count };
    if (typeof e['cwd'] === 'string') request.cwd = e['cwd'];
    if (typeof e['reason'] === 'string') request.reason = e['reason'];
    pending.push(request);
  }
  return {
    policy: {
      version: 1,
      allow: isStringArray(obj['allow']) ? [...obj['allow']] : [],
      deny: isStringArray(obj['deny']) ? [...obj['deny']] : [],
      once: isStringArray(obj['once']) ? [...obj['once']] : [],
      pending,
      timeoutSecs: clampTimeout(obj['timeoutSecs'] ?? DEFAULT_TIMEOUT_SECS),
      sandbox: sandbox === true,
      network,
      limits,
    },
    broken: null,
    raw: obj,
  };
}

/**
 * The file text for `policy`: the keys this build knows written over `raw` (the last read), so keys it does not
 * know survive; `once` is written only while it holds something (files the original app reads stay familiar).
 */
export function serializeRunPolicy(policy: RunPolicy, raw: Readonly<Record<string, unknown>> | null): string {
  // The sandbox keys are only ever written by a person: they stay exactly as `raw` has them (absent stays absent).
  const { once, sandbox: _sandbox, network: _network, limits: _limits, ...known } = policy;
  const out: Record<string, unknown> = { ...(raw ?? {}), ...known };
  if (once.length > 0) out['once'] = once;
  else delete out['once'];
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** Trims and lowercases a command; null when it holds a path separator or drive colon (`/ \ :`) or is empty. */
export function normalizeCommand(command: string): string | null {
  const trimmed = command.trim();
  if (trimmed === '' || /[/\\:]/.test(trimmed) || /\s/.test(trimmed)) return null;
  return trimmed.toLowerCase();
}

/** True when `pattern` matches the normalized command and its exact args. */
export function matchesPattern(pattern: string, command: string, args: readonly string[]): boolean {
  const tokens = pattern.trim().split(/\s+/).filter((t) => t !== '');
  const head = tokens[0];
  if (head === undefined || head === '*') return false;
  if (head.toLowerCase() !== command) return false;
  const rest = tokens.slice(1);
  const open = rest[rest.length - 1] === '*';
  const fixed = open ? rest.slice(0, -1) : rest;
  if (open ? args.length < fixed.length : args.length !== fixed.length) return false;
  return fixed.every((token, i) => token === args[i]);
}

/** Decides a command line: malformed → deny → allow → approved once → unknown. */
export function decide(policy: RunPolicy, command: string, args: readonly string[]): RunDecision {
  const normalized = normalizeCommand(command);
  if (normalized === null) return 'malformed';
  if (policy.deny.some((p) => matchesPattern(p, normalized, args))) return 'denied';
  if (policy.allow.some((p) => matchesPattern(p, normalized, args))) return 'allowed';
  if (policy.once.some((p) => matchesPattern(p, normalized, args))) return 'allowedOnce';
  return 'unknown';
}

/** The exact pattern for one command line (what auto-approve records). */
export function exactPattern(command: string, args: readonly string[]): string {
  return [command, ...args].join(' ');
}

/** True when a pending entry is this exact command line. */
export const sameRequest = (p: PendingRequest, command: string, args: readonly string[]): boolean =>
  p.command === command && p.args.length === args.length && p.args.every((a, i) => a === args[i]);

/** Where and why an agent asked (both optional: run.json files of the original lack them). */
export interface RequestContext {
  cwd?: string | null;
  reason?: string | null;
}

/**
 * Records an unknown request: drops entries that are now settled (allowed or denied), bumps `count` of an
 * identical one (refreshing its folder and reason), else appends; keeps at most 20, evicting the oldest.
 */
export function notePending(policy: RunPolicy, command: string, args: readonly string[], nowMs: number, context: RequestContext = {}): RunPolicy {
  const normalized = normalizeCommand(command) ?? command;
  const open = policy.pending.filter((p) => decide(policy, p.command, p.args) === 'unknown');
  const existing = open.find((p) => sameRequest(p, normalized, args));
  const where = {
    ...(context.cwd === undefined ? {} : { cwd: context.cwd }),
    ...(context.reason === undefined ? {} : { reason: context.reason }),
  };
  let pending: PendingRequest[];
  if (existing !== undefined) {
    pending = open.map((p) => (p === existing ? { ...p, ...where, count: p.count + 1 } : p));
  } else {
    pending = [...open, { command: normalized, args: [...args], firstRequestedAtMs: nowMs, count: 1, ...where }];
    pending.sort((a, b) => a.firstRequestedAtMs - b.firstRequestedAtMs);
    while (pending.length > MAX_PENDING) pending.shift();
  }
  return { ...policy, pending };
}

/** Adds the exact pattern to `allow` (once) and drops the request from `pending` (auto-approve). */
export function recordApproval(policy: RunPolicy, command: string, args: readonly string[]): RunPolicy {
  const normalized = normalizeCommand(command) ?? command;
  const pattern = exactPattern(normalized, args);
  const allow = policy.allow.includes(pattern) ? policy.allow : [...policy.allow, pattern];
  return { ...policy, allow, pending: policy.pending.filter((p) => !sameRequest(p, normalized, args)) };
}
