/**
 * Pure text rules of the actor layer: sender labels, external client names, the System→User status lines
 * (ja/en) and the `to=`/`from=` fields of the diag lines. Wording is this product's own.
 */
import { assertNever, type AgentStatus, type Endpoint, type PlanTaskState } from '../core/events.js';
import type { Language } from '../core/world/types.js';

/** Max code points of a user / external name (reference: userName rules). */
export const NAME_MAX_CHARS = 32;

const FORBIDDEN_NAME_CHARS = /[【】［］\p{Cc}]/u;

/** Applies the userName rules: trim, non-empty, ≤32 code points, no brackets 【】［］ nor control chars. */
export function normalizeName(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const trimmed = raw.trim();
  if (trimmed === '' || [...trimmed].length > NAME_MAX_CHARS || FORBIDDEN_NAME_CHARS.test(trimmed)) return null;
  return trimmed;
}

/** The external client name recorded on the endpoint: the village's externalName wins, else the client's own. */
export function externalClientName(client: string, externalName: string | null): string {
  return normalizeName(externalName) ?? normalizeName(client) ?? 'external';
}

/** Display label of a sender for the envelope header. `agentName` resolves an agent id to its display name. */
export function senderLabel(
  from: Endpoint,
  language: Language,
  userName: string | null,
  agentName: (id: string) => string,
): string {
  switch (from.kind) {
    case 'user':
      return normalizeName(userName) ?? (language === 'ja' ? 'ユーザー' : 'User');
    case 'system':
      return 'Fuseforks';
    case 'agent':
      return agentName(from.id);
    case 'external':
      return language === 'ja' ? `${from.client}（外部クライアント）` : `${from.client} (external client)`;
    default:
      return assertNever(from);
  }
}

/** `from=` / `to=` field of diag lines: user | system | <agentId> | external:<client>. */
export function endpointField(endpoint: Endpoint): string {
  switch (endpoint.kind) {
    case 'user':
    case 'system':
      return endpoint.kind;
    case 'agent':
      return endpoint.id;
    case 'external':
      return `external:${endpoint.client}`;
    default:
      return assertNever(endpoint);
  }
}

/**
 * The System→User line recorded when a status change crosses `running`, or null when none is due
 * (starting → failed records nothing: the agent never ran).
 */
export function statusNotice(name: string, from: AgentStatus, to: AgentStatus, language: Language): string | null {
  const wasRunning = from === 'running';
  const isRunning = to === 'running';
  if (wasRunning === isRunning) return null;
  if (isRunning) return language === 'ja' ? `${name} が動き始めました。` : `${name} is now running.`;
  if (to === 'failed') return language === 'ja' ? `${name} は障害のため止まりました。` : `${name} stopped after a failure.`;
  return language === 'ja' ? `${name} は止まりました。` : `${name} has stopped.`;
}

/** The text an asker receives when its question could not be delivered. */
export function undeliverableText(reason: string, language: Language): string {
  return language === 'ja' ? `（依頼を届けられませんでした: ${reason}）` : `(Could not ask: ${reason})`;
}

/**
 * Model-facing text for a delegation that came back without an answer (the engine puts the text into the
 * ask/plan tool result, so an empty string would read as an empty answer).
 */
export function lostReplyText(state: PlanTaskState, language: Language): string {
  const en: Partial<Record<PlanTaskState, string>> = {
    no_answer: '(No answer: the agent finished or failed without replying.)',
    timed_out: '(No answer: the wait timed out.)',
    interrupted: '(No answer: the request was interrupted.)',
    budget_exhausted: '(Not delivered: the token budget of this request is spent.)',
  };
  const ja: Partial<Record<PlanTaskState, string>> = {
    no_answer: '（回答なし: 相手は返事をせずに終わったか、失敗しました。）',
    timed_out: '（回答なし: 待ち時間を超えました。）',
    interrupted: '（回答なし: 依頼は中断されました。）',
    budget_exhausted: '（届けていません: この依頼のトークン予算を使い切りました。）',
  };
  return (language === 'ja' ? ja : en)[state] ?? `(${state})`;
}
