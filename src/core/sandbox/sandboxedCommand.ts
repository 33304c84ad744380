/**
 * The edge between a caller (the `run` tool, a schedule pre-check, a stdio MCP server) and the pure plan: resolves
 * the real paths, lists what must stay hidden (the data dir, the secret folders of the real home), reads the host
 * view and the availability, and returns the program and arguments to spawn with the sandbox's environment.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { gatherHostView } from './hostView.js';
import { sandboxAvailability, type SandboxAvailability } from './sandboxAvailability.js';
import { homeSecrets, sandboxCommand, sandboxEnv, type SandboxPolicy } from './sandboxPlan.js';

/** One command to start inside the sandbox. */
export interface SandboxedStart {
  policy: SandboxPolicy;
  /** Bound at its own path; null = nothing bound (the command starts in the sandbox's empty home). */
  workDir: string | null;
  /** The village's data dir (hidden where the work folder holds it); null = none to hide (no work folder). */
  dataDir: string | null;
  command: string;
  args: readonly string[];
  /** Folders bound read-only besides the system ones. */
  readOnly?: readonly string[];
  /** Variables added to the sandbox's allowlist (a run mark, an MCP server's declared env). */
  extraEnv?: Readonly<Record<string, string>>;
}

/** What to spawn, or why the sandbox cannot be had. */
export type SandboxedSpawn =
  | { ok: true; file: string; args: string[]; env: Record<string, string>; cwd: string | null }
  | { ok: false; missing: Extract<SandboxAvailability, { ok: false }> };

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The spawn of `start` inside the sandbox (availability looked for once per process). */
export function sandboxedSpawn(start: SandboxedStart, availability: SandboxAvailability = sandboxAvailability()): SandboxedSpawn {
  if (!availability.ok) return { ok: false, missing: availability };
  const workDir = start.workDir === null ? null : real(start.workDir);
  const hidden = [...(start.dataDir === null ? [] : [real(start.dataDir)]), ...homeSecrets(real(homedir()))];
  const planned = sandboxCommand({
    policy: start.policy,
    programs: { bwrap: availability.bwrap, prlimit: availability.prlimit },
    workDir,
    hidden,
    host: gatherHostView(hidden),
    ...(start.readOnly === undefined ? {} : { readOnly: start.readOnly.map(real) }),
    command: start.command,
    args: start.args,
  });
  return { ok: true, file: planned.file, args: planned.args, env: sandboxEnv(process.env, start.extraEnv), cwd: workDir };
}
