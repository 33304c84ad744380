/**
 * `fuseforks-cli schedules list|add|remove|enable|disable|run-now` — the village's schedules. Thin: parse, then the
 * lazily loaded runners in `../manage/schedules.js` and `../manage/scheduleRunNow.js`.
 */
import { Args, Command, Flags } from '@oclif/core';
import { manageFlags as baseFlags, humanOutputOf as outputOf, secretsFlag } from '../flags.js';

const idArg = { id: Args.string({ required: true, description: 'The schedule id (from schedules list), or an unambiguous start of it (4+ characters).' }) };

const HELD = 'Refused (exit 4) while serve or the GUI has the village open: make the change there, or stop it first.';

/** `schedules list`. */
export class SchedulesList extends Command {
  static override summary = 'List the schedules: id, on/off, when, target, next due, pre-check approval.';
  static override description = 'Read-only: also answers while serve or the GUI has the village open (from schedules.json).';
  static override examples = ['<%= config.bin %> schedules list -d ./data', '<%= config.bin %> schedules list -d ./data --json'];
  static override flags = baseFlags;

  async run(): Promise<void> {
    const { flags } = await this.parse(SchedulesList);
    const { runSchedulesList } = await import('../manage/schedules.js');
    process.exitCode = await runSchedulesList({ dataDir: flags['data-dir'], json: flags.json }, outputOf(flags));
  }
}

/** `schedules add`. */
export class SchedulesAdd extends Command {
  static override summary = 'Add a schedule: a message sent to an agent every N minutes, daily or weekly (local time).';
  static override description = `Writes workspace/schedules.json as the GUI's schedule dialog does (a new id, the creation time as the interval anchor). ${HELD}`;
  static override examples = [
    '<%= config.bin %> schedules add -d ./data --to front --every 30 --message "Check the inbox."',
    '<%= config.bin %> schedules add -d ./data --to front --daily 09:00 --message "Morning report."',
    '<%= config.bin %> schedules add -d ./data --to front --weekly "fri 17:00" --message "Weekly summary." --fresh-session',
  ];
  static override flags = {
    ...baseFlags,
    to: Flags.string({ required: true, helpValue: '<agent id>', description: 'The agent that receives the message.' }),
    message: Flags.string({ char: 'm', required: true, helpValue: '<text>', description: 'What the agent is sent.' }),
    every: Flags.integer({ min: 1, helpValue: '<minutes>', description: 'Every N minutes (counted from now).' }),
    daily: Flags.string({ helpValue: 'HH:MM', description: 'Every day at this local time.' }),
    weekly: Flags.string({ helpValue: '"DAY HH:MM"', description: 'Every week on this day (mon…sun) at this local time.' }),
    disabled: Flags.boolean({ default: false, description: 'Add it paused.' }),
    'fresh-session': Flags.boolean({ default: false, description: 'Open a new conversation for each run.' }),
    'summarize-after': Flags.boolean({ default: false, description: 'Summarize the agents of each run afterwards.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(SchedulesAdd);
    const { runSchedulesAdd } = await import('../manage/schedules.js');
    process.exitCode = await runSchedulesAdd(
      {
        dataDir: flags['data-dir'],
        json: flags.json,
        to: flags.to,
        message: flags.message,
        disabled: flags.disabled,
        freshSession: flags['fresh-session'],
        summarizeAfter: flags['summarize-after'],
        ...(flags.every === undefined ? {} : { every: flags.every }),
        ...(flags.daily === undefined ? {} : { daily: flags.daily }),
        ...(flags.weekly === undefined ? {} : { weekly: flags.weekly }),
      },
      outputOf(flags),
    );
  }
}

/** `schedules remove|enable|disable <id>`: one shape, three actions. */
abstract class ScheduleChange extends Command {
  static override args = idArg;
  static override flags = baseFlags;
  protected abstract readonly action: 'remove' | 'enable' | 'disable';

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ScheduleChange);
    const { runScheduleChange } = await import('../manage/schedules.js');
    process.exitCode = await runScheduleChange({ dataDir: flags['data-dir'], json: flags.json, id: args.id, action: this.action }, outputOf(flags));
  }
}

/** `schedules remove <id>`. */
export class SchedulesRemove extends ScheduleChange {
  static override summary = 'Delete a schedule (and its pre-check approval when no other schedule uses it).';
  static override description = `Writes workspace/schedules.json as the GUI does. ${HELD}`;
  static override examples = ['<%= config.bin %> schedules remove 3f2a9c1e -d ./data'];
  protected readonly action = 'remove' as const;
}

/** `schedules enable <id>`. */
export class SchedulesEnable extends ScheduleChange {
  static override summary = 'Resume a paused schedule.';
  static override description = `Writes workspace/schedules.json as the GUI does. ${HELD}`;
  static override examples = ['<%= config.bin %> schedules enable 3f2a9c1e -d ./data'];
  protected readonly action = 'enable' as const;
}

/** `schedules disable <id>`. */
export class SchedulesDisable extends ScheduleChange {
  static override summary = 'Pause a schedule (nothing is consumed while paused).';
  static override description = `Writes workspace/schedules.json as the GUI does. ${HELD}`;
  static override examples = ['<%= config.bin %> schedules disable 3f2a9c1e -d ./data'];
  protected readonly action = 'disable' as const;
}

/** `schedules run-now <id>`. */
export class SchedulesRunNow extends Command {
  static override summary = 'Fire one schedule now: start its target agent, send the scheduled message, wait for the reply chain.';
  static override description =
    'Only on a free village: opens it, starts the target (and --start agents it delegates to), runs an approved ' +
    'pre-check first as the ticker would, sends the message and waits until the chain of turns ends, then closes. ' +
    'The regular timing is not touched (nothing is consumed). While serve or the GUI has the village open it is ' +
    'refused (exit 4): that process fires the schedule at its due time; stop it first to fire it now.';
  static override examples = [
    '<%= config.bin %> schedules run-now 3f2a9c1e -d ./data --secrets env',
    '<%= config.bin %> schedules run-now 3f2a9c1e -d ./data --start front,worker --json',
  ];
  static override args = idArg;
  static override flags = {
    ...baseFlags,
    secrets: secretsFlag,
    start: Flags.string({ helpValue: 'a,b,c', description: 'Also start these agents (comma-separated ids), e.g. the ones the target delegates to.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SchedulesRunNow);
    const { runScheduleNow } = await import('../manage/scheduleRunNow.js');
    process.exitCode = await runScheduleNow(
      {
        dataDir: flags['data-dir'],
        json: flags.json,
        id: args.id,
        secrets: flags.secrets,
        also: (flags.start ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      },
      outputOf(flags),
    );
  }
}
