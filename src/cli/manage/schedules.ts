/**
 * `fuseforks-cli schedules list|add|remove|enable|disable`: the village's schedules (workspace/schedules.json)
 * through `HostApi.village` — the same commands the GUI's schedule dialog calls, so the file ends up byte for byte
 * as the GUI would leave it (ids and createdAtMs are made by the store). `list` is read-only and also answers
 * while another process holds the village (from the files); every change refuses then (exit 4).
 */
import { jsonText } from '../jsonFormat.js';
import { resolveScheduleId } from '../../host/fireScheduleNow.js';
import { nextDue } from '../../core/schedules/due.js';
import { ProbeApprovals } from '../../core/schedules/probeApprovals.js';
import { ScheduleStore, type NewSchedule } from '../../core/schedules/scheduleStore.js';
import { recurrenceLabel } from '../../core/schedules/scheduleText.js';
import { systemZone } from '../../core/schedules/timeZone.js';
import type { ScheduleView } from '../../core/schedules/types.js';
import { villagePaths } from '../../core/village/paths.js';
import { baseOf } from '../../core/village/revision.js';
import { readVillageId } from '../../core/village/villageId.js';
import { loadWorld, systemLocale } from '../../core/village/worldStore.js';
import { scheduleView } from '../../host/commands/probeShelf.js';
import type { VillageState } from '../../host/hostApi.js';
import { EXIT, type ExitCode } from '../exitCodes.js';
import type { CliOutput } from '../output.js';
import { withVillage } from './openManaged.js';
import { recurrenceOf, type RecurrenceFlags } from './recurrenceFlags.js';

/** What every schedules command takes. */
export interface SchedulesOptions {
  dataDir: string;
  json: boolean;
}

/** One schedule as `list --json` prints it: the GUI's view plus its label and next due (ms, local rules). */
export type ScheduleRow = ScheduleView & { label: string; nextDueMs: number | null };

/** The list: rows in file order, and why edits are refused when schedules.json cannot be read. */
export interface ScheduleList {
  schedules: ScheduleRow[];
  blocked: string | null;
}

function rowOf(view: ScheduleView, language: 'ja' | 'en', nowMs: number): ScheduleRow {
  return { ...view, label: recurrenceLabel(view.recurrence, language), nextDueMs: nextDue(view, nowMs, systemZone()) };
}

function listOf(state: Pick<VillageState, 'schedules' | 'schedulesBlocked'>, language: 'ja' | 'en'): ScheduleList {
  const now = Date.now();
  return { schedules: state.schedules.map((v) => rowOf(v, language, now)), blocked: state.schedulesBlocked };
}

/** One line per schedule for people. */
export function scheduleLine(row: ScheduleRow): string {
  const next = row.enabled && row.nextDueMs !== null ? `next ${new Date(row.nextDueMs).toLocaleString()}` : 'paused';
  const probe = row.probeCommandLine === null ? '' : ` · pre-check ${row.probeApproved ? 'approved' : 'NOT approved'}: ${row.probeCommandLine}`;
  const firstLine = row.message.split('\n')[0] ?? '';
  const text = firstLine.length > 60 ? `${firstLine.slice(0, 59)}…` : firstLine;
  return `${row.id}  ${row.enabled ? 'on ' : 'off'}  ${row.label} → ${row.to} (${next})${probe}  ${JSON.stringify(text)}`;
}

function printList(list: ScheduleList, options: SchedulesOptions, output: CliOutput): void {
  if (options.json) return output.stdout(jsonText(list));
  const lines = list.schedules.map(scheduleLine);
  if (lines.length === 0) lines.push('no schedules');
  if (list.blocked !== null) lines.push(`schedules.json cannot be read (${list.blocked}); changes are refused until it is fixed`);
  output.stdout(lines.join('\n'));
}

/** `schedules list`: through HostApi, or from the files while another process holds the village. */
export async function runSchedulesList(options: SchedulesOptions, output: CliOutput): Promise<ExitCode> {
  const managed = await withVillage(options.dataDir, 'schedules list', output, async (host) => listOf(host.village.state(), host.world().language), true);
  if (managed.ok) {
    printList(managed.value, options, output);
    return EXIT.ok;
  }
  if (!managed.held) return managed.exit;
  printList(await listBeside(options.dataDir), options, output);
  return EXIT.ok;
}

/** Reads schedules.json and the shelf's approvals without writing anything (not even village_id). */
async function listBeside(dataDir: string): Promise<ScheduleList> {
  const paths = villagePaths(dataDir);
  const [store, approvals, villageId, world] = await Promise.all([
    ScheduleStore.open({ file: paths.schedules }),
    ProbeApprovals.load(paths.shelf.probeApprovals),
    readVillageId(paths),
    loadWorld(paths, { locale: systemLocale() }),
  ]);
  const shelf = villageId === null ? null : { approvals, villageId };
  const language = world.kind === 'missing' ? 'en' : world.doc.world.language;
  const blocked = store.blocked === null ? null : `${store.blocked.file}:${store.blocked.line}:${store.blocked.column} ${store.blocked.reason}`;
  return listOf({ schedules: store.list().map((t) => scheduleView(t, shelf)), schedulesBlocked: blocked }, language);
}

/** What `schedules add` takes besides the data dir. */
export interface AddOptions extends SchedulesOptions, RecurrenceFlags {
  to: string;
  message: string;
  disabled: boolean;
  freshSession: boolean;
  summarizeAfter: boolean;
}

/** `schedules add`: a new schedule (id and createdAtMs made by the store); prints the new row. */
export async function runSchedulesAdd(options: AddOptions, output: CliOutput): Promise<ExitCode> {
  const parsed = recurrenceOf(options);
  if (!parsed.ok) {
    output.note({ level: 'error', code: 'ARGUMENT', message: parsed.message, fix: parsed.fix });
    return EXIT.argumentError;
  }
  const input: NewSchedule = { to: options.to, message: options.message, recurrence: parsed.recurrence };
  if (options.disabled) input.enabled = false;
  if (options.freshSession) input.sessionMode = 'fresh';
  if (options.summarizeAfter) input.summarizeAfter = true;
  return change(options, 'schedules add', output, async (host) => {
    const seen = host.village.state();
    const before = new Set(seen.schedules.map((s) => s.id));
    const state = await host.village.addSchedule(input, baseOf(seen));
    return state.schedules.filter((s) => !before.has(s.id));
  });
}

/** `schedules remove|enable|disable <id>`. */
export async function runScheduleChange(
  options: SchedulesOptions & { id: string; action: 'remove' | 'enable' | 'disable' },
  output: CliOutput,
): Promise<ExitCode> {
  return change(options, `schedules ${options.action}`, output, async (host) => {
    // The id is resolved against what was read, and the change carries that read's revision.
    const seen = host.village.state();
    const id = resolveScheduleId(seen.schedules.map((s) => s.id), options.id);
    if (options.action === 'remove') {
      const gone = seen.schedules.filter((s) => s.id === id);
      await host.village.removeSchedule(id, baseOf(seen));
      return gone;
    }
    const state = await host.village.setScheduleEnabled(id, options.action === 'enable', baseOf(seen));
    return state.schedules.filter((s) => s.id === id);
  });
}

/** Runs one change through HostApi and prints the rows it touched (removed rows as they were). */
async function change(
  options: SchedulesOptions,
  command: string,
  output: CliOutput,
  fn: (host: import('../../host/hostApi.js').HostApi) => Promise<ScheduleView[]>,
): Promise<ExitCode> {
  const managed = await withVillage(options.dataDir, command, output, async (host) => listOf({ schedules: await fn(host), schedulesBlocked: null }, host.world().language));
  if (!managed.ok) return managed.exit;
  const verb = command.split(' ')[1];
  if (options.json) output.stdout(jsonText({ [verb === 'remove' ? 'removed' : 'schedule']: managed.value.schedules[0] ?? null }));
  else output.stdout(managed.value.schedules.map((row) => `${verb === 'remove' ? 'removed ' : ''}${scheduleLine(row)}`).join('\n'));
  return EXIT.ok;
}
