/**
 * The words a schedule shows to people: its label (computed from the recurrence; the file stores none), the
 * body of a scheduled request, and the one System line written when the target is stopped.
 * The body prefixes `【定期実行: …】` / `【Scheduled run: …】` are part of the wire the agents see.
 */
import type { Recurrence, ScheduledTask, Weekday } from './types.js';

/** Village language for schedule texts. */
export type ScheduleLanguage = 'ja' | 'en';

const WEEKDAY_EN: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const WEEKDAY_JA: Record<Weekday, string> = {
  mon: '月曜',
  tue: '火曜',
  wed: '水曜',
  thu: '木曜',
  fri: '金曜',
  sat: '土曜',
  sun: '日曜',
};

function clock(hour: number, minute: number): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** Human label of a recurrence: `every 10 minutes`, `daily at 09:00`, `every Thursday at 17:00` (or Japanese). */
export function recurrenceLabel(recurrence: Recurrence, language: ScheduleLanguage): string {
  switch (recurrence.kind) {
    case 'interval':
      if (language === 'ja') return `${recurrence.everyMinutes} 分ごと`;
      return recurrence.everyMinutes === 1 ? 'every minute' : `every ${recurrence.everyMinutes} minutes`;
    case 'daily':
      return language === 'ja'
        ? `毎日 ${clock(recurrence.hour, recurrence.minute)}`
        : `daily at ${clock(recurrence.hour, recurrence.minute)}`;
    case 'weekly':
      return language === 'ja'
        ? `毎週 ${WEEKDAY_JA[recurrence.weekday]} ${clock(recurrence.hour, recurrence.minute)}`
        : `every ${WEEKDAY_EN[recurrence.weekday]} at ${clock(recurrence.hour, recurrence.minute)}`;
  }
}

/** Header placed before the pre-check's extra output (lines 2+ of its stdout) in a delivered request. */
export function probeAppendixHeader(language: ScheduleLanguage): string {
  return language === 'ja' ? '【前判定の出力】' : '【Pre-check output】';
}

/**
 * The message body an agent receives for a firing: `【Scheduled run: {label}】\n{message}`, plus the pre-check's
 * appendix under its header when the probe produced one.
 */
export function scheduledBody(
  task: Pick<ScheduledTask, 'recurrence' | 'message'>,
  language: ScheduleLanguage,
  appendix?: string,
): string {
  const label = recurrenceLabel(task.recurrence, language);
  const head = language === 'ja' ? `【定期実行: ${label}】` : `【Scheduled run: ${label}】`;
  const body = `${head}\n${task.message}`;
  if (appendix === undefined || appendix === '') return body;
  return `${body}\n\n${probeAppendixHeader(language)}\n${appendix}`;
}

/**
 * The one System → User line for a firing whose target is stopped (written once per due, since the due is
 * consumed). `name` falls back to the id when the agent no longer exists.
 */
export function stoppedTargetNotice(
  task: Pick<ScheduledTask, 'recurrence' | 'to'>,
  name: string | undefined,
  language: ScheduleLanguage,
): string {
  const label = recurrenceLabel(task.recurrence, language);
  const who = name ?? task.to;
  return language === 'ja'
    ? `${who}（${task.to}）が停止中のため、予定「${label}」を今回は飛ばしました`
    : `Skipped the scheduled run "${label}" for ${who} (${task.to}): the agent is stopped`;
}
