/**
 * `fuseforks-cli agents list` — the village's agents. Thin: parse, then the lazily loaded runner in
 * `../manage/agents.js`.
 */
import { Command } from '@oclif/core';
import { manageFlags, humanOutputOf } from '../flags.js';

/** `agents list`. */
export class AgentsList extends Command {
  static override summary = 'List the agents: id, name, status, model template, reception / batch / plan review, ties.';
  static override description =
    'Read-only: also answers while serve or the GUI has the village open (from world.json; whether an agent runs is ' +
    'then known only to that process, shown as unknown / null).';
  static override examples = ['<%= config.bin %> agents list -d ./data', '<%= config.bin %> agents list -d ./data --json'];
  static override flags = manageFlags;

  async run(): Promise<void> {
    const { flags } = await this.parse(AgentsList);
    const { runAgentsList } = await import('../manage/agents.js');
    process.exitCode = await runAgentsList({ dataDir: flags['data-dir'], json: flags.json }, humanOutputOf(flags));
  }
}
