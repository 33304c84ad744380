/**
 * `fuseforks-cli village set reception ID|none` — the village-wide settings a script sets. Thin: parse, then the
 * lazily loaded runner in `../manage/designEdits.js`.
 */
import { Args, Command } from '@oclif/core';
import { humanOutputOf } from '../flags.js';
import { baseOption, DESIGN_BASE, DESIGN_HELD, designFlags } from './designFlags.js';

/** `village set reception`. */
export class VillageSetReception extends Command {
  static override summary = 'Set the reception: the agent that answers ask, the door and external clients (none: no reception).';
  static override description = `Writes workspace/world.json as the GUI's reception choice does. ${DESIGN_HELD} ${DESIGN_BASE}`;
  static override examples = ['<%= config.bin %> village set reception front -d ./data', '<%= config.bin %> village set reception none -d ./data --json'];
  static override args = { agent: Args.string({ required: true, description: 'The agent id, or none.' }) };
  static override flags = designFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(VillageSetReception);
    const { runSetReception } = await import('../manage/designEdits.js');
    process.exitCode = await runSetReception(
      { dataDir: flags['data-dir'], json: flags.json, agentId: args.agent === 'none' ? null : args.agent, ...baseOption(flags) },
      humanOutputOf(flags),
    );
  }
}
