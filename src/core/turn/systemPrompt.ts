/**
 * System prompt composition (reference core.md §1.5). The order is fixed so everything before the roster is
 * byte-stable across turns; `stableLen` marks that prefix for the provider's prompt cache.
 */
import type { AgentStatus } from '../events.js';
import type { Language } from '../world/types.js';
import type { PromptMaterial, RosterEntry } from './ports.js';
import { summaryBlock } from './wording.js';

/** The composed prompt and the char count of its cache-stable prefix. */
export interface ComposedPrompt {
  text: string;
  /** Chars (UTF-16 code units, as `String.length`) before the roster section. */
  stableLen: number;
}

/** Inputs of the prompt besides the material files. */
export interface PromptSubject {
  agentId: string;
  agentName: string;
  workDir: string | null;
  language: Language;
  roster: RosterEntry[];
  /** The newest "summarize and continue" summary of this agent's older conversation (null = none). */
  summary?: string | null;
}

const STATUS_JA: Record<AgentStatus, string> = {
  idle: '停止中',
  starting: '起動中',
  running: '稼働中',
  stopping: '停止処理中',
  failed: '異常停止',
};

const STATUS_EN: Record<AgentStatus, string> = {
  idle: 'stopped',
  starting: 'starting',
  running: 'running',
  stopping: 'stopping',
  failed: 'failed',
};

/** One roster line: `{id}（{name}）［role］: status` (ja) or `{id} ({name}) [role]: status` (en). */
export function rosterLine(roster: RosterEntry[], language: Language): string {
  return roster
    .map((entry) => {
      if (language === 'ja') {
        const role = entry.roleName ? `［${entry.roleName}］` : '';
        return `${entry.id}（${entry.name}）${role}: ${STATUS_JA[entry.status]}`;
      }
      const role = entry.roleName ? ` [${entry.roleName}]` : '';
      return `${entry.id} (${entry.name})${role}: ${STATUS_EN[entry.status]}`;
    })
    .join(' / ');
}

function aboutYou(subject: PromptSubject): string {
  if (subject.language === 'ja') {
    return (
      `## あなたについて\nあなたは「${subject.agentName}」（ID: ${subject.agentId}）です。` +
      '書くのは自分の発言だけにしてください。ほかのエージェントの発言を代わりに書いたり、演じたりしないでください。'
    );
  }
  return (
    `## About you\nYou are "${subject.agentName}" (ID: ${subject.agentId}). ` +
    "Speak only for yourself; never write other agents' lines."
  );
}

function workFolder(workDir: string, language: Language): string {
  return language === 'ja'
    ? `## 作業フォルダ\nファイルを扱うツールはこのフォルダの中で動きます: ${workDir}`
    : `## Working folder\nFile tools work inside this folder: ${workDir}`;
}

/**
 * Composes the prompt in the fixed order — ordinance, about you, working folder, Construct, Skill (the stable
 * prefix), then summary, roster, Memory (volatile) — leaving empty sections out entirely.
 */
export function composeSystemPrompt(material: PromptMaterial, subject: PromptSubject): ComposedPrompt {
  const ja = subject.language === 'ja';
  const stable: string[] = [];
  if (material.ordinance.trim() !== '') {
    stable.push(`${ja ? '## 村の掟' : '## Ordinance'}\n${material.ordinance.trim()}`);
  }
  stable.push(aboutYou(subject));
  if (subject.workDir) stable.push(workFolder(subject.workDir, subject.language));
  if (material.construct.trim() !== '') stable.push(`## Construct\n${material.construct.trim()}`);
  if (material.skill.trim() !== '') stable.push(`## Skill\n${material.skill.trim()}`);

  const stableText = stable.join('\n\n');
  const variable: string[] = [];
  // The summary changes only when someone summarizes, the roster whenever a status does: summary first keeps
  // more of the prompt cacheable between summaries. It is never in the stable prefix, nor folded into a user
  // turn (a folded copy would repeat in every stored exchange of the history window).
  const summary = subject.summary?.trim() ?? '';
  if (summary !== '') variable.push(summaryBlock(subject.language, summary));
  if (subject.roster.length > 0) {
    variable.push(`${ja ? '## 今の顔ぶれ' : '## Current roster'}\n${rosterLine(subject.roster, subject.language)}`);
  }
  if (material.memory.trim() !== '') variable.push(`## Memory\n${material.memory.trim()}`);

  // stableLen counts the stable sections only, so it never moves when the roster or Memory change.
  const text = [stableText, ...variable].join('\n\n');
  return { text, stableLen: stableText.length };
}
