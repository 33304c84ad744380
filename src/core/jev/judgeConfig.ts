/**
 * `agents/{id}/judge.json`: an agent that declares a judge gets the `judge` tool (the helper model answers a
 * question about some material with a verdict). A judge is declared by `to`: the id of the village agent who is the
 * judge — its Construct.md and SKILL.md are the judge's standing rules, and it is never started for this (the
 * helper plays the part inside the caller's tool call). `enabled` (default true) is the GUI's on/off, `instructions`
 * optional extra rules.
 * Unknown keys survive the GUI's toggle. Read on each presentation, so a toggle applies at the next turn.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The judge an agent declares. */
export interface JudgeConfig {
  /** judge.json is an object that names its judge (`to`), whatever `enabled` says. */
  declared: boolean;
  enabled: boolean;
  to: string | null;
  instructions: string;
  /** The file exists but is not a JSON object (then no judge; the file is never overwritten). */
  problem: string | null;
}

export const NO_JUDGE: JudgeConfig = { declared: false, enabled: false, to: null, instructions: '', problem: null };

/** `agents/{id}/judge.json` under a workspace. */
export function judgeFile(workspaceDir: string, agentId: string): string {
  return join(workspaceDir, 'agents', agentId, 'judge.json');
}

/** Reads judge.json text (null = missing). */
export function parseJudgeConfig(text: string | null): JudgeConfig {
  if (text === null || text.trim() === '') return NO_JUDGE;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ...NO_JUDGE, problem: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ...NO_JUDGE, problem: 'expected a JSON object' };
  const v = value as Record<string, unknown>;
  const to = typeof v.to === 'string' && v.to.trim() !== '' ? v.to.trim() : null;
  return {
    declared: to !== null,
    enabled: v.enabled !== false,
    to,
    instructions: typeof v.instructions === 'string' ? v.instructions.trim() : '',
    problem: null,
  };
}

/** The agent's judge, read now (sync: tool presentation is synchronous). Never throws. */
export function readJudgeConfig(workspaceDir: string, agentId: string): JudgeConfig {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(agentId)) return NO_JUDGE;
  const file = judgeFile(workspaceDir, agentId);
  // Most agents have no judge: asking first spares the thrown ENOENT (an error with a stack) on every turn.
  if (!existsSync(file)) return NO_JUDGE;
  try {
    return parseJudgeConfig(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? NO_JUDGE : { ...NO_JUDGE, problem: `cannot read the file (${code ?? 'error'})` };
  }
}

/** The judge is on: declared and enabled. */
export function judgeOn(config: JudgeConfig): boolean {
  return config.declared && config.enabled;
}
