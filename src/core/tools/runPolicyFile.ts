/**
 * Reading and updating `agents/{id}/run.json`. Read on every presentation and call (the user may edit it
 * at any time); updates write a temp file and rename it, so a reader never sees half a file. A broken
 * file is never overwritten: reads fall back to the default policy and updates are refused.
 */
import { readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { memoryPath } from './remember.js';
import { parseRunPolicy, type RunPolicy } from './runPolicy.js';

/** How run.json looked when read. */
export type RunPolicyState = 'missing' | 'ok' | 'broken';

/** A read run.json: the policy to use, its state, and for a broken file a short reason. */
export interface RunPolicyRead {
  policy: RunPolicy;
  state: RunPolicyState;
  broken: string | null;
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
    if (code === 'ENOENT' || code === 'ENOTDIR') return { policy: parsed.policy, state: 'missing', broken: null };
    return { policy: parsed.policy, state: 'broken', broken: `cannot be read (${code ?? 'error'})` };
  }
  const parsed = parseRunPolicy(text);
  return parsed.broken === null
    ? { policy: parsed.policy, state: 'ok', broken: null }
    : { policy: parsed.policy, state: 'broken', broken: parsed.broken };
}

/** Outcome of an update: written, or refused because the file is broken (reason given). */
export type RunPolicyUpdate = { written: true; policy: RunPolicy } | { written: false; broken: string };

/** Most write attempts for one update (a rename can fail transiently on some file systems). */
const WRITE_ATTEMPTS = 3;

/** Re-reads run.json, applies `change`, writes it back atomically. Refuses (does not write) when broken. */
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
    const temp = `${path}.${process.pid}.${Date.now()}.${attempt}.tmp`;
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temp, `${JSON.stringify(next, null, 2)}\n`, 'utf8');
      await rename(temp, path);
      return { written: true, policy: next };
    } catch (error) {
      lastError = error;
      await rm(temp, { force: true });
    }
  }
  throw lastError instanceof Error ? lastError : new Error('run.json could not be written');
}
