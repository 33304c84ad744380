/**
 * `fuseforks-cli approvals list|approve|reject` — the `run` commands agents are waiting to have approved. Thin:
 * parse, then the lazily loaded runners in `../manage/approvals.js`.
 */
import { Args, Command, Flags } from '@oclif/core';
import { manageFlags as baseFlags, humanOutputOf as outputOf } from '../flags.js';

const requestArgs = {
  agent: Args.string({ required: true, description: 'The agent id (from approvals list).' }),
  line: Args.string({ required: true, description: 'The command line as approvals list shows it (quoted, or as separate words).' }),
};

const HELD = 'Writes the agent\'s run.json as the GUI\'s approvals dialog does. Refused (exit 4) while serve or the GUI has the village open: decide there, or stop it first.';

/** `approvals list`. */
export class ApprovalsList extends Command {
  static override summary = 'List the commands agents asked to run and are waiting for a person to approve.';
  static override description = 'Read-only: also answers while serve or the GUI has the village open (from each agent\'s run.json). A run.json that cannot be read is named.';
  static override examples = ['<%= config.bin %> approvals list -d ./data', '<%= config.bin %> approvals list -d ./data --json'];
  static override flags = baseFlags;

  async run(): Promise<void> {
    const { flags } = await this.parse(ApprovalsList);
    const { runApprovalsList } = await import('../manage/approvals.js');
    process.exitCode = await runApprovalsList({ dataDir: flags['data-dir'], json: flags.json }, outputOf(flags));
  }
}

/** `approvals approve AGENT LINE… [--scope once|always|prefix]`. */
export class ApprovalsApprove extends Command {
  static override summary = 'Approve a pending command: once (its next run), always (this exact line), or its prefix.';
  static override description = HELD;
  static override examples = [
    '<%= config.bin %> approvals approve worker "make test" -d ./data',
    '<%= config.bin %> approvals approve worker git status -d ./data --scope always',
  ];
  static override args = requestArgs;
  static override flags = {
    ...baseFlags,
    scope: Flags.option({ options: ['once', 'always', 'prefix'] as const, default: 'once' as const, description: 'once: the next run only · always: this exact line from now on · prefix: the command and its first argument with any further ones.' })(),
  };
  static override strict = false;

  async run(): Promise<void> {
    const { args, argv, flags } = await this.parse(ApprovalsApprove);
    const { runApprovalDecision } = await import('../manage/approvals.js');
    process.exitCode = await runApprovalDecision(
      { dataDir: flags['data-dir'], json: flags.json, agentId: args.agent, line: argv.slice(1).map(String).join(' '), decision: flags.scope },
      outputOf(flags),
    );
  }
}

/** `approvals reject AGENT LINE…`. */
export class ApprovalsReject extends Command {
  static override summary = 'Reject a pending command: the agent is told so at its next run of it.';
  static override description = HELD;
  static override examples = ['<%= config.bin %> approvals reject worker "rm -rf build" -d ./data'];
  static override args = requestArgs;
  static override flags = baseFlags;
  static override strict = false;

  async run(): Promise<void> {
    const { args, argv, flags } = await this.parse(ApprovalsReject);
    const { runApprovalDecision } = await import('../manage/approvals.js');
    process.exitCode = await runApprovalDecision(
      { dataDir: flags['data-dir'], json: flags.json, agentId: args.agent, line: argv.slice(1).map(String).join(' '), decision: 'reject' },
      outputOf(flags),
    );
  }
}
