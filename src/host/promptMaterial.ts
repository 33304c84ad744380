/**
 * The supervisor reads an agent's prompt files once per delivery, synchronously (its `material` option is
 * sync because delivery happens inside a message handler). Missing files read as ""; an unreadable file is
 * one WARN (path and errno, never content) and reads as "" so a bad permission never takes a turn down.
 */
import { readFileSync } from 'node:fs';
import type { DiagSink } from '../core/diag.js';
import type { PromptMaterial } from '../core/turn/ports.js';
import type { VillagePaths } from '../core/village/paths.js';

function readOrEmpty(path: string, diag: DiagSink): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    if (code !== 'ENOENT' && code !== 'ENOTDIR') diag.note('prompt file', { file: path, errno: code }, 'warn');
    return '';
  }
}

/** Builds the supervisor's `material(agentId)` over the village files. */
export function promptMaterialReader(paths: VillagePaths, diag: DiagSink): (agentId: string) => PromptMaterial {
  return (agentId) => {
    const agent = paths.agent(agentId);
    return {
      ordinance: readOrEmpty(paths.ordinance, diag),
      construct: readOrEmpty(agent.construct, diag),
      skill: readOrEmpty(agent.skill, diag),
      memory: readOrEmpty(agent.memory, diag),
    };
  };
}
