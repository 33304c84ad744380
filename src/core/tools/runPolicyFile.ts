/**
 * Reading and updating `agents/{id}/run.json`. Read on every presentation and call (the user may edit it
 * at any time); updates are atomic (temp file + rename), so a reader never sees half a file, and keep the keys
 * this build does not know. A broken file is never overwritten: reads fall back to the default policy and
 * updates are refused.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../village/atomicWrite.js';
import { memoryPath } from './remember.js';
import { parseRunPolicy, serializeRunPolicy, type RunPolicy } from './runPolicy.js';
import { PRIVATE_DIR_MODE } from '../privateFiles.js';

/** How run.json looked when read. */
export type RunPolicyState = 'missing' | 'ok' | 'broken';

/** A read run.json: the policy to use, its state, for a broken file a short reason, and the raw top level. */
export interface RunPolicyRead {
  policy: RunPolicy;
  state: RunPolicyState;
  broken: string | null;
  /** The parsed object (unknown keys included); null when missing, empty or broken. */
  raw: Record<string, unknown> | null;
}

/** Absolute path of an agent's run.json (same safe-id rule as Memory.md). */
export function runPolicyPath(workspaceDir: string, agentId: string): string {
  return join(dirname(memoryPath(workspaceDir, agentId)), 'run.json');
}

/** Reads run.json synchronously (tool specs are built synchronously). Never throws for a bad file. */
export function readRunPolicy(workspaceDir: string, agentId: string): RunPolicyRead {
  let text: string;
  try {
    text = readFileSync(runPolicyPath(workspaceDir, agentId), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const parsed = parseRunPolicy('');
    if (code === 'ENOENT' || code === 'ENOTDIR') return { policy: parsed.policy, state: 'missing', broken: null, raw: null };
    return { policy: parsed.policy, state: 'broken', broken: `cannot be read (${code ?? 'error'})`, raw: null };
  }
  const parsed = parseRunPolicy(text);
  return parsed.broken === null
    ? { policy: parsed.policy, state: 'ok', broken: null, raw: parsed.raw }
    : { policy: parsed.policy, state: 'broken', broken: parsed.broken, raw: null };
}

/** Outcome of an update: written, or refused because the file is broken (reason given). */
export type RunPolicyUpdate = { written: true; policy: RunPolicy } | { written: false; broken: string };

/** Most write attempts for one update (a rename can fail transiently on some file systems). */
const WRITE_ATTEMPTS = 3;

/**
 * Re-reads run.json, applies `change`, writes it back atomically with unknown keys kept. Refuses (does not
 * write) when the file is broken. Two writers (the agent's `run`, a person's decision) each re-read first; the
 * window between read and rename is the only race, and the next request re-reads whatever won.
 */
export async function updateRunPolicy(
  workspaceDir: string,
  agentId: string,
  change: (policy: RunPolicy) => RunPolicy,
): Promise<RunPolicyUpdate> {
  const path = runPolicyPath(workspaceDir, agentId);
  let lastError: unknown = null;
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt += 1) {
    const current = readRunPolicy(workspaceDir, agentId);
    if (current.state === 'broken') return { written: false, broken: current.broken ?? 'broken' };
    const next = change(current.policy);
    // An unchanged policy (a decision on a request no longer pending) leaves the file as it is.
    if (next === current.policy) return { written: true, policy: next };
    try {
      await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
      await writeFileAtomic(path, serializeRunPolicy(next, current.raw));
      return { written: true, policy: next };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new Error('run.json could not be written');
}
