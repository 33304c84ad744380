/**
 * `fuseforks-cli agents add|edit|remove|tie|untie` — build or change the village's agents from a script. Thin:
 * parse, then the lazily loaded runners in `../manage/designEdits.js`.
 */
import { Args, Command, Flags } from '@oclif/core';
import { humanOutputOf } from '../flags.js';
import { baseOption, DESIGN_BASE, DESIGN_HELD, designFlags } from './designFlags.js';

const idArg = Args.string({ required: true, description: 'The agent id (from agents list).' });

/** `agents add`. */
export class AgentsAdd extends Command {
  static override summary = 'Add an agent: its id is made from the name, as the GUI\'s Add form does.';
  static override description = `Writes workspace/world.json as the GUI does. ${DESIGN_HELD} ${DESIGN_BASE}`;
  static override examples = ['<%= config.bin %> agents add "Night Owl" -d ./data --template demo --json'];
  static override args = { name: Args.string({ required: true, description: 'The display name.' }) };
  static override flags = {
    ...designFlags,
    template: Flags.string({ helpValue: '<template id>', description: 'Its model template (default: the role\'s, else the first template).' }),
    role: Flags.string({ helpValue: '<role id>', description: 'A role whose defaults it starts from.' }),
    group: Flags.string({ helpValue: '<group id>', description: 'The group it belongs to.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(AgentsAdd);
    const { runAgentAdd } = await import('../manage/designEdits.js');
    process.exitCode = await runAgentAdd(
      {
        dataDir: flags['data-dir'],
        json: flags.json,
        name: args.name,
        ...baseOption(flags),
        ...(flags.template === undefined ? {} : { template: flags.template }),
        ...(flags.role === undefined ? {} : { role: flags.role }),
        ...(flags.group === undefined ? {} : { group: flags.group }),
      },
      humanOutputOf(flags),
    );
  }
}

/** `agents edit`. */
export class AgentsEdit extends Command {
  static override summary = 'Change an agent: name, model template, group, batch start, plan review, work folder.';
  static override description = `Saves the agent as the GUI's inspector does (fields not given stay as they are). ${DESIGN_HELD} ${DESIGN_BASE}`;
  static override examples = ['<%= config.bin %> agents edit writer -d ./data --name "Copy Writer" --no-batch-start'];
  static override args = { id: idArg };
  static override flags = {
    ...designFlags,
    name: Flags.string({ helpValue: '<name>', description: 'The display name.' }),
    template: Flags.string({ helpValue: '<template id>', description: 'The model template.' }),
    group: Flags.string({ helpValue: '<group id|none>', description: 'The group (none: no group).' }),
    'batch-start': Flags.boolean({ allowNo: true, description: 'Started by --start batch.' }),
    'plan-review': Flags.boolean({ allowNo: true, description: 'A person reviews its plans before they run.' }),
    'work-dir': Flags.string({ helpValue: '<folder|none>', description: 'Its work folder (absolute; none: no folder).' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(AgentsEdit);
    const { runAgentEdit } = await import('../manage/designEdits.js');
    const orNull = (value: string): string | null => (value === 'none' ? null : value);
    process.exitCode = await runAgentEdit(
      {
        dataDir: flags['data-dir'],
        json: flags.json,
        id: args.id,
        ...baseOption(flags),
        fields: {
          ...(flags.name === undefined ? {} : { name: flags.name }),
          ...(flags.template === undefined ? {} : { template: flags.template }),
          ...(flags.group === undefined ? {} : { group: orNull(flags.group) }),
          ...(flags['batch-start'] === undefined ? {} : { batchStart: flags['batch-start'] }),
          ...(flags['plan-review'] === undefined ? {} : { planReview: flags['plan-review'] }),
          ...(flags['work-dir'] === undefined ? {} : { workDir: orNull(flags['work-dir']) }),
        },
      },
      humanOutputOf(flags),
    );
  }
}

/** `agents remove`. */
export class AgentsRemove extends Command {
  static override summary = 'Remove an agent, its inbound ties, its folder and its schedules.';
  static override description = `As the GUI's delete does. ${DESIGN_HELD} ${DESIGN_BASE}`;
  static override examples = ['<%= config.bin %> agents remove archivist -d ./data'];
  static override args = { id: idArg };
  static override flags = designFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(AgentsRemove);
    const { runAgentRemove } = await import('../manage/designEdits.js');
    process.exitCode = await runAgentRemove({ dataDir: flags['data-dir'], json: flags.json, id: args.id, ...baseOption(flags) }, humanOutputOf(flags));
  }
}

const tieArgs = {
  id: idArg,
  targets: Args.string({ required: true, description: 'The agents it may ask (one or more ids).' }),
};

/** The ids after the agent's own (`agents tie ID TARGET…`). */
async function runTies(argv: readonly string[], flags: { 'data-dir': string; json: boolean; base?: string | undefined; quiet: boolean; 'log-level': 'info' | 'warn' | 'error' }, action: 'tie' | 'untie'): Promise<void> {
  const [id, ...targets] = argv;
  const { runAgentTies } = await import('../manage/designEdits.js');
  process.exitCode = await runAgentTies({ dataDir: flags['data-dir'], json: flags.json, id: id ?? '', targets, action, ...baseOption(flags) }, humanOutputOf(flags));
}

/** `agents tie`. */
export class AgentsTie extends Command {
  static override summary = 'Tie an agent to others: it may ask them (a one-way tie, as drawn on the Kizuna map).';
  static override description = `Adds the targets to its ties, keeping the ones it has. ${DESIGN_HELD} ${DESIGN_BASE}`;
  static override examples = ['<%= config.bin %> agents tie front researcher writer -d ./data'];
  static override strict = false;
  static override args = tieArgs;
  static override flags = designFlags;

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(AgentsTie);
    await runTies(argv as string[], flags, 'tie');
  }
}

/** `agents untie`. */
export class AgentsUntie extends Command {
  static override summary = 'Cut ties: the agent may no longer ask the targets.';
  static override description = `Takes the targets out of its ties. ${DESIGN_HELD} ${DESIGN_BASE}`;
  static override examples = ['<%= config.bin %> agents untie front archivist -d ./data'];
  static override strict = false;
  static override args = tieArgs;
  static override flags = designFlags;

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(AgentsUntie);
    await runTies(argv as string[], flags, 'untie');
  }
}
